import { asRecord, own, ownArray, ownString, rawArguments } from "./object-access.js";
import type { RawToolCall } from "./raw-tool-call.js";
import { stringifyForId, synthesizeCallId } from "./synthesize-call-id.js";

/**
 * The calls of a Gemini `generateContent` response (`candidates[0].content.parts[]`), of a
 * candidate, or of a `Content` object: every part with a `functionCall`.
 *
 * Older Gemini responses carry no call id: one is synthesized from the call's position, name and
 * arguments (stable for the same response) and the request is marked `callIdSynthesized`, so the
 * `functionResponse` sent back leaves it out and Gemini matches results by name and order.
 */
export function extractGeminiToolCalls(response: unknown): RawToolCall[] {
  const parts = geminiParts(response) ?? [];
  const calls: RawToolCall[] = [];
  for (const part of parts) {
    const record = asRecord(part);
    if (record === undefined || !Object.hasOwn(record, "functionCall")) continue;
    const call = record.functionCall;
    const id = ownString(call, "id");
    const ids = {
      providerCallId: id ?? synthesizeCallId("gemini_call", calls.length, stringifyForId(call)),
      callIdSynthesized: id === undefined,
    };
    if (asRecord(call) === undefined) {
      calls.push({
        ...ids,
        name: undefined,
        args: { kind: "invalid", problem: "The functionCall part is not a JSON object." },
      });
      continue;
    }
    calls.push({ ...ids, name: own(call, "name"), args: rawArguments(own(call, "args")) });
  }
  return calls;
}

function geminiParts(response: unknown): readonly unknown[] | undefined {
  const candidates = ownArray(response, "candidates");
  const candidate = candidates === undefined ? response : candidates[0];
  const content = own(candidate, "content");
  return ownArray(content, "parts") ?? ownArray(candidate, "parts");
}
