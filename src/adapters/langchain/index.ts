export {
  AinternLangChainTool,
  type AinternToolEvent,
  type LangChainToolsOptions,
  toLangChainTools,
} from "./to-langchain-tools.js";
