export {
  ApprovalDecision,
  type ApprovalDecisionBinding,
  type ApprovalDecisionInit,
  type ApproveOptions,
  type ApproveWithModificationsOptions,
} from "./approval-decision.js";
export type { ApprovalHandler, ApprovalPromptDetails } from "./approval-handler.js";
export { CheckedCall } from "./checked-call.js";
export { type Clock, systemClock } from "./clock.js";
export { hashToolCallArguments } from "./hash-tool-call-arguments.js";
export { InvalidDecisionError } from "./invalid-decision-error.js";
export { InvalidTransitionError } from "./invalid-transition-error.js";
export {
  defaultMaxArgumentsBytes,
  defaultMaxToolCalls,
  type ParseToolCallsOptions,
  parseToolCalls,
} from "./parse-tool-calls.js";
export type {
  ApprovalRequirementDetails,
  CheckCallInput,
  NeedsApprovalOptions,
  ProcessCallInput,
  ProcessCallResult,
  RecordDecisionInput,
  RecordedDecision,
} from "./process-call.js";
export {
  type ProviderMessagesByFormat,
  type ToProviderMessagesOptions,
  toProviderMessages,
} from "./to-provider-messages.js";
export { ToolCallBatch, type ToolCallBatchInit } from "./tool-call-batch.js";
export {
  ToolCallLifecycle,
  type ToolCallLifecycleConfig,
  type ToolCallTransition,
  type ToolCallTransitionEntry,
  type ToolCallTransitionListener,
} from "./tool-call-lifecycle.js";
export type {
  ApprovalDecisionRecord,
  ToolCallLifecycleRecord,
  ToolCallRequestRecord,
  ToolValidationResultRecord,
} from "./tool-call-lifecycle-record.js";
export { lifecycleResult, type ToolCallOutcome, toolCallOutcome } from "./tool-call-outcome.js";
export {
  InvalidCallInputError,
  ToolCallProcessor,
  type ToolCallProcessorConfig,
  type ToolCallProcessorEvents,
} from "./tool-call-processor.js";
export {
  type ParameterLookup,
  ToolCallRequest,
  type ToolCallRequestInit,
  type ToolCallRiskAssessment,
} from "./tool-call-request.js";
export { ToolCallRequestBuilder } from "./tool-call-request-builder.js";
export {
  allToolCallStatuses,
  isTerminalToolCallStatus,
  isToolCallStatus,
  ToolCallStatus,
} from "./tool-call-status.js";
export {
  defaultToolCallSessionId,
  interruptedCallMessage,
  interruptRecord,
  isInterruptedRecord,
  MemoryToolCallStore,
  matchesExpected,
  type StoredToolCall,
  type ToolCallFilter,
  type ToolCallSave,
  type ToolCallStore,
} from "./tool-call-store.js";
export { canTransition, nextToolCallStatuses } from "./tool-call-transitions.js";
