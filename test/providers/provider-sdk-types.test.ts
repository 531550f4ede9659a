import type Anthropic from "@anthropic-ai/sdk";
import type {
  ChatCompletionTool,
  ChatCompletionToolMessageParam,
} from "openai/resources/chat/completions";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { parseToolCalls, ToolCallBatch, toProviderMessages } from "../../src/calls/index.js";
import { toAnthropicTool, toOpenAiResponsesTool, toOpenAiTool } from "../../src/providers/index.js";
import { JsonSchemaBuilder } from "../../src/schema/index.js";

// These assignments are checked by `npm run typecheck` against the real SDK types: a definition
// that stops fitting the SDK fails CI there, before any test runs.
const tool = {
  id: "file-read",
  name: "Read File",
  description: "Reads a file",
  inputSchema: JsonSchemaBuilder.create()
    .addString("path", "File path", { required: true })
    .addInteger("maxLines", "Most lines")
    .build(),
};

describe("provider definitions fit the provider SDKs' own types", () => {
  it("gives Anthropic a Tool with a mutable required list", () => {
    const definition: Anthropic.Tool = toAnthropicTool(tool);
    definition.input_schema.required?.push("maxLines");
    expect(definition.input_schema.required).toEqual(["path", "maxLines"]);
    // A fresh copy each time: the tool's own schema is untouched.
    expect(tool.inputSchema.required).toEqual(["path"]);
  });

  it("gives OpenAI Chat Completions a ChatCompletionTool", () => {
    const definition: ChatCompletionTool = toOpenAiTool(tool, { strict: true });
    expect(definition).toMatchObject({
      type: "function",
      function: { name: "file-read", strict: true },
    });
  });

  it("gives the OpenAI Responses API a flat FunctionTool, strict false unless asked", () => {
    const plain: FunctionTool = toOpenAiResponsesTool(tool);
    const strict: FunctionTool = toOpenAiResponsesTool(tool, { strict: true });
    expect(plain).toMatchObject({ type: "function", name: "file-read", strict: false });
    expect(plain.parameters).toMatchObject({ type: "object", required: ["path"] });
    expect(strict.strict).toBe(true);
    // Strict mode makes every property required, optional ones nullable.
    expect(strict.parameters?.required).toEqual(["path", "maxLines"]);
  });
});

describe("answers fit the provider SDKs and remember the batch's format", () => {
  const response = {
    choices: [
      {
        message: {
          role: "assistant",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "file-read", arguments: "{}" } },
          ],
        },
      },
    ],
  };

  it("answers in the format the calls were parsed from when none is given", () => {
    const batch = parseToolCalls(response, { toolIds: ["file-read"] });
    expect(batch.format).toBe("openai-chat");
    const messages = toProviderMessages(batch) as ChatCompletionToolMessageParam[];
    expect(messages).toEqual([expect.objectContaining({ role: "tool", tool_call_id: "call_1" })]);
  });

  it("types each format's answers as the SDK's message params", () => {
    const batch = parseToolCalls(response, { toolIds: ["file-read"] });
    const chat: ChatCompletionToolMessageParam[] = toProviderMessages(batch, "openai-chat");
    const responses: ResponseInputItem[] = toProviderMessages(batch, "openai-responses");
    const anthropic: Anthropic.MessageParam[] = toProviderMessages(batch, "anthropic");
    expect([chat.length, responses.length, anthropic.length]).toEqual([1, 1, 1]);
  });

  it("asks for a format when the batch was built by hand", () => {
    const batch = new ToolCallBatch({ calls: [] });
    expect(() => toProviderMessages(batch)).toThrow(/needs a format/);
  });
});
