import { timeOrderedUuid } from "../core/index.js";
import type { AuditDecision, AuditRecord, AuditStatus } from "../execution/index.js";
import type { ApprovalDecision } from "./approval-decision.js";
import { hashToolCallArguments } from "./hash-tool-call-arguments.js";
import type { ToolCallLifecycle } from "./tool-call-lifecycle.js";
import { ToolCallStatus } from "./tool-call-status.js";

/** How a call's decision was reached, noted while it is decided, written on its audit row. */
export interface DecisionNote {
  /** `policy`, `remembered`, `person`, `host`, `rule`, `no-handler`, `timeout`, `handler-error`, `validation`, `caller`. */
  decidedBy?: string;
  /** `once`, `session`, `tool` or `pattern`, for approvals. */
  approvalScope?: string;
  grantId?: string;
}

/** The reach of an approval: what it asked to remember. */
export function approvalScopeOf(decision: ApprovalDecision): string {
  if (decision.rememberPattern !== undefined && decision.shouldRemember) return "pattern";
  if (decision.rememberForTool) return "tool";
  if (decision.rememberForSession) return "session";
  return "once";
}

/** The argument hashes of a lifecycle: original and, when edited, edited. */
export function argumentHashes(lifecycle: ToolCallLifecycle): {
  argumentsHash: string;
  editedArgumentsHash: string | null;
} {
  const edited = lifecycle.approvalDecision?.modifiedParameters;
  return {
    argumentsHash: hashToolCallArguments(lifecycle.request.parameters),
    editedArgumentsHash: edited === undefined ? null : hashToolCallArguments(edited),
  };
}

const notRunStatus: Partial<Record<ToolCallStatus, [AuditStatus, AuditDecision]>> = {
  [ToolCallStatus.ValidationFailed]: ["validationError", "invalid"],
  [ToolCallStatus.Denied]: ["denied", "denied"],
  [ToolCallStatus.Cancelled]: ["cancelled", "cancelled"],
  [ToolCallStatus.Approved]: ["pending", "approved"],
};

/**
 * The audit row of a call that did not reach the executor (invalid, denied, cancelled before it
 * ran, or approved through `recordDecision` and not yet run), or undefined for a call the
 * executor recorded itself.
 */
export function notRunAuditRecord(
  lifecycle: ToolCallLifecycle,
  note: DecisionNote,
  context: {
    readonly callId: string | undefined;
    readonly sessionId: string;
    readonly parameters: AuditRecord["parameters"] | null;
  },
): AuditRecord | undefined {
  if (lifecycle.executionStarted !== undefined) return undefined;
  const mapped = notRunStatus[lifecycle.status];
  if (mapped === undefined) return undefined;
  const [status, decision] = mapped;
  const completedAt = new Date();
  const startedAt = lifecycle.validationStarted ?? lifecycle.request.requestedAt;
  const reason =
    lifecycle.status === ToolCallStatus.Denied
      ? (lifecycle.approvalDecision?.reason ?? "Denied")
      : lifecycle.errorMessage;
  const hashes = argumentHashes(lifecycle);
  return {
    executionId: timeOrderedUuid(),
    toolName: lifecycle.request.toolId === "" ? "(none)" : lifecycle.request.toolId,
    status,
    parameters: context.parameters,
    errorMessage: lifecycle.status === ToolCallStatus.Approved ? null : (reason ?? null),
    errorCode: null,
    startedAt,
    completedAt,
    wasApproved: lifecycle.status === ToolCallStatus.Approved,
    wasCancelled: lifecycle.status === ToolCallStatus.Cancelled,
    conversationId: context.sessionId,
    callId: context.callId ?? null,
    sessionId: context.sessionId,
    decision,
    decidedBy:
      note.decidedBy ??
      (lifecycle.status === ToolCallStatus.ValidationFailed ? "validation" : "caller"),
    approvalScope: note.approvalScope ?? null,
    grantId: note.grantId ?? null,
    argumentsHash: hashes.argumentsHash,
    editedArgumentsHash: hashes.editedArgumentsHash,
  };
}
