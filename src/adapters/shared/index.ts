export type {
  AinternGate,
  ApprovalRequirementDetails,
  CheckCallInput,
  CheckedCall,
  NeedsApprovalOptions,
  ProcessCallInput,
  ProcessCallResult,
  RecordDecisionInput,
  RecordedDecision,
} from "./gate-port.js";
export { type PendingCheck, PendingChecks } from "./pending-checks.js";
export { type ProgressReport, progressReport, progressThenResult } from "./progress-stream.js";
export {
  isDecisionRecorded,
  markDecisionRecorded,
  takeDecisionRecorded,
} from "./recorded-calls.js";
export { selectTools } from "./select-tools.js";
export { UnknownAdapterToolError } from "./unknown-adapter-tool-error.js";
