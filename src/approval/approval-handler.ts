import type { JsonObject, RiskLevel } from "../core/index.js";

/** What an {@link ApprovalHandler} is told besides the request itself. */
export interface ApprovalPromptDetails {
  /** Why the call needs approval ("Medium Risk calls need approval"). */
  readonly reason: string;
  /** The warning to show for Critical calls. */
  readonly warning?: string;
  /** The call's effective risk (also on the request). */
  readonly riskLevel: RiskLevel;
  /** 1 for the first prompt; 2+ when an edit raised the risk or failed validation. */
  readonly round: number;
  /** Why the call is asked again, on rounds after the first. */
  readonly previousProblem?: string;
  /** The session the call belongs to (always set by the processor). */
  readonly sessionId?: string;
  /** The call's id in its session (the provider's call id), when it has one. */
  readonly callId?: string;
  /** What the call will do (the tool's execution summary; also on the request). */
  readonly summary?: string;
  /**
   * The digest of the definition of the tool the person is asked about (set by the processor).
   * A handler that keeps a decision beyond this prompt (the console's row, read again after a
   * restart) applies it only to a call whose tool has the same digest.
   */
  readonly toolDefinition?: string;
}

/**
 * The call a person is asked about: what every asker shows. A `ToolCallRequest` (from the
 * processor) is one; the `ToolExecutor` builds one for a call sent to it directly.
 */
export interface ApprovalRequest {
  /** The call's id (the provider's call id, or the execution id); a decision binds to it. */
  readonly id: string;
  readonly toolId: string;
  readonly toolName: string;
  /** The arguments the person is asked about. */
  readonly parameters: JsonObject;
  /** The call's effective risk. */
  readonly riskLevel: RiskLevel;
  /** The tool's one-line summary of the call ("Delete src/old.ts"). */
  readonly executionSummary: string;
  readonly warnings?: readonly string[] | undefined;
}

/**
 * The least a decision says: approve or not, why, and edited arguments. The processor's
 * `ApprovalDecision` is one (with remember options and its binding to the request).
 */
export interface ApprovalAnswer {
  readonly approved: boolean;
  /** Why the call was denied; passed to the model so it can adapt. */
  readonly reason?: string | undefined;
  /** Arguments the person edited; when set they replace the request's. */
  readonly modifiedParameters?: JsonObject | undefined;
  /** Who decided (a person's name or subject), when the handler knows: written to the audit. */
  readonly decidedBy?: string | undefined;
}

/**
 * Asks a person (a terminal prompt, a browser console, a chat message) whether a call may run.
 * Resolve a decision: approve (optionally with edited parameters) or deny with a reason. The
 * asker gives up after its timeout or when `signal` aborts; a handler that throws counts as a
 * denial. Nothing runs without a decision that approves. A handler may take as long as a person
 * takes (a store-backed console handler): give the processor `approvalTimeoutMs: Infinity`.
 *
 * The type parameters say what the handler is given and gives back. The `ToolCallProcessor`
 * asks with a `ToolCallRequest` and expects an `ApprovalDecision` (the `ApprovalHandler` that
 * `calls` exports); the `ToolExecutor` asks with a plain {@link ApprovalRequest} and reads an
 * {@link ApprovalAnswer}, so one handler serves both when it reads only what
 * {@link ApprovalRequest} has (as `decision.bindTo(request)` does).
 */
export interface ApprovalHandler<
  TRequest extends ApprovalRequest = ApprovalRequest,
  TDecision extends ApprovalAnswer = ApprovalAnswer,
> {
  requestApproval(
    request: TRequest,
    signal: AbortSignal,
    details?: ApprovalPromptDetails,
  ): TDecision | Promise<TDecision>;
}
