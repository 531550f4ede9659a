export type { ExecutorApproval } from "./approval-step.js";
export type {
  AuditCallDecision,
  AuditDecision,
  AuditEntry,
  AuditFilter,
  AuditLog,
  AuditPage,
  AuditQuery,
  AuditRecord,
  AuditStart,
} from "./audit-log.js";
export {
  AuditStatus,
  allAuditStatuses,
  auditStatusCode,
  auditStatusFromCode,
  isAuditStatus,
} from "./audit-status.js";
export {
  type AuthorizationRequest,
  type AuthorizationResult,
  type Authorizer,
  allowAllAuthorizer,
  grantPermissions,
} from "./authorizer.js";
export { ConcurrencyLimitError, ConcurrencyLimiter } from "./concurrency-limiter.js";
export { type BatchRunner, executeBatch } from "./execute-batch.js";
export { ExecutionTracker } from "./execution-tracker.js";
export {
  canExecuteParallel,
  defaultMaxConcurrentExecutions,
  hasFullProgressEvents,
  type LicenseContext,
  LicenseTier,
  licenseTierName,
  maxBatchSizeForTier,
  maxParallelismForTier,
  staticLicense,
  ungatedLicense,
} from "./license.js";
export { ToolExecutionError } from "./tool-execution-error.js";
export {
  isFinalEventType,
  type ToolExecutionEvent,
  ToolExecutionEventType,
} from "./tool-execution-event.js";
export {
  effectiveTimeoutMs,
  type ResolvedToolExecutorOptions,
  resolveExecutorOptions,
  type ToolExecutionOptions,
  type ToolExecutorOptions,
} from "./tool-execution-options.js";
export {
  type ToolExecutionMetadata,
  ToolExecutionResult,
  type ToolExecutionResultInit,
} from "./tool-execution-result.js";
export { isFinalExecutionStatus, ToolExecutionStatus } from "./tool-execution-status.js";
export { ToolExecutor, type ToolExecutorConfig } from "./tool-executor.js";
export type {
  BatchExecutionCompletedNotification,
  BatchExecutionStartedNotification,
  ExecutionCompletedEvent,
  ExecutionIds,
  ExecutionProgressEvent,
  ExecutionStartedEvent,
  ToolExecutionCompletedNotification,
  ToolExecutionFailedNotification,
  ToolExecutionStartedNotification,
  ToolExecutionTimeoutNotification,
  ToolExecutorEvents,
} from "./tool-executor-events.js";
export type { ToolInput } from "./tool-input.js";
