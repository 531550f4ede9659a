export {
  type AinternApprovalAnswer,
  type AinternApprovalRequest,
  AinternLangChainTool,
  type AinternToolEvent,
  type LangChainApprovalMode,
  type LangChainToolsOptions,
  toLangChainTools,
} from "./to-langchain-tools.js";
