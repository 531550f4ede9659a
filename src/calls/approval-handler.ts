import type { ApprovalHandler as BaseApprovalHandler } from "../approval/index.js";
import type { ApprovalDecision } from "./approval-decision.js";
import type { ToolCallRequest } from "./tool-call-request.js";

// The handler contract lives in approval/ (the executor asks through it too); re-exported here
// so `import { ApprovalPromptDetails } from "aintern"` / calls keeps working.
export type { ApprovalPromptDetails } from "../approval/index.js";

/**
 * Asks a person whether a call may run, as the `ToolCallProcessor` asks: with the
 * {@link ToolCallRequest}, expecting an {@link ApprovalDecision}. Bind it with
 * `decision.bindTo(request)`; a decision bound to another request or other arguments is refused.
 * The processor gives up after its `approvalTimeoutMs` (a timeout decision) or when `signal`
 * aborts (a cancellation); a handler that throws counts as a denial. Nothing runs without a
 * decision that approves. The same handler can be the `ToolExecutor`'s `approval.handler`
 * (see `ApprovalHandler` in approval/).
 */
export type ApprovalHandler = BaseApprovalHandler<ToolCallRequest, ApprovalDecision>;
