import { own, ownArray, ownString, rawArguments } from "./object-access.js";
import type { RawToolCall } from "./raw-tool-call.js";
import { stringifyForId, synthesizeCallId } from "./synthesize-call-id.js";

/**
 * The calls of an Anthropic Messages response (or assistant message): the `content[]` blocks of
 * type `tool_use`, whose `input` is already a decoded object. Server tool blocks
 * (`server_tool_use`) run at Anthropic and are not returned.
 */
export function extractAnthropicToolCalls(response: unknown): RawToolCall[] {
  const content = ownArray(response, "content") ?? [];
  const calls: RawToolCall[] = [];
  for (const block of content) {
    if (own(block, "type") !== "tool_use") continue;
    const id = ownString(block, "id");
    calls.push({
      providerCallId: id ?? synthesizeCallId("toolu_aintern", calls.length, stringifyForId(block)),
      callIdSynthesized: id === undefined,
      name: own(block, "name"),
      args: rawArguments(own(block, "input")),
    });
  }
  return calls;
}
