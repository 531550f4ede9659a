import type { ToolExecutionContext } from "../context/index.js";
import {
  type Cancellation,
  isJsonObject,
  keyTextProblem,
  ToolErrorCode,
  turnIsLong,
  yieldToEventLoop,
} from "../core/index.js";
import { ToolResult } from "../result/index.js";
import { validateOnce } from "../tools/index.js";
import type { ToolValidationResult } from "../validation/index.js";
import { approvalNeed, askApproval, isPreApproved } from "./approval-step.js";
import { buildExecutionContext, RunOptions } from "./build-execution-context.js";
import { ConcurrencyLimitError } from "./concurrency-limiter.js";
import { armTimeout, Execution, type ExecutionPlan } from "./execution.js";
import {
  cancelledReason,
  finalEventType,
  type Outcome,
  statusOf,
  stoppedOutcome,
  thrownResult,
} from "./execution-outcome.js";
import { STANDARD_MESSAGES } from "./execution-tracker.js";
import type { ExecutorRuntime } from "./executor-runtime.js";
import { expectedTool } from "./expected-tool.js";
import { ToolExecutionError } from "./tool-execution-error.js";
import { ToolExecutionEventType } from "./tool-execution-event.js";
import { effectiveTimeoutMs } from "./tool-execution-options.js";
import { ToolExecutionResult } from "./tool-execution-result.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";

/**
 * Runs one execution through the pipeline, in the order of spec 003 section 5.1: Started,
 * lookup, authorization, validation, approval (see `approval-step.ts`), a slot, InProgress, the
 * sandboxed run under a timeout, then the record (the observers' `onSettling`: the audit row), the final event and
 * `onFinished`. Resolves with a result for anything the tool or the model did; throws only
 * {@link ToolExecutionError} `DUPLICATE_EXECUTION_ID` and `INVALID_EXECUTION_ID`.
 */
export async function runExecution(
  runtime: ExecutorRuntime,
  plan: ExecutionPlan,
): Promise<ToolExecutionResult> {
  const { executionId } = plan;
  const { observers } = runtime;
  const problem = typeof executionId === "string" ? keyTextProblem(executionId) : "is not a string";
  if (problem !== undefined) {
    throw new ToolExecutionError(
      "INVALID_EXECUTION_ID",
      `The executionId ${problem}. Give each execution a short, printable id (a UUID is ideal), or leave it out to get one.`,
    );
  }
  if (runtime.tracking.running(executionId) !== undefined) {
    throw new ToolExecutionError(
      "DUPLICATE_EXECUTION_ID",
      `Execution '${executionId}' is already running; give each execution its own id.`,
    );
  }
  const execution = new Execution(plan, observers);
  const { startedAt } = execution;
  const detachCaller = linkSignal(plan.callerSignal, execution.cancellation);
  const detachContext = linkContext(plan.context, execution.cancellation);

  let outcome: Outcome;
  try {
    observers.onStarted(execution);
    execution.emit(
      ToolExecutionEventType.Started,
      STANDARD_MESSAGES.started,
      0,
      undefined,
      undefined,
      startedAt.getTime(),
    );
    outcome = await pipeline(runtime, execution);
  } catch (error) {
    // Only a bug in aintern or a misbehaving plug-in (authorizer, audit, sandbox) gets here.
    outcome = {
      status: ToolExecutionStatus.Failed,
      result: thrownResult(error),
      pipelineError: error,
    };
  } finally {
    if (detachCaller !== undefined) detachCaller();
    if (detachContext !== undefined) detachContext();
  }

  const durationMs = execution.elapsed();
  const result = new ToolExecutionResult({
    toolId: outcome.tool?.id ?? plan.toolName,
    executionId,
    result:
      outcome.result.durationMs === undefined
        ? outcome.result.withDuration(durationMs)
        : outcome.result,
    status: outcome.status,
    startedAt,
    completedAt: new Date(),
    durationMs,
    wasApproved: outcome.wasApproved ?? false,
    mayStillBeRunning: outcome.mayStillBeRunning ?? false,
    input: plan.input,
    batchId: plan.batchId,
  });

  const settling = observers.onSettling(execution, result, outcome);
  if (settling !== undefined) await settling;
  execution.emit(
    finalEventType(result.status),
    result.success ? STANDARD_MESSAGES.completed : result.errorMessage,
    execution.elapsed(),
    undefined,
    result.success ? undefined : { status: result.status, errorCode: result.errorCode },
    result.completedAt.getTime(),
  );
  observers.onFinished(execution, result, outcome);
  return result;
}

async function pipeline(runtime: ExecutorRuntime, execution: Execution): Promise<Outcome> {
  const { plan, cancellation } = execution;
  const { executionId, toolName } = plan;
  // A stream of executions that never wait (synchronous tools) must not starve timers and I/O.
  if (turnIsLong()) await yieldToEventLoop();

  // 1. Lookup
  const tool = runtime.registry.getTool(toolName);
  if (tool === undefined) {
    return {
      status: ToolExecutionStatus.Failed,
      result: ToolResult.failed(runtime.notFoundMessage(toolName), ToolErrorCode.ToolNotFound),
    };
  }
  runtime.observers.onToolFound(execution, tool);
  const expected = expectedTool(plan.context);
  if (expected !== undefined && expected !== tool) {
    const reason = `tool '${tool.id}' changed after the call was judged and approved (its definition was replaced); nothing ran. Call it again to be asked about it as it is now.`;
    return {
      tool,
      status: ToolExecutionStatus.PermissionDenied,
      result: ToolResult.failed(`Permission denied: ${reason}`, ToolErrorCode.PermissionDenied),
      denialReason: reason,
    };
  }
  if (cancellation.aborted) return stoppedOutcome(tool, cancellation, false, undefined, false);

  // 2. Authorization
  const parameters = isJsonObject(plan.parameters) ? plan.parameters : undefined;
  const required = tool.requiredPermissions;
  if (required.length > 0) {
    const auth = await runtime.authorizer.authorize(
      required,
      {
        toolId: tool.id,
        executionId,
        parameters: parameters ?? {},
        context: plan.options.context ?? plan.context?.metadata,
      },
      cancellation.signal,
    );
    if (!auth.isAuthorized) {
      return {
        tool,
        status: ToolExecutionStatus.PermissionDenied,
        result: ToolResult.failed(
          `Permission denied for '${tool.id}': ${auth.denialReason}`,
          ToolErrorCode.PermissionDenied,
        ),
        denialReason: auth.denialReason,
      };
    }
  }

  // 3. Validation
  const validation = validateOnce(tool, plan.parameters); // once per call (issue 9)
  if (!validation.isValid || parameters === undefined) {
    const message = validation.isValid
      ? "Parameters must be a JSON object"
      : validation.getErrorMessage();
    // Validation messages quote the values they reject: logged only when parameters may be.
    const logged =
      runtime.options.logParameters || validation.isValid ? message : redactedErrors(validation);
    return {
      tool,
      status: ToolExecutionStatus.ValidationError,
      result: ToolResult.validationFailed(validation.isValid ? message : validation),
      redactedError: logged,
    };
  }

  // 4. Approval (a gate, or the call's confirmation), unless the sender already approved it
  if (!isPreApproved(plan)) {
    const need = approvalNeed(runtime, plan, tool, parameters);
    if (need !== undefined) {
      const ended = await askApproval(runtime, execution, tool, parameters, need);
      if (ended !== undefined) return ended;
    }
  }

  // 5. Wait for a slot, then start the clock
  const acquired = runtime.limiter.acquire(cancellation);
  if (acquired !== undefined) {
    try {
      await acquired;
    } catch (error) {
      if (error instanceof ConcurrencyLimitError) {
        return {
          tool,
          status: ToolExecutionStatus.Failed,
          result: ToolResult.failed(error.message, ToolErrorCode.ConcurrencyLimit),
          wasApproved: true,
        };
      }
      return stoppedOutcome(tool, cancellation, false, undefined, true);
    }
  }
  try {
    const timeoutMs = effectiveTimeoutMs(
      plan.options.timeoutMs,
      tool.constraints?.maxExecutionTimeMs,
      runtime.options.defaultTimeoutMs,
    );
    execution.timeoutMs = timeoutMs;
    armTimeout(execution);
    try {
      execution.emit(
        ToolExecutionEventType.InProgress,
        STANDARD_MESSAGES.inProgress,
        execution.elapsed(),
      );
      const context = buildExecutionContext(runtime, execution, tool, parameters);
      execution.sandboxId =
        runtime.sandbox.sandboxFor?.(tool, execution.editedParameters ?? parameters) ??
        runtime.sandbox.name;
      const ready = runtime.observers.onRunning(execution, tool);
      if (ready !== undefined) await ready;
      if (cancellation.aborted) {
        return stoppedOutcome(tool, cancellation, false, timeoutMs, true);
      }

      // 6. Run
      const run = await runtime.sandbox.run(tool, context, new RunOptions(execution));
      if (run.kind === "aborted" || cancellation.aborted) {
        return stoppedOutcome(
          tool,
          cancellation,
          run.kind === "aborted" && run.mayStillBeRunning,
          timeoutMs,
          true,
        );
      }
      if (run.kind === "threw") {
        return {
          tool,
          status: ToolExecutionStatus.Failed,
          result: thrownResult(run.error),
          wasApproved: true,
          thrown: run.error,
        };
      }
      return {
        tool,
        status: statusOf(run.result),
        result: run.result,
        wasApproved: true,
        timeoutMs,
      };
    } finally {
      clearTimeout(execution.timer);
      execution.timer = undefined;
    }
  } finally {
    runtime.limiter.release();
  }
}

/** Cancels `cancellation` when `signal` aborts; returns a detach function. */
function linkSignal(
  signal: AbortSignal | undefined,
  cancellation: Cancellation,
): (() => void) | undefined {
  if (signal === undefined) return undefined;
  if (signal.aborted) {
    cancellation.abort(cancelledReason());
    return undefined;
  }
  const onAbort = (): void => {
    cancellation.abort(cancelledReason());
  };
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/** Cancels `cancellation` when the caller's context is cancelled; returns a detach function. */
function linkContext(
  context: ToolExecutionContext | undefined,
  cancellation: Cancellation,
): (() => void) | undefined {
  if (context === undefined) return undefined;
  if (context.isCancellationRequested) {
    cancellation.abort(cancelledReason());
    return undefined;
  }
  return context.onCancellationRequested(() => {
    cancellation.abort(cancelledReason());
  });
}

/** Validation errors without the values they quote: `path (pattern_mismatch); n (type_mismatch)`. */
function redactedErrors(validation: ToolValidationResult): string {
  return validation.errors
    .map((e) => `${e.parameterName === "" ? "(parameters)" : e.parameterName} (${e.errorCode})`)
    .join("; ");
}
