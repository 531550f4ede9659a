import { own, ownArray, ownString, rawArguments } from "./object-access.js";
import type { RawToolCall } from "./raw-tool-call.js";
import { stringifyForId, synthesizeCallId } from "./synthesize-call-id.js";

/**
 * The calls of an OpenAI Responses API response: the `output[]` items of type `function_call`.
 * The provider id is the item's `call_id` (what `function_call_output` answers), not its `id`.
 * Hosted tool calls (`web_search_call`, ...) run at OpenAI and are not returned.
 */
export function extractOpenAIResponsesToolCalls(response: unknown): RawToolCall[] {
  const output = ownArray(response, "output") ?? [];
  const calls: RawToolCall[] = [];
  for (const item of output) {
    if (own(item, "type") !== "function_call") continue;
    const callId = ownString(item, "call_id");
    calls.push({
      providerCallId: callId ?? synthesizeCallId("openai_call", calls.length, stringifyForId(item)),
      callIdSynthesized: callId === undefined,
      name: own(item, "name"),
      args: rawArguments(own(item, "arguments")),
    });
  }
  return calls;
}
