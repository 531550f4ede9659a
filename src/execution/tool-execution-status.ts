/**
 * The outcome vocabulary of an execution: the AIntern statuses (pending, inProgress, completed,
 * failed, cancelled) joined with the Lexichord ones (timeout, permissionDenied, validationError,
 * requiresConfirmation) and `denied` for a refused confirmation or approval.
 *
 * Timeout and cancellation are distinct outcomes: `timeout` when the execution's time limit ran
 * out, `cancelled` when its caller aborted it (a signal, `cancel(id)`, or a cancelled batch).
 */
export const ToolExecutionStatus = {
  Pending: "pending",
  InProgress: "inProgress",
  Completed: "completed",
  Failed: "failed",
  Cancelled: "cancelled",
  Timeout: "timeout",
  PermissionDenied: "permissionDenied",
  ValidationError: "validationError",
  RequiresConfirmation: "requiresConfirmation",
  Denied: "denied",
} as const;

/** One of the {@link ToolExecutionStatus} values. */
export type ToolExecutionStatus = (typeof ToolExecutionStatus)[keyof typeof ToolExecutionStatus];

/** True for the statuses an execution ends in (everything but pending and inProgress). */
export function isFinalExecutionStatus(status: ToolExecutionStatus): boolean {
  return status !== ToolExecutionStatus.Pending && status !== ToolExecutionStatus.InProgress;
}
