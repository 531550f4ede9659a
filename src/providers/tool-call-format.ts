/**
 * The response formats {@link parseToolCalls} reads and {@link toProviderMessages} writes.
 */
export const ToolCallFormat = {
  /** OpenAI Chat Completions: `choices[0].message.tool_calls`. */
  OpenAIChat: "openai-chat",
  /** OpenAI Responses: `output[]` items of type `function_call`. */
  OpenAIResponses: "openai-responses",
  /** Anthropic Messages: `content[]` blocks of type `tool_use`. */
  Anthropic: "anthropic",
  /** Google Gemini: `candidates[0].content.parts[].functionCall`. */
  Gemini: "gemini",
  /** Plain model text: `<tool_call>` blocks and fenced `tool_call` / `json` blocks. */
  Text: "text",
} as const;

/** One of the {@link ToolCallFormat} values. */
export type ToolCallFormat = (typeof ToolCallFormat)[keyof typeof ToolCallFormat];

/** Every format. */
export const allToolCallFormats: readonly ToolCallFormat[] = Object.freeze(
  Object.values(ToolCallFormat),
);
