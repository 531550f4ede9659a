import { ToolErrorCode } from "../core/index.js";
import type { Logger } from "../telemetry/index.js";
import { type Execution, shownParameters } from "./execution.js";
import type { ExecutionObserver } from "./execution-observer.js";
import type { Outcome } from "./execution-outcome.js";
import type { ToolExecutionResult } from "./tool-execution-result.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";

/**
 * The structured logs of spec 003 section 7, through a pino-shaped logger: the start and the
 * finish of each execution (info), why one stopped early (warn: unknown tool, authorization
 * denied, invalid parameters, timeout; error: a tool that threw past its base class, a failing
 * pipeline), and cancellation requests. Parameters appear only with `logParameters`.
 */
export class LoggingObserver implements ExecutionObserver {
  readonly #logger: Logger;
  readonly #logParameters: boolean;
  readonly #logResults: boolean;

  constructor(logger: Logger, options: { logParameters: boolean; logResults: boolean }) {
    this.#logger = logger;
    this.#logParameters = options.logParameters;
    this.#logResults = options.logResults;
  }

  onStarted(execution: Execution): void {
    const { executionId, toolName } = execution.plan;
    this.#logger.info(
      { executionId, toolName, parameters: shownParameters(execution.plan, this.#logParameters) },
      `[TLS-EXE] Tool execution started. ExecutionId: ${executionId}, Tool: ${toolName}`,
    );
  }

  /** Why the execution stopped early, logged before its audit row is written. */
  onSettling(execution: Execution, result: ToolExecutionResult, outcome: Outcome): void {
    const { executionId, toolName } = execution.plan;
    const logger = this.#logger;
    if (outcome.pipelineError !== undefined) {
      logger.error(
        { executionId, toolName, err: outcome.pipelineError },
        "[TLS-EXE] Execution pipeline failed",
      );
      return;
    }
    if (outcome.tool === undefined && result.errorCode === ToolErrorCode.ToolNotFound) {
      logger.warn(
        { executionId, toolName },
        `[TLS-EXE] Tool not found. ExecutionId: ${executionId}, Tool: ${toolName}`,
      );
      return;
    }
    if (outcome.thrown !== undefined) {
      logger.error(
        { executionId, toolName, err: outcome.thrown },
        `[TLS-EXE] Execution failed with exception. ExecutionId: ${executionId}, Tool: ${toolName}`,
      );
      return;
    }
    switch (outcome.status) {
      case ToolExecutionStatus.PermissionDenied:
        logger.warn(
          { executionId, toolName, reason: outcome.denialReason },
          `[TLS-EXE] Authorization denied. ExecutionId: ${executionId}, Tool: ${toolName}, Reason: ${outcome.denialReason}`,
        );
        return;
      case ToolExecutionStatus.ValidationError:
        if (outcome.redactedError !== undefined) {
          logger.warn(
            { executionId, toolName, errors: outcome.redactedError },
            `[TLS-EXE] Parameter validation failed. ExecutionId: ${executionId}, Tool: ${toolName}, Errors: ${outcome.redactedError}`,
          );
        }
        return;
      default:
        return;
    }
  }

  onFinished(_execution: Execution, result: ToolExecutionResult, outcome: Outcome): void {
    const { executionId, status } = result;
    const toolName = result.input.toolName;
    if (status === ToolExecutionStatus.Timeout) {
      this.#logger.warn(
        { executionId, toolName, timeoutMs: outcome.timeoutMs },
        `[TLS-EXE] Execution timed out. ExecutionId: ${executionId}, Tool: ${toolName}, Timeout: ${outcome.timeoutMs}ms`,
      );
    }
    this.#logger.info(
      {
        executionId,
        toolName,
        status,
        durationMs: result.durationMs,
        ...(this.#logResults
          ? {
              result:
                outcome.redactedError === undefined
                  ? result.result.toLogSummary()
                  : `Failed (${result.errorCode ?? ""}): ${outcome.redactedError}`,
            }
          : {}),
      },
      `[TLS-EXE] Tool execution finished. ExecutionId: ${executionId}, Tool: ${toolName}, Status: ${status}, Duration: ${Math.round(result.durationMs)}ms`,
    );
  }

  onCancelRequested(execution: Execution): void {
    const { executionId } = execution.plan;
    this.#logger.info(
      { executionId },
      `[TLS-EXE] Cancellation requested. ExecutionId: ${executionId}`,
    );
  }
}
