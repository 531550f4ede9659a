import type { ProviderAnswer } from "./provider-answer.js";

/** One Anthropic `tool_result` content block. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** The Anthropic user message carrying every `tool_result` of a turn. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResultBlock[];
}

/** One user message with a `tool_result` block per call (`is_error` set); none for no calls. */
export function toAnthropicToolResultMessages(
  answers: readonly ProviderAnswer[],
): AnthropicToolResultMessage[] {
  if (answers.length === 0) return [];
  return [
    {
      role: "user",
      content: answers.map((answer) => ({
        type: "tool_result",
        tool_use_id: answer.callId,
        content: answer.content,
        is_error: answer.isError,
      })),
    },
  ];
}
