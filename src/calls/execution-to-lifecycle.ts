import { ToolErrorCode } from "../core/index.js";
import { type ToolExecutionResult, ToolExecutionStatus } from "../execution/index.js";
import type { ToolCallLifecycle } from "./tool-call-lifecycle.js";

/**
 * Moves an Executing lifecycle to the end the execution reached. A failure the tool reported is
 * a completed call with a failed result; a failure of the pipeline around it (not found, over
 * the concurrency limit, a throw) fails the call.
 */
export function finishFromExecution(
  lifecycle: ToolCallLifecycle,
  execution: ToolExecutionResult,
): void {
  switch (execution.status) {
    case ToolExecutionStatus.Completed:
      lifecycle.complete(execution.result);
      return;
    case ToolExecutionStatus.Timeout:
      lifecycle.timeout();
      return;
    case ToolExecutionStatus.Cancelled:
      lifecycle.cancel(execution.errorMessage);
      return;
    case ToolExecutionStatus.Failed:
      if (
        execution.result.exception === undefined &&
        execution.errorCode !== ToolErrorCode.ToolNotFound &&
        execution.errorCode !== ToolErrorCode.ConcurrencyLimit
      ) {
        lifecycle.complete(execution.result);
        return;
      }
      lifecycle.fail(execution.errorMessage ?? "Execution failed", execution.result.exception);
      return;
    default:
      lifecycle.fail(execution.errorMessage ?? `Execution ended with status ${execution.status}`);
  }
}
