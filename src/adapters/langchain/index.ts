export {
  type AinternApprovalAnswer,
  type AinternApprovalRequest,
  AinternLangChainTool,
  type AinternToolEvent,
  type LangChainApprovalMode,
  type LangChainToolsOptions,
  toLangChainTools,
} from "./to-langchain-tools.js";
export {
  type UnknownToolMiddleware,
  type UnknownToolMiddlewareOptions,
  unknownToolMiddleware,
} from "./unknown-tool-middleware.js";
