export { agentsToolNames } from "./agents-tool-names.js";
export type { AgentsRunOptions } from "./agents-unknown-tool.js";
export {
  type ApplyDecisionsOptions,
  applyDecisions,
  type DecidedRunState,
} from "./apply-decisions.js";
export {
  type AgentsApprovalMode,
  type AgentsTools,
  type AgentsToolsOptions,
  toAgentsTools,
} from "./to-agents-tools.js";
