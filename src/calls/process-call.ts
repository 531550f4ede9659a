import type { ToolProgress } from "../context/index.js";
import type { RiskLevel } from "../core/index.js";
import type { ToolResult } from "../result/index.js";
import type { ApprovalDecision, ApprovalDecisionInit } from "./approval-decision.js";
import type { CheckedCall } from "./checked-call.js";
import type { ToolCallLifecycle } from "./tool-call-lifecycle.js";
import type { ToolCallStatus } from "./tool-call-status.js";

/**
 * One call for {@link ToolCallProcessor.processCall}: what a front end (an MCP server, a web
 * console, a framework adapter) received, already parsed.
 */
export interface ProcessCallInput {
  /** The tool's id (matched case-insensitively, as the parser does). */
  readonly toolId: string;
  /** The arguments; anything but a JSON object fails validation (the model is told why). */
  readonly parameters: unknown;
  /**
   * The call's id in its session (the provider's call id, an MCP request id): the key its
   * lifecycle is stored under. A call whose id already ended in this session is answered from
   * the store, never run again. Without one, the call has no idempotency.
   */
  readonly callId?: string;
  /**
   * The conversation the call belongs to; default the processor's `sessionId`. Call ids are
   * only unique within a session; pass your own when yours are not (MCP request ids restart on
   * every connection).
   */
  readonly sessionId?: string;
  /** Cancels the call: before it runs, while asking, or while it runs. */
  readonly signal?: AbortSignal;
  /** Receives the tool's progress reports. */
  readonly onProgress?: (progress: ToolProgress) => void;
  /**
   * The person's decision when the host framework already asked (AI SDK `needsApproval`, an
   * OpenAI Agents interruption): used instead of the approval handler. It is checked like a
   * handler's answer (bound arguments, edits validated and never riskier, remember options
   * applied); a denial by a policy rule still wins over it.
   */
  readonly decision?: ApprovalDecision | ApprovalDecisionInit;
  /**
   * What `checkCall` returned for this call, when the front end checked it first (to ask the
   * person itself when it needs approval). With the same tool, session, call id and `parameters`
   * object, within a second of the check and once, the call runs on the check's verdict and on
   * the arguments that were judged, without judging it again; otherwise it is decided as without
   * it. A check that needed approval is never reused: the call is decided, and asked, again.
   */
  readonly checked?: CheckedCall;
}

/** One call for {@link ToolCallProcessor.checkCall}: judged as `processCall` would judge it. */
export interface CheckCallInput {
  /** The tool's id (matched case-insensitively). */
  readonly toolId: string;
  /** The arguments; pass this same object to `processCall` to reuse the check. */
  readonly parameters: unknown;
  /** The id the call will be processed under (`processCall`'s `callId`). */
  readonly callId?: string;
  /** Default the processor's `sessionId`. */
  readonly sessionId?: string;
}

/** What {@link ToolCallProcessor.processCall} resolves with. */
export interface ProcessCallResult {
  /** The call's final status (Completed even when the tool reported a failure: see `isError`). */
  readonly status: ToolCallStatus;
  /** True when the model is told about an error (invalid, denied, failed, timed out, ...). */
  readonly isError: boolean;
  /** The text the model gets (the result's `toLlmContext()`, or the error it should act on). */
  readonly content: string;
  /** The tool's data, when it completed successfully and returned some. */
  readonly data?: unknown;
  /** The result as a {@link ToolResult} (a failed one for a call that did not run). */
  readonly result: ToolResult;
  /** The call's whole lifecycle: transitions, decision, timings. */
  readonly lifecycle: ToolCallLifecycle;
}

/** Options of {@link ToolCallProcessor.needsApproval}. */
export interface NeedsApprovalOptions {
  /** The session whose remembered approvals apply; default the processor's `sessionId`. */
  readonly sessionId?: string;
}

/** Why a call needs a person's approval, as {@link ToolCallProcessor.needsApproval} says. */
export interface ApprovalRequirementDetails {
  /** Why the policy asks ("Medium Risk calls need approval"). */
  readonly reason: string;
  /** The call's effective risk. */
  readonly riskLevel: RiskLevel;
  /** What the call will do (the tool's execution summary), for the prompt. */
  readonly summary: string;
  /** The warning to show with the prompt (Critical calls). */
  readonly warning?: string;
  /** {@link hashToolCallArguments} of the arguments: bind the person's decision to it. */
  readonly argumentsHash: string;
}

/** A decision made in a host framework's own approval flow, for {@link ToolCallProcessor.recordDecision}. */
export interface RecordDecisionInput {
  readonly toolId: string;
  /** The arguments the person was shown. */
  readonly parameters: unknown;
  /**
   * The call's id in its session: a later `processCall` with this id (and these arguments) uses
   * the recorded decision, so the person is not asked again. Without one, pass the returned
   * `decision` to `processCall` yourself.
   */
  readonly callId?: string;
  /** Default the processor's `sessionId`. */
  readonly sessionId?: string;
  /** Approve (optionally with edits and remember options) or deny. */
  readonly decision: ApprovalDecision | ApprovalDecisionInit;
  /** Who decided (recorded with the decision and in the audit); default the processor's `approver`. */
  readonly decidedBy?: string;
}

/** What {@link ToolCallProcessor.recordDecision} resolves with. */
export interface RecordedDecision {
  /** True when the call may now run: the decision approved and was accepted. */
  readonly approved: boolean;
  /**
   * The decision as the processor applies it, bound to the arguments' hash (a denial when the
   * call is invalid, denied by a rule, or the decision could not be accepted).
   */
  readonly decision: ApprovalDecision;
  /** Why the call will not run, when it will not. */
  readonly reason?: string;
  /** The call's lifecycle so far: Approved, Denied or ValidationFailed. */
  readonly lifecycle: ToolCallLifecycle;
}
