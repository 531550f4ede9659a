/**
 * Each provider format's three parts side by side: advertise a tool (`*-tool`), read its calls
 * from a response (`*-calls`), and answer them (`*-answer`). Depends on core and schema only.
 */
export {
  type AnthropicToolResultBlock,
  type AnthropicToolResultMessage,
  toAnthropicToolResultMessages,
} from "./anthropic-answer.js";
export { extractAnthropicToolCalls } from "./anthropic-calls.js";
export { type AnthropicTool, toAnthropicTool } from "./anthropic-tool.js";
export { detectToolCallFormat } from "./detect-tool-call-format.js";
export {
  type GeminiFunctionResponseContent,
  type GeminiFunctionResponsePart,
  toGeminiFunctionResponses,
} from "./gemini-answer.js";
export { extractGeminiToolCalls } from "./gemini-calls.js";
export {
  type GeminiFunctionDeclaration,
  type GeminiSchema,
  toGeminiFunctionDeclaration,
  toGeminiSchema,
} from "./gemini-tool.js";
export { type OpenAIChatToolMessage, toOpenAIChatToolMessages } from "./openai-chat-answer.js";
export { extractOpenAIChatToolCalls } from "./openai-chat-calls.js";
export { type OpenAiTool, type OpenAiToolOptions, toOpenAiTool } from "./openai-chat-tool.js";
export {
  type OpenAIResponsesFunctionCallOutput,
  toOpenAIResponsesOutputs,
} from "./openai-responses-answer.js";
export { extractOpenAIResponsesToolCalls } from "./openai-responses-calls.js";
export { type OpenAiResponsesTool, toOpenAiResponsesTool } from "./openai-responses-tool.js";
export { parseArguments, repairJson } from "./parse-arguments.js";
export type { ProviderAnswer } from "./provider-answer.js";
export { type ProviderInputSchema, toProviderInputSchema } from "./provider-schema.js";
export type { RawArguments, RawToolCall } from "./raw-tool-call.js";
export { toTextToolResults } from "./text-answer.js";
export { extractTextToolCalls } from "./text-calls.js";
export { TooManyToolCallsError } from "./too-many-tool-calls-error.js";
export { allToolCallFormats, ToolCallFormat } from "./tool-call-format.js";
export { ToolCallParseErrorCode } from "./tool-call-parse-error-code.js";
