import { AinternError, type Cancellation, ToolErrorCode } from "../core/index.js";
import { ToolResult, ToolResultBuilder } from "../result/index.js";
import type { Tool } from "../tools/index.js";
import { ToolExecutionEventType } from "./tool-execution-event.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";

/** What the pipeline decided about one execution, before it becomes a `ToolExecutionResult`. */
export interface Outcome {
  readonly status: ToolExecutionStatus;
  readonly result: ToolResult;
  /** The tool, once it was found. */
  readonly tool?: Tool;
  readonly wasApproved?: boolean;
  readonly mayStillBeRunning?: boolean;
  /** The execution's effective timeout, once it held a slot. */
  readonly timeoutMs?: number;
  /** The error as logs and the audit row may show it when parameters are redacted. */
  readonly redactedError?: string;
  /** Why the authorizer (or the approval gate) refused, for the logs. */
  readonly denialReason?: string;
  /** What the tool threw past its base class, for the logs. */
  readonly thrown?: unknown;
  /** What made the pipeline itself fail (a bug, or a failing plug-in), for the logs. */
  readonly pipelineError?: unknown;
}

/**
 * The reasons the executor aborts a tool's signal with: DOMExceptions named like the platform's
 * own (`AbortSignal.timeout()` gives a "TimeoutError"), so a tool that rethrows `signal.reason`
 * throws a real error, and the executor tells a timeout from a cancellation by its name.
 */
export function cancelledReason(): DOMException {
  return new DOMException("The execution was cancelled", "AbortError");
}

/** The reason of an execution stopped by its timeout (see {@link cancelledReason}). */
export function timedOutReason(timeoutMs: number): DOMException {
  return new DOMException(`The execution timed out after ${timeoutMs} ms`, "TimeoutError");
}

/** Whether `reason` is a {@link timedOutReason}. */
export function isTimedOutReason(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === "TimeoutError";
}

/**
 * The outcome of an execution stopped by its cancellation: a timeout (when the reason is the
 * timeout's and the run had one) or a cancellation.
 */
export function stoppedOutcome(
  tool: Tool,
  stopped: Cancellation,
  mayStillBeRunning: boolean,
  timeoutMs: number | undefined,
  wasApproved: boolean,
): Outcome {
  if (isTimedOutReason(stopped.reason) && timeoutMs !== undefined) {
    const base = ToolResult.timeout(timeoutMs);
    return {
      tool,
      status: ToolExecutionStatus.Timeout,
      result: mayStillBeRunning
        ? ToolResult.failed(
            `${base.error} The tool did not stop when asked and may still be running.`,
            ToolErrorCode.Timeout,
          ).withMetadata("mayStillBeRunning", true)
        : base,
      wasApproved: true,
      mayStillBeRunning,
      timeoutMs,
    };
  }
  const message = mayStillBeRunning
    ? "Execution cancelled. The tool did not stop when asked and may still be running."
    : "Execution cancelled";
  return {
    tool,
    status: ToolExecutionStatus.Cancelled,
    result: mayStillBeRunning
      ? ToolResult.failed(message, ToolErrorCode.Cancelled).withMetadata("mayStillBeRunning", true)
      : ToolResult.cancelled(message),
    wasApproved,
    mayStillBeRunning,
    timeoutMs,
  };
}

/**
 * The result of an exception thrown past the tool (a tool without `ToolBase`, or the pipeline
 * itself): error code `ExecutionError`, as spec 003's executor has it, with the exception's type
 * name kept in the message ("TypeError: boom") and the exception itself on the result. An
 * `AinternError` (aintern's own, such as a sandbox's `IsolationRequired`) keeps its code. (A
 * `ToolBase` tool catches its own exceptions with `ToolResult.fromException`, whose code is the
 * type name, as specs 001 and 004 have it.)
 */
export function thrownResult(error: unknown): ToolResult {
  const base = ToolResult.fromException(error);
  // aintern's own errors (a sandbox refusing to run a tool, say) keep their documented code.
  if (AinternError.isInstance(error)) return base;
  const name = typeNameOf(error);
  const message = base.error ?? "";
  const text =
    name === undefined || message === name || message.startsWith(`${name}:`)
      ? message
      : `${name}: ${message}`;
  return ToolResultBuilder.failure(text)
    .asFailure(text, ToolErrorCode.ExecutionError)
    .withException(error)
    .withMessage(text)
    .build();
}

/** An error's type name: its `name`, or its class name when `name` is the generic "Error". */
function typeNameOf(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { name, message } = error as { name?: unknown; message?: unknown };
  if (typeof name !== "string" || typeof message !== "string") return undefined;
  if (name !== "Error" && name !== "") return name;
  const className = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof className === "string" && className !== "" && className !== "Object"
    ? className
    : "Error";
}

/** The status of an execution whose tool returned `result`. */
export function statusOf(result: ToolResult): ToolExecutionStatus {
  if (result.success) return ToolExecutionStatus.Completed;
  if (result.isCancelled) return ToolExecutionStatus.Cancelled;
  if (result.isTimeout) return ToolExecutionStatus.Timeout;
  if (result.isDenied) return ToolExecutionStatus.Denied;
  if (result.isValidationFailure) return ToolExecutionStatus.ValidationError;
  return ToolExecutionStatus.Failed;
}

/** The final event type of an execution that ended with `status`. */
export function finalEventType(status: ToolExecutionStatus): ToolExecutionEventType {
  return status === ToolExecutionStatus.Completed
    ? ToolExecutionEventType.Completed
    : status === ToolExecutionStatus.Timeout
      ? ToolExecutionEventType.Timeout
      : status === ToolExecutionStatus.Cancelled
        ? ToolExecutionEventType.Cancelled
        : ToolExecutionEventType.Failed;
}

/** An error's message, or the thrown value as text. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
