import { mixedTurn } from "./adapter-fixture.js";

/** A tool call a mock model makes. */
export interface ScriptedCall {
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: string;
}

/** The mixed-risk turn, plus a call to a misspelled tool, as AI SDK tool-call parts. */
export function mixedTurnCalls(): ScriptedCall[] {
  return [
    ...mixedTurn.map(([toolCallId, toolName, input]) => ({
      toolCallId,
      toolName,
      input: JSON.stringify(input),
    })),
    { toolCallId: "call-unknown", toolName: "file-raed", input: JSON.stringify({ path: "a" }) },
  ];
}

export const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model answer with these tool calls. */
export function toolCallsAnswer(calls: readonly ScriptedCall[]) {
  return {
    content: calls.map((call) => ({ type: "tool-call" as const, ...call })),
    finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
    usage,
    warnings: [],
  };
}

/** A model answer with text only. */
export function textAnswer(text: string) {
  return {
    content: [{ type: "text" as const, text }],
    finishReason: { unified: "stop" as const, raw: "stop" },
    usage,
    warnings: [],
  };
}

/** What a mock model answers to one `generateText` step. */
export type ModelAnswer = ReturnType<typeof toolCallsAnswer> | ReturnType<typeof textAnswer>;

/** A part a mock model streams. */
export type StreamChunk =
  | { readonly type: "stream-start"; readonly warnings: [] }
  | ({ readonly type: "tool-call" } & ScriptedCall)
  | { readonly type: "text-start" | "text-end"; readonly id: string }
  | { readonly type: "text-delta"; readonly id: string; readonly delta: string }
  | {
      readonly type: "finish";
      readonly finishReason: ReturnType<typeof toolCallsAnswer | typeof textAnswer>["finishReason"];
      readonly usage: typeof usage;
    };

/** Two streamed model answers: one tool call, then the text "done". */
export function progressStream(call: ScriptedCall): StreamChunk[][] {
  return [
    [
      { type: "stream-start", warnings: [] },
      { type: "tool-call", ...call },
      { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
    ],
    [
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "done" },
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
    ],
  ];
}
