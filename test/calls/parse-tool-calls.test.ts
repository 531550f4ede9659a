import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseToolCalls, ToolCallStatus } from "../../src/calls/index.js";
import { AinternError } from "../../src/core/index.js";
import {
  detectToolCallFormat,
  ToolCallParseErrorCode,
  TooManyToolCallsError,
} from "../../src/providers/index.js";

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));
}

function textFixture(name: string): string {
  return (fixture(name) as { text: string }).text;
}

/** An OpenAI chat completion with one call whose arguments are `args`. */
function chatWith(args: unknown, name = "file-read"): unknown {
  return {
    choices: [
      {
        message: {
          role: "assistant",
          tool_calls: [{ id: "call_1", type: "function", function: { name, arguments: args } }],
        },
      },
    ],
  };
}

const tools = ["file-read", "file-write", "search"];

describe("parseToolCalls: recorded provider responses", () => {
  it("reads parallel OpenAI chat calls, keeping provider ids and argument text", () => {
    const batch = parseToolCalls(fixture("openai-chat-parallel"), {
      iterationNumber: 4,
      toolIds: tools,
    });
    expect(batch.count).toBe(2);
    expect(batch.isParallel).toBe(true);
    expect(batch.iterationNumber).toBe(4);
    const [read, search] = batch.calls;
    expect(read!.providerCallId).toBe("call_9pw1qnYScqvGrCH58HWCvFH6");
    expect(read!.callIdSynthesized).toBe(false);
    expect(read!.toolId).toBe("file-read");
    expect(read!.toolName).toBe("file-read");
    expect(read!.parameters).toEqual({ path: "src/app.ts" });
    expect(read!.rawJson).toBe('{"path":"src/app.ts"}');
    expect(read!.validationResult).toBeUndefined();
    expect(read!.iterationNumber).toBe(4);
    expect(search!.parameters).toEqual({ query: "TODO", maxResults: 20, caseSensitive: false });
    expect(batch.lifecycles.size).toBe(2);
    expect(batch.getLifecycle(read!)!.status).toBe(ToolCallStatus.Parsed);
  });

  it("reads a single OpenAI chat call as a non-parallel batch", () => {
    const batch = parseToolCalls(fixture("openai-chat-single"));
    expect(batch.count).toBe(1);
    expect(batch.isParallel).toBe(false);
    expect(batch.calls[0]!.parameters).toEqual({
      path: "notes/todo.md",
      content: "# TODO\n- ship it\n",
    });
  });

  it("reads an OpenAI chat response without calls as an empty batch", () => {
    const batch = parseToolCalls(fixture("openai-chat-no-calls"));
    expect(batch.count).toBe(0);
    expect(batch.allCompleted).toBe(true);
  });

  it("reads OpenAI Responses function_call items by call_id, skipping other items", () => {
    const batch = parseToolCalls(fixture("openai-responses"));
    expect(batch.calls.map((c) => c.providerCallId)).toEqual([
      "call_unLAR8MvFNptuiZK6K6HCy5k",
      "call_4JdTAq0oRbbcC9z4kBz1Hq5U",
    ]);
    expect(batch.calls[1]!.parameters).toEqual({ command: "npm test", timeoutMs: 60000 });
    expect(batch.isParallel).toBe(true);
  });

  it("reads Anthropic tool_use blocks, with __proto__ kept as an ordinary key", () => {
    const batch = parseToolCalls(fixture("anthropic"));
    expect(batch.calls.map((c) => c.providerCallId)).toEqual([
      "toolu_01A09q90qw90lq917835lq9",
      "toolu_01B7kNzP3xY5hT2mQw8eRv4s",
    ]);
    const list = batch.calls[1]!;
    expect(list.toolId).toBe("directory-list");
    expect(list.getParameter("recursive")).toBe(true);
    expect(list.getParameter("__proto__")).toBe("just a key");
    expect(Object.getPrototypeOf(list.parameters)).toBe(Object.prototype);
    expect(list.rawJson).toContain('"recursive":true');
  });

  it("synthesizes stable ids for Gemini calls that have none, and reads args-less calls as {}", () => {
    const first = parseToolCalls(fixture("gemini-legacy"));
    const second = parseToolCalls(fixture("gemini-legacy"));
    expect(first.count).toBe(2);
    const ids = first.calls.map((c) => c.providerCallId);
    expect(ids).toEqual(second.calls.map((c) => c.providerCallId));
    expect(ids[0]).toMatch(/^gemini_call_0_[0-9a-f]{12}$/);
    expect(ids[1]).toMatch(/^gemini_call_1_[0-9a-f]{12}$/);
    expect(first.calls.every((c) => c.callIdSynthesized)).toBe(true);
    expect(first.calls[1]!.toolId).toBe("git-status");
    expect(first.calls[1]!.parameters).toEqual({});
    expect(first.calls[1]!.isValid).toBe(true);
  });

  it("keeps Gemini's own call id when the response has one", () => {
    const batch = parseToolCalls(fixture("gemini-with-ids"));
    expect(batch.calls[0]!.providerCallId).toBe("fc_9ab1c2d3e4");
    expect(batch.calls[0]!.callIdSynthesized).toBe(false);
    expect(batch.calls[0]!.parameters).toEqual({ query: "parseToolCalls", maxResults: 5 });
  });

  it("reads Hermes-style <tool_call> blocks from plain text", () => {
    const batch = parseToolCalls(textFixture("text-hermes"));
    expect(batch.calls.map((c) => c.parameters)).toEqual([
      { path: "src/index.ts" },
      { path: "package.json" },
    ]);
    expect(batch.calls[0]!.providerCallId).toMatch(/^text_call_0_/);
    expect(batch.calls[0]!.providerCallId).not.toBe(batch.calls[1]!.providerCallId);
    expect(batch.isParallel).toBe(true);
  });

  it("reads fenced tool_call and call-shaped json blocks, ignoring other json", () => {
    const batch = parseToolCalls(textFixture("text-fenced"));
    expect(batch.calls.map((c) => [c.toolId, c.parameters])).toEqual([
      ["file-write", { path: "config.json", content: "{}" }],
      ["file-read", { path: "config.json" }],
    ]);
  });
});

describe("parseToolCalls: broken arguments", () => {
  it('repairs {"path": "a.txt",} and keeps the original in rawJson with a warning', () => {
    const call = parseToolCalls(chatWith('{"path": "a.txt",}')).calls[0]!;
    expect(call.parameters).toEqual({ path: "a.txt" });
    expect(call.rawJson).toBe('{"path": "a.txt",}');
    expect(call.isValid).toBe(true);
    expect(call.warnings?.[0]).toMatch(/not valid JSON .* repaired/);
  });

  it('repairs a truncated {"path": "a.txt"', () => {
    const call = parseToolCalls(chatWith('{"path": "a.txt"')).calls[0]!;
    expect(call.parameters).toEqual({ path: "a.txt" });
    expect(call.rawJson).toBe('{"path": "a.txt"');
    expect(call.warnings).toHaveLength(1);
  });

  it("repairs single quotes, unquoted keys and a cut-off after a complete literal", () => {
    expect(parseToolCalls(chatWith("{'path': 'a.txt'}")).calls[0]!.parameters).toEqual({
      path: "a.txt",
    });
    expect(parseToolCalls(chatWith('{path: "a.txt"}')).calls[0]!.parameters).toEqual({
      path: "a.txt",
    });
    expect(parseToolCalls(chatWith('{"all": true')).calls[0]!.parameters).toEqual({ all: true });
    expect(parseToolCalls(chatWith('{"a": [1, 2]')).calls[0]!.parameters).toEqual({ a: [1, 2] });
  });

  it("does not guess at text cut off inside a string, a number or after a colon", () => {
    for (const cut of [
      '{"path": "a.tx',
      '{"path": "a.txt", "limit": 12',
      '{"path":',
      '{"flag": tr',
    ]) {
      const call = parseToolCalls(chatWith(cut)).calls[0]!;
      expect(call.isValid, cut).toBe(false);
      expect(call.parameters).toEqual({});
      expect(call.rawJson).toBe(cut);
      expect(call.validationErrors[0]).toMatch(
        /^Arguments for 'file-read' are not valid JSON: .*cut off.*\. Send a JSON object\.$/,
      );
    }
  });

  it("turns unrepairable arguments into a failed validation the model can act on", () => {
    const call = parseToolCalls(chatWith('{"a":1}{"b":2}')).calls[0]!;
    expect(call.isValid).toBe(false);
    expect(call.validationResult?.errors[0]?.errorCode).toBe(ToolCallParseErrorCode.InvalidJson);
    expect(call.validationErrors[0]).toMatch(
      /^Arguments for 'file-read' are not valid JSON: .+\. Send a JSON object\.$/,
    );
    expect(call.rawJson).toBe('{"a":1}{"b":2}');
  });

  it("turns plain prose into 'not valid JSON', not 'not an object'", () => {
    const call = parseToolCalls(chatWith("read the file please")).calls[0]!;
    expect(call.validationResult?.errors[0]?.errorCode).toBe(ToolCallParseErrorCode.InvalidJson);
  });

  it("fails arguments that are JSON but not an object", () => {
    const cases: [unknown, string][] = [
      ["[1, 2]", "an array"],
      ['"a.txt"', "a string"],
      ["42", "a number"],
      ["true", "a boolean"],
      ["null", "null"],
    ];
    for (const [args, kind] of cases) {
      const call = parseToolCalls(chatWith(args)).calls[0]!;
      expect(call.isValid).toBe(false);
      expect(call.validationResult?.errors[0]?.errorCode).toBe(ToolCallParseErrorCode.NotAnObject);
      expect(call.validationErrors[0]).toBe(
        `Arguments for 'file-read' must be a JSON object, not ${kind}. Send a JSON object.`,
      );
    }
    const anthropic = parseToolCalls({
      content: [{ type: "tool_use", id: "toolu_1", name: "search", input: ["x"] }],
    }).calls[0]!;
    expect(anthropic.validationErrors[0]).toContain("not an array");
  });

  it("decodes double-encoded arguments and reads empty arguments as {}", () => {
    const doubled = parseToolCalls(chatWith(JSON.stringify('{"path":"a.txt"}'))).calls[0]!;
    expect(doubled.parameters).toEqual({ path: "a.txt" });
    expect(doubled.warnings?.[0]).toContain("JSON string holding a JSON object");
    const empty = parseToolCalls(chatWith("")).calls[0]!;
    expect(empty.parameters).toEqual({});
    expect(empty.isValid).toBe(true);
    // Some OpenAI-compatible servers send the arguments as an object.
    const asObject = parseToolCalls(chatWith({ path: "a.txt" })).calls[0]!;
    expect(asObject.parameters).toEqual({ path: "a.txt" });
  });

  it("fails arguments over the size limit without parsing them", () => {
    const big = JSON.stringify({ content: "x".repeat(2000) });
    const call = parseToolCalls(chatWith(big), { maxArgumentsBytes: 1000 }).calls[0]!;
    expect(call.isValid).toBe(false);
    expect(call.validationResult?.errors[0]?.errorCode).toBe(
      ToolCallParseErrorCode.ArgumentsTooLarge,
    );
    expect(call.validationErrors[0]).toContain(
      `${big.length} bytes of JSON, over the limit of 1000`,
    );
    expect(call.rawJson?.length).toBeLessThan(1100);
    expect(call.parameters).toEqual({});
    // Multi-byte text counts in UTF-8 bytes.
    const wide = JSON.stringify({ s: "é".repeat(400) });
    expect(parseToolCalls(chatWith(wide), { maxArgumentsBytes: 500 }).calls[0]!.isValid).toBe(
      false,
    );
    const decoded = parseToolCalls(
      { content: [{ type: "tool_use", id: "t", name: "x", input: { s: "y".repeat(600) } }] },
      { maxArgumentsBytes: 500 },
    ).calls[0]!;
    expect(decoded.isValid).toBe(false);
    expect(parseToolCalls(chatWith(big)).calls[0]!.isValid).toBe(true);
  });

  it("reports decoded arguments that are not JSON-serializable", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const call = parseToolCalls({
      content: [{ type: "tool_use", id: "t", name: "x", input: cyclic }],
    }).calls[0]!;
    expect(call.isValid).toBe(false);
    expect(call.validationErrors[0]).toMatch(/could not be read as JSON/);
    const fn = parseToolCalls({
      content: [{ type: "tool_use", id: "t", name: "x", input: () => 1 }],
    }).calls[0]!;
    expect(fn.isValid).toBe(false);
  });
});

describe("parseToolCalls: tool names", () => {
  it("fails an unknown tool with the closest names and the available list", () => {
    const call = parseToolCalls(chatWith('{"path":"a"}', "file-raed"), { toolIds: tools })
      .calls[0]!;
    expect(call.isValid).toBe(false);
    expect(call.toolId).toBe("file-raed");
    expect(call.parameters).toEqual({ path: "a" });
    expect(call.validationResult?.errors[0]?.errorCode).toBe(ToolCallParseErrorCode.ToolNotFound);
    expect(call.validationErrors[0]).toBe(
      "Tool 'file-raed' not found. Did you mean 'file-read'? Available: file-read, file-write, search.",
    );
  });

  it("matches tool ids case-insensitively, using the registered spelling", () => {
    const call = parseToolCalls(chatWith("{}", "File-Read"), { toolIds: tools }).calls[0]!;
    expect(call.isValid).toBe(true);
    expect(call.toolId).toBe("file-read");
    expect(call.toolName).toBe("File-Read");
  });

  it("gives no suggestion for a name far from every tool, and lists at most 20", () => {
    const many = Array.from({ length: 25 }, (_, i) => `tool-${i}`);
    const call = parseToolCalls(chatWith("{}", "constructor"), { toolIds: many }).calls[0]!;
    expect(call.validationErrors[0]).toMatch(/^Tool 'constructor' not found\. Available: tool-0, /);
    expect(call.validationErrors[0]).toContain(", and 5 more.");
    expect(call.validationErrors[0]).not.toContain("Did you mean");
    const none = parseToolCalls(chatWith("{}", "x"), { toolIds: [] }).calls[0]!;
    expect(none.validationErrors[0]).toBe("Tool 'x' not found. No tools are available.");
  });

  it("reports both an unknown tool and its broken arguments", () => {
    const call = parseToolCalls(chatWith("[1]", "serch"), { toolIds: tools }).calls[0]!;
    expect(call.validationResult?.errors.map((e) => e.errorCode)).toEqual([
      ToolCallParseErrorCode.ToolNotFound,
      ToolCallParseErrorCode.NotAnObject,
    ]);
    expect(call.validationErrors[0]).toContain("Did you mean 'search'?");
  });

  it("fails a call without a tool name, and shortens very long names in messages", () => {
    const nameless = parseToolCalls(chatWith("{}", "")).calls[0]!;
    expect(nameless.validationResult?.errors[0]?.errorCode).toBe(
      ToolCallParseErrorCode.MissingToolName,
    );
    expect(nameless.validationErrors[0]).toMatch(/^The tool call has no tool name\./);
    const numeric = parseToolCalls(chatWith("{}", 42 as unknown as string), { toolIds: tools })
      .calls[0]!;
    expect(numeric.validationErrors[0]).toContain("Available: file-read");
    const long = "x".repeat(5000);
    const call = parseToolCalls(chatWith("{}", long), { toolIds: tools }).calls[0]!;
    expect(call.validationErrors[0]!.length).toBeLessThan(300);
  });
});

describe("parseToolCalls: nothing is dropped", () => {
  it("turns malformed OpenAI entries into invalid requests", () => {
    const batch = parseToolCalls({
      choices: [
        {
          message: {
            tool_calls: [
              "not an object",
              { id: "call_2", type: "function" },
              { id: "call_3", type: "custom", custom: { name: "patch", input: '{"diff":"-a"}' } },
            ],
          },
        },
      ],
    });
    expect(batch.count).toBe(3);
    expect(batch.calls[0]!.validationErrors[0]).toBe("The tool call entry is not a JSON object.");
    expect(batch.calls[0]!.callIdSynthesized).toBe(true);
    expect(batch.calls[1]!.providerCallId).toBe("call_2");
    expect(batch.calls[1]!.isValid).toBe(false);
    expect(batch.calls[2]!.parameters).toEqual({ diff: "-a" });
  });

  it("reads a legacy function_call and a bare assistant message", () => {
    const legacy = parseToolCalls({
      role: "assistant",
      content: null,
      function_call: { name: "search", arguments: '{"query":"x"}' },
    });
    expect(legacy.count).toBe(1);
    expect(legacy.calls[0]!.callIdSynthesized).toBe(true);
    expect(legacy.calls[0]!.parameters).toEqual({ query: "x" });
    const message = parseToolCalls({
      role: "assistant",
      tool_calls: [{ id: "c1", type: "function", function: { name: "a", arguments: "{}" } }],
    });
    expect(message.calls[0]!.providerCallId).toBe("c1");
  });

  it("keeps unreadable and malformed text blocks as invalid calls", () => {
    const text = [
      '<tool_call>{"name": "file-read", "arguments": {"path": "a.txt", }}</tool_call>',
      '<tool_call>{"name": "file-write", "arguments": {"path": "b.txt", "content": "unterminated</tool_call>',
      "<tool_call>just words</tool_call>",
      "<tool_call>[1, 2]</tool_call>",
      '<tool_call>[{"name": "search", "arguments": {"query": "x"}}, {"name": "search", "parameters": {"query": "y"}, "id": "mine"}]</tool_call>',
      '<tool_call>{"function": {"name": "file-read", "arguments": "{\\"path\\":\\"c\\"}"}}</tool_call>',
      '<tool_call>```json\n{"name": "file-read", "arguments": {"path": "d"}}\n```</tool_call>',
      '<tool_call>{"name": "search", "arguments": {"query": "cut off',
    ].join("\n");
    const calls = parseToolCalls(text).calls;
    expect(calls).toHaveLength(10);
    expect(calls[0]!.parameters).toEqual({ path: "a.txt" });
    expect(calls[0]!.warnings?.[0]).toContain("block was not valid JSON");
    expect(calls[1]!.toolId).toBe("file-write");
    expect(calls[1]!.validationErrors[0]).toMatch(
      /^The tool call block for 'file-write' is not valid JSON: .*Send <tool_call>\{"name": "file-write"/,
    );
    expect(calls[2]!.validationErrors[0]).toContain("must hold a JSON object");
    expect(calls[3]!.isValid).toBe(false);
    expect(calls[4]!.isValid).toBe(false);
    expect(calls[5]!.parameters).toEqual({ query: "x" });
    expect(calls[6]!.parameters).toEqual({ query: "y" });
    expect(calls[6]!.providerCallId).toBe("mine");
    expect(calls[6]!.callIdSynthesized).toBe(false);
    expect(calls[7]!.parameters).toEqual({ path: "c" });
    expect(calls[8]!.parameters).toEqual({ path: "d" });
    expect(calls[9]!.toolId).toBe("search");
    expect(calls[9]!.isValid).toBe(false);
    expect(calls[9]!.validationErrors[0]).toContain("not valid JSON");
  });

  it("reads an unclosed block that runs into the next one, and an unclosed fence", () => {
    const text =
      '<tool_call>{"name": "a", "arguments": {}}\n<tool_call>{"name": "b", "arguments": {}}</tool_call>' +
      '\n```tool_call\n{"name": "c", "arguments": {"x": 1}}\n';
    expect(parseToolCalls(text).calls.map((c) => c.toolId)).toEqual(["a", "b", "c"]);
  });

  it("keeps a broken ```json block that looks like a call, and ignores one that does not", () => {
    const text =
      '```json\n{"name": "search", "arguments": {"query": "x\n```\n' + "```json\n{broken json\n```";
    const calls = parseToolCalls(text).calls;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.toolId).toBe("search");
    expect(calls[0]!.isValid).toBe(false);
  });

  it("reads Gemini candidates, single candidates and Content objects; bad parts are invalid calls", () => {
    const parts = [
      { text: "calling" },
      { functionCall: { name: "search", args: { query: "x" } } },
      { functionCall: "garbage" },
    ];
    for (const response of [
      { candidates: [{ content: { role: "model", parts } }] },
      { content: { role: "model", parts } },
      { role: "model", parts },
    ]) {
      const batch = parseToolCalls(response);
      expect(batch.count).toBe(2);
      expect(batch.calls[1]!.validationErrors[0]).toBe(
        "The functionCall part is not a JSON object.",
      );
    }
  });

  it("synthesizes ids for Anthropic and Responses calls that lack them", () => {
    const anthropic = parseToolCalls({ content: [{ type: "tool_use", name: "x", input: {} }] });
    expect(anthropic.calls[0]!.callIdSynthesized).toBe(true);
    const responses = parseToolCalls({
      output: [{ type: "function_call", name: "x", arguments: "{}" }],
    });
    expect(responses.calls[0]!.providerCallId).toMatch(/^openai_call_0_/);
  });
});

describe("parseToolCalls: limits and formats", () => {
  it("refuses 10,000 calls before building any request", () => {
    const toolCalls = Array.from({ length: 10_000 }, (_, i) => ({
      id: `call_${i}`,
      type: "function",
      function: { name: "search", arguments: "{}" },
    }));
    const response = { choices: [{ message: { tool_calls: toolCalls } }] };
    let thrown: unknown;
    try {
      parseToolCalls(response);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(TooManyToolCallsError);
    const error = thrown as TooManyToolCallsError;
    expect(error.code).toBe("TOO_MANY_TOOL_CALLS");
    expect(AinternError.isInstance(error)).toBe(true);
    expect(error.count).toBe(10_000);
    expect(error.limit).toBe(128);
    expect(error.message).toContain("10000 tool calls, more than the limit of 128");
    expect(parseToolCalls(response, { maxCalls: 10_000 }).count).toBe(10_000);
    expect(() => parseToolCalls(textFixture("text-hermes"), { maxCalls: 1 })).toThrow(
      TooManyToolCallsError,
    );
  });

  it("refuses bad options", () => {
    for (const options of [{ maxCalls: 0 }, { maxCalls: 1.5 }, { maxArgumentsBytes: -1 }]) {
      expect(() => parseToolCalls("", options)).toThrow(
        expect.objectContaining({ code: "INVALID_OPTIONS" }),
      );
    }
    expect(() => parseToolCalls("", { format: "xml" as "text" })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTIONS" }),
    );
  });

  it("detects each format from the response's shape", () => {
    expect(detectToolCallFormat(fixture("openai-chat-parallel"))).toBe("openai-chat");
    expect(detectToolCallFormat({ role: "assistant", tool_calls: [] })).toBe("openai-chat");
    expect(detectToolCallFormat({ function_call: { name: "x" } })).toBe("openai-chat");
    expect(detectToolCallFormat(fixture("openai-responses"))).toBe("openai-responses");
    expect(detectToolCallFormat(fixture("anthropic"))).toBe("anthropic");
    expect(detectToolCallFormat(fixture("gemini-legacy"))).toBe("gemini");
    expect(detectToolCallFormat({ role: "model", parts: [] })).toBe("gemini");
    expect(detectToolCallFormat({ content: { parts: [] } })).toBe("gemini");
    expect(detectToolCallFormat("hello")).toBe("text");
    expect(detectToolCallFormat({ hello: "world" })).toBeUndefined();
    expect(detectToolCallFormat([1, 2])).toBeUndefined();
    expect(detectToolCallFormat(null)).toBeUndefined();
  });

  it("returns an empty batch for unknown shapes or a format that does not match", () => {
    expect(parseToolCalls({ hello: "world" }).count).toBe(0);
    expect(parseToolCalls(42).count).toBe(0);
    expect(parseToolCalls(fixture("anthropic"), { format: "openai-chat" }).count).toBe(0);
    expect(parseToolCalls(fixture("anthropic"), { format: "text" }).count).toBe(0);
    expect(parseToolCalls(fixture("anthropic"), { format: "anthropic" }).count).toBe(2);
  });

  it("stamps requests and lifecycles from the injected clock and passes lifecycle listeners on", () => {
    const now = new Date("2025-03-03T03:03:03.000Z");
    const moves: string[] = [];
    const batch = parseToolCalls(fixture("openai-chat-single"), {
      clock: () => now,
      lifecycle: { onTransition: (t) => moves.push(t.to) },
    });
    expect(batch.calls[0]!.requestedAt).toEqual(now);
    expect(batch.createdAt).toEqual(now);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    lifecycle.startValidation();
    expect(lifecycle.validationStarted).toEqual(now);
    expect(moves).toEqual(["Validating"]);
  });
});

describe("parseToolCalls: text blocks with several values", () => {
  it("reads several JSON calls in one block and ignores trailing prose and junk values", () => {
    const text =
      '<tool_call>{"name": "a", "arguments": {}}\n{"name": "b", "arguments": {"x": 1}}\n{} and then some words' +
      '<tool_call>{"name": "c", "arguments": {}}</tool_call>';
    const calls = parseToolCalls(text).calls;
    expect(calls.map((c) => c.toolId)).toEqual(["a", "b", "c"]);
    expect(calls[0]!.warnings).toEqual(["Text after the JSON in the tool call block was ignored."]);
    expect(calls[2]!.warnings).toBeUndefined();
  });

  it("does not let a repair turn one broken object into several calls", () => {
    const calls = parseToolCalls(
      '<tool_call>{"name": "a", "arguments": {}\n{"name": "b"</tool_call>',
    ).calls;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.isValid).toBe(false);
  });
});

describe("parseToolCalls: text limits", () => {
  it("refuses too many text blocks before parsing any of them", () => {
    const pair = '<tool_call>[{"name": "a"}, {"name": "b"}]</tool_call>';
    // 200 blocks hold 400 calls; the count is the blocks', so nothing was parsed.
    expect(() => parseToolCalls(pair.repeat(200), { maxCalls: 150 })).toThrow(
      expect.objectContaining({ code: "TOO_MANY_TOOL_CALLS", count: 200, limit: 150 }),
    );
    // 100 blocks pass the first check; their 200 calls do not pass the second.
    expect(() => parseToolCalls(pair.repeat(100), { maxCalls: 150 })).toThrow(
      expect.objectContaining({ code: "TOO_MANY_TOOL_CALLS", count: 200, limit: 150 }),
    );
    expect(parseToolCalls(pair.repeat(75), { maxCalls: 150 }).count).toBe(150);
  });

  it("counts an empty array block as one invalid call", () => {
    const calls = parseToolCalls("<tool_call>[]</tool_call>").calls;
    expect(calls).toHaveLength(1);
    expect(calls[0]!.validationErrors[0]).toContain("must hold a JSON object");
  });
});
