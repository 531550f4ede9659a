export {
  AinternMcpServer,
  type AinternMcpServerConfig,
  type McpApprovalPages,
  type McpApprovals,
  toCallToolResult,
} from "./aintern-mcp-server.js";
export {
  type ApprovalAnswer,
  ApprovalChoice,
  type ApprovalFormCall,
  approvalForm,
  decisionFromAnswer,
  type SuggestPatternOptions,
  suggestPattern,
} from "./approval-form.js";
export { bearerTokenProblem, MIN_BEARER_TOKEN_LENGTH } from "./bearer-token-problem.js";
export {
  type ImportMcpToolsOptions,
  importMcpTools,
  type ListedMcpTool,
  listedToolProblem,
  type McpToolClient,
  toToolResult,
} from "./import-mcp-tools.js";
export { introspectionVerifier } from "./introspection-verifier.js";
export {
  INVALID_MCP_CONFIG,
  InvalidMcpConfigError,
  loadMcpConfig,
  MCP_CONFIG_FILE_NAME,
  type McpConfig,
  type McpConsoleConfig,
  type McpHttpConfig,
  parseMcpConfig,
} from "./mcp-config.js";
export { isValidMcpToolName, McpToolNames, mcpToolNamePattern } from "./mcp-tool-names.js";
export {
  DEFAULT_UPSTREAM_START_TIMEOUT_MS,
  type HttpUpstreamConfig,
  McpUpstream,
  type McpUpstreamConfig,
  type McpUpstreamOptions,
  type StdioUpstreamConfig,
} from "./mcp-upstream.js";
export {
  type McpHttpHandle,
  type ServeMcpHttpOptions,
  serveMcpHttp,
} from "./serve-mcp-http.js";
export {
  type McpStdioHandle,
  type ServeMcpStdioOptions,
  serveMcpStdio,
} from "./serve-mcp-stdio.js";
export { riskFromAnnotations, toolAnnotations } from "./tool-annotations.js";
export type { ToolDefinitionStore } from "./tool-definition-store.js";
export {
  type GrantRevoker,
  UpstreamToolSet,
  type UpstreamToolSetConfig,
} from "./upstream-tool-set.js";
