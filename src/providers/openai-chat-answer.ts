import type { ProviderAnswer } from "./provider-answer.js";

/** An OpenAI Chat Completions tool message. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** One `{ role: "tool", tool_call_id, content }` message per call. */
export function toOpenAIChatToolMessages(
  answers: readonly ProviderAnswer[],
): OpenAIChatToolMessage[] {
  return answers.map((answer) => ({
    role: "tool",
    tool_call_id: answer.callId,
    content: answer.content,
  }));
}
