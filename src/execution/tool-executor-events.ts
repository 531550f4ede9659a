import type { ToolProgress } from "../context/index.js";
import type { ToolExecutionEvent } from "./tool-execution-event.js";
import type { ToolExecutionResult } from "./tool-execution-result.js";
import type { ToolExecutionStatus } from "./tool-execution-status.js";

/**
 * The ids every execution event carries: the execution's, and the call and session it answers
 * when the caller gave them (per-call `callId` / `sessionId`, or the AIntern context's
 * `toolCallId` / `sessionId`), so a front end can tie an event to the call that caused it.
 */
export interface ExecutionIds {
  readonly executionId: string;
  readonly callId?: string;
  readonly sessionId?: string;
}

/** AIntern `ToolExecutionStartedEventArgs`. */
export interface ExecutionStartedEvent extends ExecutionIds {
  readonly toolId: string;
  readonly toolName: string;
  readonly executionId: string;
  readonly startedAt: Date;
}

/** AIntern `ToolExecutionProgressEventArgs`: a tool's `context.reportProgress`. */
export interface ExecutionProgressEvent extends ExecutionIds {
  readonly toolId: string;
  readonly executionId: string;
  readonly progress: ToolProgress;
}

/** AIntern `ToolExecutionCompletedEventArgs`: every execution ends with one, whatever its status. */
export interface ExecutionCompletedEvent extends ExecutionIds {
  readonly toolId: string;
  readonly executionId: string;
  readonly result: ToolExecutionResult;
  readonly completedAt: Date;
}

/** Lexichord `ToolExecutionStartedEvent`. Parameters are redacted unless `logParameters` is on. */
export interface ToolExecutionStartedNotification extends ExecutionIds {
  readonly executionId: string;
  readonly toolName: string;
  readonly parameters: Readonly<Record<string, unknown>> | "[redacted]";
  readonly timestamp: Date;
}

/** Lexichord `ToolExecutionCompletedEvent`: a successful execution. */
export interface ToolExecutionCompletedNotification extends ExecutionIds {
  readonly executionId: string;
  readonly toolName: string;
  readonly durationMs: number;
  readonly timestamp: Date;
}

/** Lexichord `ToolExecutionFailedEvent`: any execution that did not complete. */
export interface ToolExecutionFailedNotification extends ExecutionIds {
  readonly executionId: string;
  readonly toolName: string;
  readonly status: ToolExecutionStatus;
  readonly errorMessage: string | undefined;
  readonly errorCode: string | undefined;
  readonly durationMs: number;
  readonly timestamp: Date;
}

/** Lexichord `ToolExecutionTimeoutEvent`. */
export interface ToolExecutionTimeoutNotification extends ExecutionIds {
  readonly executionId: string;
  readonly toolName: string;
  readonly timeoutMs: number;
  readonly timestamp: Date;
}

/** Lexichord `BatchExecutionStartedEvent`. */
export interface BatchExecutionStartedNotification {
  readonly batchId: string;
  readonly toolCount: number;
  readonly isParallel: boolean;
  readonly timestamp: Date;
}

/** Lexichord `BatchExecutionCompletedEvent`. */
export interface BatchExecutionCompletedNotification {
  readonly batchId: string;
  readonly totalCount: number;
  readonly successCount: number;
  readonly failedCount: number;
  readonly timestamp: Date;
}

/**
 * Everything the executor announces, on one typed event bus (`executor.events`, or the bus
 * passed in its config to share with the rest of an application).
 */
export interface ToolExecutorEvents {
  /** AIntern: an execution started (after its tool was found). */
  executionStarted: ExecutionStartedEvent;
  /** AIntern: a tool reported progress (Full progress tiers only). */
  executionProgress: ExecutionProgressEvent;
  /** AIntern: an execution ended, whatever its status. */
  executionCompleted: ExecutionCompletedEvent;
  /** Every per-execution event, as `observe()` yields them. */
  executionEvent: ToolExecutionEvent;
  toolExecutionStarted: ToolExecutionStartedNotification;
  toolExecutionCompleted: ToolExecutionCompletedNotification;
  toolExecutionFailed: ToolExecutionFailedNotification;
  toolExecutionTimeout: ToolExecutionTimeoutNotification;
  batchExecutionStarted: BatchExecutionStartedNotification;
  batchExecutionCompleted: BatchExecutionCompletedNotification;
}
