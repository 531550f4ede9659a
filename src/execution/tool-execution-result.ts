import { ToolErrorCode, timeOrderedUuid } from "../core/index.js";
import { ToolResult } from "../result/index.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";
import type { ToolInput } from "./tool-input.js";

/** Lexichord's execution metadata, carried on every {@link ToolExecutionResult}. */
export interface ToolExecutionMetadata {
  readonly executionId: string;
  readonly startedAt: Date;
  readonly completedAt: Date;
  readonly durationMs: number;
}

/** What {@link ToolExecutionResult}'s constructor takes. */
export interface ToolExecutionResultInit {
  readonly toolId: string;
  readonly executionId: string;
  readonly result: ToolResult;
  readonly status: ToolExecutionStatus;
  readonly startedAt: Date;
  readonly completedAt?: Date;
  /** Measured duration; defaults to completedAt - startedAt. */
  readonly durationMs?: number;
  readonly wasApproved?: boolean;
  readonly timedOut?: boolean;
  readonly wasCancelled?: boolean;
  readonly mayStillBeRunning?: boolean;
  readonly input?: ToolInput;
  readonly batchId?: string;
}

/**
 * The outcome of one execution through the executor (spec 001 `ToolExecutionResult`, with the
 * Lexichord result's input, status and metadata). Immutable.
 */
export class ToolExecutionResult {
  readonly toolId: string;
  readonly executionId: string;
  /** What the tool (or the pipeline, for an execution stopped before the tool) returned. */
  readonly result: ToolResult;
  readonly status: ToolExecutionStatus;
  readonly startedAt: Date;
  readonly completedAt: Date;
  readonly durationMs: number;
  /** True when the call was allowed to run (confirmed, approved, or needing neither). */
  readonly wasApproved: boolean;
  readonly timedOut: boolean;
  readonly wasCancelled: boolean;
  /**
   * True when the execution was timed out or cancelled but its tool could not be stopped (an
   * in-process tool that ignores its abort signal): its work may still be going on.
   */
  readonly mayStillBeRunning: boolean;
  /** The request that was executed. */
  readonly input: ToolInput;
  /** The batch this execution belonged to, if any. */
  readonly batchId: string | undefined;

  constructor(init: ToolExecutionResultInit) {
    this.toolId = init.toolId;
    this.executionId = init.executionId;
    this.result = init.result;
    this.status = init.status;
    this.startedAt = init.startedAt;
    this.completedAt = init.completedAt ?? new Date();
    this.durationMs =
      init.durationMs ?? Math.max(0, this.completedAt.getTime() - this.startedAt.getTime());
    this.wasApproved = init.wasApproved ?? false;
    this.timedOut = init.timedOut ?? init.status === ToolExecutionStatus.Timeout;
    this.wasCancelled = init.wasCancelled ?? init.status === ToolExecutionStatus.Cancelled;
    this.mayStillBeRunning = init.mayStillBeRunning ?? false;
    this.input = init.input ?? { toolName: init.toolId };
    this.batchId = init.batchId;
    Object.freeze(this);
  }

  /** True when the status is `completed`. */
  get success(): boolean {
    return this.status === ToolExecutionStatus.Completed;
  }

  /** The result's error message, if it failed. */
  get errorMessage(): string | undefined {
    return this.result.error;
  }

  /** The result's error code, one of `ToolErrorCode`. */
  get errorCode(): string | undefined {
    return this.result.errorCode;
  }

  /** Lexichord's metadata view. */
  get metadata(): ToolExecutionMetadata {
    return {
      executionId: this.executionId,
      startedAt: this.startedAt,
      completedAt: this.completedAt,
      durationMs: this.durationMs,
    };
  }

  /** A completed execution. */
  static success(
    toolId: string,
    executionId: string,
    result: ToolResult,
    startedAt: Date,
  ): ToolExecutionResult {
    return new ToolExecutionResult({
      toolId,
      executionId,
      result,
      status: ToolExecutionStatus.Completed,
      startedAt,
      wasApproved: true,
    });
  }

  /** A failed execution. */
  static failed(
    toolId: string,
    executionId: string,
    result: ToolResult,
    startedAt: Date,
  ): ToolExecutionResult {
    return new ToolExecutionResult({
      toolId,
      executionId,
      result,
      status: ToolExecutionStatus.Failed,
      startedAt,
    });
  }

  /** An execution its caller cancelled. */
  static cancelled(toolId: string, executionId: string, startedAt: Date): ToolExecutionResult {
    return new ToolExecutionResult({
      toolId,
      executionId,
      result: ToolResult.cancelled(),
      status: ToolExecutionStatus.Cancelled,
      startedAt,
      wasCancelled: true,
    });
  }

  /**
   * An execution that ran past `timeoutMs`. Its status is `timeout` (the AIntern sketch says
   * Failed; aintern keeps timeout and failure apart, with `timedOut` true either way).
   */
  static timeout(
    toolId: string,
    executionId: string,
    startedAt: Date,
    timeoutMs: number,
  ): ToolExecutionResult {
    return new ToolExecutionResult({
      toolId,
      executionId,
      result: ToolResult.timeout(timeoutMs),
      status: ToolExecutionStatus.Timeout,
      startedAt,
      timedOut: true,
    });
  }

  /** An execution of a tool id no tool is registered under. */
  static toolNotFound(toolId: string, message?: string): ToolExecutionResult {
    const now = new Date();
    return new ToolExecutionResult({
      toolId,
      executionId: timeOrderedUuid(),
      result: ToolResult.failed(
        message ?? `Tool '${toolId}' not found`,
        ToolErrorCode.ToolNotFound,
      ),
      status: ToolExecutionStatus.Failed,
      startedAt: now,
      completedAt: now,
    });
  }
}
