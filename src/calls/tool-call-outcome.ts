import { ToolErrorCode } from "../core/index.js";
import { type ToLlmContextOptions, ToolResult } from "../result/index.js";
import { ValidationWarningCode } from "../validation/index.js";
import type { ToolCallBatch } from "./tool-call-batch.js";
import type { ToolCallLifecycle } from "./tool-call-lifecycle.js";
import type { ToolCallRequest } from "./tool-call-request.js";
import { ToolCallStatus } from "./tool-call-status.js";

/** What the model is told about one call: the text, and whether it reports an error. */
export interface ToolCallOutcome {
  readonly content: string;
  readonly isError: boolean;
}

/**
 * The answer to one call of a batch, whatever became of it: the tool's result
 * (`toLlmContext()`, truncated as the result says), or else the validation error, the denial
 * reason, the failure, timeout or cancellation, or, for a call that never ran, a plain
 * "not executed" error.
 */
export function toolCallOutcome(
  batch: ToolCallBatch,
  request: ToolCallRequest,
  options: ToLlmContextOptions = {},
): ToolCallOutcome {
  const lifecycle = batch.getLifecycle(request);
  const result = lifecycleResult(lifecycle, request);
  return {
    content: result.toLlmContext(options) + coercionNote(lifecycle),
    isError: !result.success,
  };
}

/**
 * The conversions the gate made to the call's arguments ("5" to 5), as a note appended to what
 * the model is told, so it sends the right types next time; empty when there were none.
 */
export function coercionNote(lifecycle: ToolCallLifecycle | undefined): string {
  const warnings = lifecycle?.request.validationResult?.warnings;
  if (warnings === undefined || warnings.length === 0) return "";
  const coerced = warnings.filter((w) => w.warningCode === ValidationWarningCode.Coerced);
  if (coerced.length === 0) return "";
  return `\n\nValidation warnings:\n${coerced.map((w) => `- ${w.message}`).join("\n")}`;
}

/**
 * The result the model is answered with for a call in this lifecycle (see
 * {@link toolCallOutcome}): the tool's own result, or a failed one saying why it did not run.
 */
export function lifecycleResult(
  lifecycle: ToolCallLifecycle | undefined,
  request: ToolCallRequest,
): ToolResult {
  if (lifecycle === undefined) {
    if (!request.isValid) return invalid(request, undefined);
    return ToolResult.failed("The call was not executed.");
  }
  if (lifecycle.result !== undefined) return lifecycle.result;
  const message = lifecycle.errorMessage;
  switch (lifecycle.status) {
    case ToolCallStatus.ValidationFailed:
      return invalid(request, message);
    case ToolCallStatus.Denied: {
      const reason = lifecycle.approvalDecision?.reason;
      return ToolResult.failed(
        reason === undefined || reason === ""
          ? "The call was denied and not executed."
          : `The call was denied and not executed. Reason: ${reason}`,
        ToolErrorCode.Denied,
      );
    }
    case ToolCallStatus.Failed:
    case ToolCallStatus.Completed:
      return ToolResult.failed(message ?? "Tool execution failed", ToolErrorCode.ExecutionError);
    case ToolCallStatus.TimedOut:
      return ToolResult.failed(message ?? "Tool execution timed out", ToolErrorCode.Timeout);
    case ToolCallStatus.Cancelled:
      return ToolResult.failed(message ?? "Tool execution was cancelled", ToolErrorCode.Cancelled);
    default:
      if (!request.isValid) return invalid(request, undefined);
      return ToolResult.failed(
        `The call was not executed: it was still ${lifecycle.status} when the results were sent.`,
      );
  }
}

function invalid(request: ToolCallRequest, message: string | undefined): ToolResult {
  if (message !== undefined) return ToolResult.failed(message, ToolErrorCode.ValidationFailed);
  if (request.validationResult !== undefined && !request.validationResult.isValid) {
    return ToolResult.validationFailed(request.validationResult);
  }
  return ToolResult.failed("Parameter validation failed", ToolErrorCode.ValidationFailed);
}
