import { asRecord, own, ownArray, ownString, rawArguments } from "./object-access.js";
import type { RawToolCall } from "./raw-tool-call.js";
import { stringifyForId, synthesizeCallId } from "./synthesize-call-id.js";

/**
 * The calls of an OpenAI Chat Completions response (`choices[0].message.tool_calls`) or of an
 * assistant message object. Every `tool_calls` entry is a call (a malformed one becomes an
 * invalid call, not a dropped one); a legacy `function_call` is read when there are no
 * `tool_calls`. `custom` tool calls (free-form input) are read with their input as argument text.
 */
export function extractOpenAIChatToolCalls(response: unknown): RawToolCall[] {
  const choices = ownArray(response, "choices");
  const message = choices === undefined ? response : own(choices[0], "message");
  if (asRecord(message) === undefined) return [];
  const toolCalls = ownArray(message, "tool_calls");
  if (toolCalls !== undefined) return toolCalls.map((entry, index) => fromEntry(entry, index));
  const legacy = own(message, "function_call");
  if (asRecord(legacy) !== undefined) {
    return [
      {
        providerCallId: synthesizeCallId("openai_call", 0, stringifyForId(legacy)),
        callIdSynthesized: true,
        name: own(legacy, "name"),
        args: rawArguments(own(legacy, "arguments")),
      },
    ];
  }
  return [];
}

function fromEntry(entry: unknown, index: number): RawToolCall {
  const id = ownString(entry, "id");
  const ids =
    id === undefined
      ? {
          providerCallId: synthesizeCallId("openai_call", index, stringifyForId(entry)),
          callIdSynthesized: true,
        }
      : { providerCallId: id, callIdSynthesized: false };
  if (asRecord(entry) === undefined) {
    return {
      ...ids,
      name: undefined,
      args: { kind: "invalid", problem: "The tool call entry is not a JSON object." },
    };
  }
  const fn = asRecord(own(entry, "function"));
  if (fn !== undefined) {
    return { ...ids, name: own(fn, "name"), args: rawArguments(own(fn, "arguments")) };
  }
  const custom = asRecord(own(entry, "custom"));
  if (custom !== undefined) {
    return { ...ids, name: own(custom, "name"), args: rawArguments(own(custom, "input")) };
  }
  return {
    ...ids,
    name: undefined,
    args: { kind: "invalid", problem: "The tool call entry has no function name or arguments." },
  };
}
