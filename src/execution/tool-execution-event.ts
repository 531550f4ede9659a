/** What happened in a {@link ToolExecutionEvent} (Lexichord `ToolExecutionEventType`). */
export const ToolExecutionEventType = {
  Started: "Started",
  InProgress: "InProgress",
  Completed: "Completed",
  Failed: "Failed",
  Timeout: "Timeout",
  Cancelled: "Cancelled",
  Warning: "Warning",
  ConfirmationRequested: "ConfirmationRequested",
  ConfirmationReceived: "ConfirmationReceived",
} as const;

/** One of the {@link ToolExecutionEventType} values. */
export type ToolExecutionEventType =
  (typeof ToolExecutionEventType)[keyof typeof ToolExecutionEventType];

/** One step of one execution, as `observe(executionId)` yields it. */
export interface ToolExecutionEvent {
  readonly executionId: string;
  /** The call the execution answers, when the caller gave one (`callId`, a context's `toolCallId`). */
  readonly callId?: string;
  /** The session the execution belongs to, when the caller gave one. */
  readonly sessionId?: string;
  readonly toolName: string;
  readonly eventType: ToolExecutionEventType;
  readonly message?: string;
  readonly timestamp: Date;
  /** Time since the execution started. */
  readonly elapsedMs?: number;
  /** For InProgress events carrying the tool's progress: 0-100. */
  readonly progressPercent?: number;
  readonly data?: Readonly<Record<string, unknown>>;
}

/** True for the event types that end an execution's stream. */
export function isFinalEventType(type: ToolExecutionEventType): boolean {
  return (
    type === ToolExecutionEventType.Completed ||
    type === ToolExecutionEventType.Failed ||
    type === ToolExecutionEventType.Timeout ||
    type === ToolExecutionEventType.Cancelled
  );
}
