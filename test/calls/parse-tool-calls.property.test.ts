import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  parseToolCalls,
  type ToolCallBatch,
  ToolCallStatus,
  toProviderMessages,
} from "../../src/calls/index.js";
import { allToolCallFormats, TooManyToolCallsError } from "../../src/providers/index.js";

/** Text that cannot open or close a text-format block by accident. */
const plain = fc
  .string({ maxLength: 40 })
  .filter((s) => !s.includes("<tool_call>") && !s.includes("</tool_call>") && !s.includes("```"));

/** Argument values as providers and models really send them, right and wrong. */
const argumentsArb = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.jsonValue().map((v) => JSON.stringify(v).slice(0, -1)), // cut off
  fc.dictionary(fc.string(), fc.jsonValue()).map((v) => `${JSON.stringify(v).slice(0, -1)},}`),
  fc.string(),
  fc.jsonValue(),
  fc.constant(undefined),
);
/** JSON whose text cannot open or close a text-format block. */
const safeJson = fc.jsonValue().filter((v) => {
  const t = JSON.stringify(v);
  return !t.includes("tool_call>") && !t.includes("```");
});
const nameArb = fc.oneof(
  fc.constantFrom("file-read", "search", "File-Read"),
  fc.string(),
  fc.jsonValue(),
);
const junk = fc.jsonValue();

/** A response in some format with a known number of calls. */
type Generated = { response: unknown; calls: number };

const openAIChat: fc.Arbitrary<Generated> = fc
  .array(
    fc.oneof(
      fc.record({
        id: fc.string(),
        type: fc.constant("function"),
        function: fc.record({ name: nameArb, arguments: argumentsArb }),
      }),
      junk,
    ),
    { maxLength: 12 },
  )
  .map((toolCalls) => ({
    response: {
      choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: toolCalls } }],
    },
    calls: toolCalls.length,
  }));

function interleave(calls: unknown[], noise: unknown[]): unknown[] {
  const out: unknown[] = [];
  calls.forEach((call, i) => {
    if (noise[i] !== undefined) out.push(noise[i]);
    out.push(call);
  });
  return out;
}

const openAIResponses: fc.Arbitrary<Generated> = fc
  .tuple(
    fc.array(
      fc.record({
        type: fc.constant("function_call"),
        call_id: fc.string(),
        name: nameArb,
        arguments: argumentsArb,
      }),
      { maxLength: 12 },
    ),
    fc.array(
      fc.record({
        type: fc.constantFrom("reasoning", "message", "web_search_call"),
        id: fc.string(),
      }),
      { maxLength: 12 },
    ),
  )
  .map(([calls, noise]) => ({
    response: { object: "response", output: interleave(calls, noise) },
    calls: calls.length,
  }));

const anthropic: fc.Arbitrary<Generated> = fc
  .tuple(
    fc.array(
      fc.record({
        type: fc.constant("tool_use"),
        id: fc.string(),
        name: nameArb,
        input: argumentsArb,
      }),
      { maxLength: 12 },
    ),
    fc.array(fc.record({ type: fc.constant("text"), text: fc.string() }), { maxLength: 12 }),
  )
  .map(([calls, noise]) => ({
    response: { type: "message", role: "assistant", content: interleave(calls, noise) },
    calls: calls.length,
  }));

const gemini: fc.Arbitrary<Generated> = fc
  .tuple(
    fc.array(
      fc.record({
        functionCall: fc.oneof(
          fc.record({ name: nameArb, args: argumentsArb }, { requiredKeys: [] }),
          junk,
        ),
      }),
      { maxLength: 12 },
    ),
    fc.array(fc.record({ text: fc.string() }), { maxLength: 12 }),
  )
  .map(([calls, noise]) => ({
    response: { candidates: [{ content: { role: "model", parts: interleave(calls, noise) } }] },
    calls: calls.length,
  }));

const text: fc.Arbitrary<Generated> = fc
  .array(fc.tuple(plain, fc.record({ name: plain, arguments: safeJson }), fc.boolean()), {
    maxLength: 8,
  })
  .map((blocks) => ({
    response: blocks
      .map(
        ([prose, call, closed]) =>
          `${prose}<tool_call>${JSON.stringify(call)}${closed ? "</tool_call>" : ""}`,
      )
      .join("\n"),
    calls: blocks.length,
  }));

function checkBatch(batch: ToolCallBatch): void {
  expect(batch.lifecycles.size).toBe(batch.count);
  for (const call of batch.calls) {
    expect(typeof call.providerCallId).toBe("string");
    expect(call.providerCallId).not.toBe("");
    expect(batch.getLifecycle(call)!.status).toBe(ToolCallStatus.Parsed);
    expect(Object.getPrototypeOf(call.parameters)).toBe(Object.prototype);
  }
  for (const format of allToolCallFormats) {
    const messages = toProviderMessages(batch, format);
    if (format === "text") {
      expect((messages as string).match(/^<tool_result /gm)?.length ?? 0).toBe(batch.count);
    } else if (format === "anthropic") {
      expect((messages as { content: unknown[] }[])[0]?.content.length ?? 0).toBe(batch.count);
    } else if (format === "gemini") {
      expect((messages as { parts: unknown[] }[])[0]?.parts.length ?? 0).toBe(batch.count);
    } else {
      expect(messages).toHaveLength(batch.count);
    }
  }
}

describe("parseToolCalls properties", () => {
  it("never throws on arbitrary JSON or text, detected or with any format", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.jsonValue(), fc.string()),
        fc.option(fc.constantFrom(...allToolCallFormats), { nil: undefined }),
        (response, format) => {
          try {
            checkBatch(parseToolCalls(response, { format, toolIds: ["file-read", "search"] }));
          } catch (error) {
            if (!(error instanceof TooManyToolCallsError)) throw error;
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it("returns one request per call found, in every provider format", () => {
    fc.assert(
      fc.property(
        fc.oneof(openAIChat, openAIResponses, anthropic, gemini, text),
        ({ response, calls }) => {
          const batch = parseToolCalls(response, { toolIds: ["file-read", "search"] });
          expect(batch.count).toBe(calls);
          expect(batch.isParallel).toBe(calls > 1);
          checkBatch(batch);
        },
      ),
      { numRuns: 400 },
    );
  });

  it("refuses a response with more calls than maxCalls, and only then", () => {
    fc.assert(
      fc.property(openAIChat, fc.integer({ min: 1, max: 12 }), ({ response, calls }, maxCalls) => {
        if (calls > maxCalls) {
          expect(() => parseToolCalls(response, { maxCalls })).toThrow(TooManyToolCallsError);
        } else {
          expect(parseToolCalls(response, { maxCalls }).count).toBe(calls);
        }
      }),
      { numRuns: 200 },
    );
  });
});
