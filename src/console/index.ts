export {
  ConsoleApprovalHandler,
  type ConsoleApprovalHandlerConfig,
  DEFAULT_CONSOLE_APPROVAL_TIMEOUT_MS,
} from "./console-approval-handler.js";
export { consoleApprovalPages } from "./console-approval-pages.js";
export {
  type ConsoleApp,
  type ConsoleConfig,
  type ConsoleStoreParts,
  createConsoleApp,
  parseListen,
  type RunningConsole,
  type StartConsoleOptions,
  startConsole,
} from "./console-server.js";
export {
  type ConsoleChange,
  type ConsoleChangeFeed,
  type DecideResult,
  type FileWritePreview,
  isPendingApprovalStatus,
  type NewPendingApproval,
  type NewRunningExecution,
  type PendingApproval,
  type PendingApprovalDecision,
  type PendingApprovalDetails,
  type PendingApprovalFilter,
  type PendingApprovalRequest,
  PendingApprovalStatus,
  type PendingApprovalStore,
  type RunningExecution,
  type RunningExecutionStore,
} from "./pending-approval.js";
export { type ReportExecutionsOptions, reportExecutions } from "./report-executions.js";
