export { main } from "./main.js";
export {
  type RunTurnOptions,
  type RunTurnResult,
  readRecordedResponse,
  runTurn,
} from "./run-turn.js";
export { createSampleWorkspace } from "./sample-workspace.js";
export {
  type ApprovalFlag,
  flagApprovalHandler,
  TerminalApprovalHandler,
  type TerminalApprovalHandlerConfig,
} from "./terminal-approval-handler.js";
