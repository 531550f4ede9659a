import { asRecord, own, ownArray } from "./object-access.js";
import type { ToolCallFormat } from "./tool-call-format.js";

/**
 * The format of a model response, from its shape; undefined when it is none of them.
 *
 * - a string: `"text"`
 * - `choices[]`, or a message with `tool_calls` / `function_call`: `"openai-chat"`
 * - `output[]`: `"openai-responses"`
 * - `candidates[]`, a candidate's `content.parts[]`, or a `parts[]` Content: `"gemini"`
 * - `content[]` (blocks): `"anthropic"`
 */
export function detectToolCallFormat(response: unknown): ToolCallFormat | undefined {
  if (typeof response === "string") return "text";
  if (asRecord(response) === undefined) return undefined;
  if (ownArray(response, "choices") !== undefined) return "openai-chat";
  if (
    ownArray(response, "tool_calls") !== undefined ||
    asRecord(own(response, "function_call")) !== undefined
  ) {
    return "openai-chat";
  }
  if (ownArray(response, "output") !== undefined) return "openai-responses";
  if (ownArray(response, "candidates") !== undefined) return "gemini";
  if (ownArray(response, "parts") !== undefined) return "gemini";
  if (ownArray(own(response, "content"), "parts") !== undefined) return "gemini";
  if (ownArray(response, "content") !== undefined) return "anthropic";
  return undefined;
}
