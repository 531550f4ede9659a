import type { AdapterFixture } from "./adapter-fixture.js";
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

/** Audit rows as "tool status" strings, sorted, to compare as a multiset. */
export async function auditSummary(fixture: AdapterFixture): Promise<string[]> {
  return (await fixture.audit()).map((row) => `${row.toolName} ${row.status}`).sort();
}
