/**
 * The eleven states of a tool call's lifecycle (spec 002 `ToolCallStatus`). The values are the
 * spec's names, so they read well in logs and in the `tool_calls` table.
 *
 * @example
 * ```ts
 * if (lifecycle.status === ToolCallStatus.AwaitingApproval) showPrompt(lifecycle.request);
 * ```
 */
export const ToolCallStatus = {
  /** The call was parsed from the model's output. */
  Parsed: "Parsed",
  /** Its parameters are being validated. */
  Validating: "Validating",
  /** Parameter validation failed; the error goes back to the model. */
  ValidationFailed: "ValidationFailed",
  /** Waiting for a person's decision. */
  AwaitingApproval: "AwaitingApproval",
  /** Approved, by a person or automatically. */
  Approved: "Approved",
  /** A person denied the call. */
  Denied: "Denied",
  /** The tool is running. */
  Executing: "Executing",
  /** The tool finished and returned a result. */
  Completed: "Completed",
  /** The tool failed (threw, or the executor could not run it). */
  Failed: "Failed",
  /** The call was cancelled before it reached a terminal state. */
  Cancelled: "Cancelled",
  /** The tool ran past its timeout and was stopped. */
  TimedOut: "TimedOut",
} as const;

/** One of the {@link ToolCallStatus} values. */
export type ToolCallStatus = (typeof ToolCallStatus)[keyof typeof ToolCallStatus];

/** Every status, in the spec's order. */
export const allToolCallStatuses: readonly ToolCallStatus[] = Object.freeze(
  Object.values(ToolCallStatus),
);

const terminalStatuses: ReadonlySet<ToolCallStatus> = new Set<ToolCallStatus>([
  ToolCallStatus.Completed,
  ToolCallStatus.Failed,
  ToolCallStatus.Cancelled,
  ToolCallStatus.ValidationFailed,
  ToolCallStatus.Denied,
  ToolCallStatus.TimedOut,
]);

/** True when `value` is one of the {@link ToolCallStatus} values. */
export function isToolCallStatus(value: unknown): value is ToolCallStatus {
  return typeof value === "string" && (allToolCallStatuses as readonly string[]).includes(value);
}

/**
 * True for the six final states (Completed, Failed, Cancelled, ValidationFailed, Denied,
 * TimedOut): a lifecycle in one of them never changes again.
 */
export function isTerminalToolCallStatus(status: ToolCallStatus): boolean {
  return terminalStatuses.has(status);
}
