import { isTerminalToolCallStatus, ToolCallStatus } from "./tool-call-status.js";

const S = ToolCallStatus;

// The arrows of spec 002's lifecycle flow diagram, plus "any non-terminal -> Cancelled".
const forward: ReadonlyMap<ToolCallStatus, readonly ToolCallStatus[]> = new Map<
  ToolCallStatus,
  readonly ToolCallStatus[]
>([
  [S.Parsed, [S.Validating]],
  [S.Validating, [S.ValidationFailed, S.AwaitingApproval, S.Approved]],
  [S.AwaitingApproval, [S.Approved, S.Denied]],
  [S.Approved, [S.Executing]],
  [S.Executing, [S.Completed, S.Failed, S.TimedOut]],
]);

/**
 * The states a lifecycle in `from` may move to next: the arrows of spec 002's flow diagram, plus
 * Cancelled from any non-terminal state. Empty for a terminal state.
 */
export function nextToolCallStatuses(from: ToolCallStatus): readonly ToolCallStatus[] {
  if (isTerminalToolCallStatus(from)) return [];
  return [...(forward.get(from) ?? []), S.Cancelled];
}

/** Whether moving a lifecycle from `from` to `to` is legal (checked on every move: no copies). */
export function canTransition(from: ToolCallStatus, to: ToolCallStatus): boolean {
  if (isTerminalToolCallStatus(from)) return false;
  return to === S.Cancelled || (forward.get(from)?.includes(to) ?? false);
}
