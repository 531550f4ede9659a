export type {
  AinternToolOutput,
  AinternToolProgress,
  AinternToolResult,
} from "./ai-sdk-tool-output.js";
export type { AiSdkApprovalAnswer } from "./find-approval-response.js";
export {
  type RecordApprovalResponsesOptions,
  type RememberChoice,
  recordApprovalResponses,
} from "./record-approval-responses.js";
export { type AiSdkApprovalMode, type AiSdkToolsOptions, toAiSdkTools } from "./to-ai-sdk-tools.js";
