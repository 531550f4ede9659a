import { NIL_UUID, type ToolExecutionContext } from "../context/index.js";
import type { AuditCallDecision } from "./audit-log.js";

/**
 * The audit's decision columns of an execution a processor approved, from its context's approval
 * details (`decidedBy` set); none for a call run directly.
 */
export function callDecisionColumns(context: ToolExecutionContext | undefined): AuditCallDecision {
  const approval = context?.approval;
  if (context === undefined || approval?.decidedBy === undefined) return {};
  return {
    callId: context.toolCallId ?? null,
    sessionId: context.sessionId === NIL_UUID ? null : context.sessionId,
    decision: "approved",
    decidedBy: approval.decidedBy,
    approvalScope: approval.scope ?? null,
    grantId: approval.grantId ?? null,
    argumentsHash: approval.argumentsHash ?? null,
    editedArgumentsHash: approval.editedArgumentsHash ?? null,
  };
}
