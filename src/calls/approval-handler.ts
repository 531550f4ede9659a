import type { RiskLevel } from "../core/index.js";
import type { ApprovalDecision } from "./approval-decision.js";
import type { ToolCallRequest } from "./tool-call-request.js";

/** What the processor tells an {@link ApprovalHandler} besides the request itself. */
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
}

/**
 * Asks a person (a terminal prompt, a browser console, a chat message) whether a call may run.
 * Resolve an {@link ApprovalDecision}: approve (optionally remembering, or with edited
 * parameters) or deny with a reason. Bind it with `decision.bindTo(request)`; a decision bound to
 * another request or other arguments is refused. The processor gives up after its
 * `approvalTimeoutMs` (a timeout decision) or when `signal` aborts (a cancellation); a handler
 * that throws counts as a denial. Nothing runs without a decision that approves.
 */
export interface ApprovalHandler {
  requestApproval(
    request: ToolCallRequest,
    signal: AbortSignal,
    details?: ApprovalPromptDetails,
  ): ApprovalDecision | Promise<ApprovalDecision>;
}
