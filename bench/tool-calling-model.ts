/**
 * The AI SDK mock model the benches drive a `generateText` turn with: it answers with one call of
 * `toolName` while the prompt holds no tool result and its system message is "tool", and with
 * text otherwise.
 */
import { MockLanguageModelV3 } from "ai/test";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

export function toolCallingModel(
  toolName: string,
  input: object,
  callId: () => string,
): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (options) => {
      const answered = options.prompt.some((message) => message.role === "tool");
      const wantsTool =
        !answered && options.prompt.some((m) => m.role === "system" && m.content === "tool");
      return wantsTool
        ? {
            content: [
              {
                type: "tool-call" as const,
                toolCallId: callId(),
                toolName,
                input: JSON.stringify(input),
              },
            ],
            finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
            usage,
            warnings: [],
          }
        : {
            content: [{ type: "text" as const, text: "done" }],
            finishReason: { unified: "stop" as const, raw: "stop" },
            usage,
            warnings: [],
          };
    },
  });
}
