import { generateText, simulateReadableStream, stepCountIs, streamText } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { toAiSdkTools } from "../../src/adapters/ai-sdk/index.js";
import type { AinternGate } from "../../src/adapters/shared/index.js";
import { ToolProgress } from "../../src/context/index.js";
import { type AdapterFixture, makeAdapterFixture } from "./adapter-fixture.js";
import { auditSummary, textAnswer, toolCallsAnswer, usage } from "./ai-sdk-turn.js";

let fixture: AdapterFixture;
beforeEach(async () => {
  fixture = await makeAdapterFixture();
});
afterEach(async () => fixture.close());

describe("AI SDK adapter details", () => {
  it("lists only the real tools, so only they are advertised, and a null-prototype set answers `constructor` with aintern's not-found message", async () => {
    const tools = toAiSdkTools(fixture.processor);
    expect(Object.keys(tools).sort()).toEqual(["file-read", "file-write", "terminal-execute"]);
    expect({ ...tools }).not.toHaveProperty("constructor");
    const model = new MockLanguageModelV3({
      doGenerate: [
        toolCallsAnswer([
          { toolCallId: "c1", toolName: "constructor", input: "{}" },
          {
            toolCallId: "c2",
            toolName: "File-Read",
            input: JSON.stringify({ path: "src/app.ts" }),
          },
        ]),
        textAnswer("done"),
      ],
    });
    const result = await generateText({ model, tools, prompt: "x", stopWhen: stepCountIs(3) });
    const outputs = new Map(
      result.steps[0]!.toolResults.map((r) => [r.toolCallId, JSON.stringify(r.output)]),
    );
    expect(outputs.get("c1")).toMatch(/not found/);
    // aintern looks tools up case-insensitively: the call reaches file-read and runs.
    expect(outputs.get("c2")).toMatch(/answer = 42/);
    expect(await auditSummary(fixture)).toContain("file-read completed");
  });

  it("streams a tool's progress reports as preliminary tool results in streamText, then the result", async () => {
    const inner = fixture.processor;
    const reporting: AinternGate = {
      sessionId: inner.sessionId,
      executor: inner.executor,
      needsApproval: (toolId, parameters, options) =>
        inner.needsApproval(toolId, parameters, options),
      recordDecision: (input) => inner.recordDecision(input),
      async processCall(input) {
        input.onProgress?.(ToolProgress.withPercent("halfway", 50));
        await new Promise((resolve) => setTimeout(resolve, 5));
        return inner.processCall(input);
      },
    };
    const tools = toAiSdkTools(reporting);
    const model = new MockLanguageModelV3({
      doStream: [
        {
          stream: simulateReadableStream({
            chunks: [
              { type: "stream-start" as const, warnings: [] },
              {
                type: "tool-call" as const,
                toolCallId: "c1",
                toolName: "file-read",
                input: JSON.stringify({ path: "src/app.ts" }),
              },
              {
                type: "finish" as const,
                finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
                usage,
              },
            ],
          }),
        },
        {
          stream: simulateReadableStream({
            chunks: [
              { type: "text-start" as const, id: "t" },
              { type: "text-delta" as const, id: "t", delta: "done" },
              { type: "text-end" as const, id: "t" },
              {
                type: "finish" as const,
                finishReason: { unified: "stop" as const, raw: "stop" },
                usage,
              },
            ],
          }),
        },
      ],
    });
    const result = streamText({ model, tools, prompt: "x", stopWhen: stepCountIs(3) });
    const results: { preliminary: boolean; output: unknown }[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result") {
        results.push({ preliminary: part.preliminary === true, output: part.output });
      }
    }
    expect(results[0]).toEqual({
      preliminary: true,
      output: {
        type: "progress",
        message: expect.stringContaining("halfway"),
        percentComplete: 50,
      },
    });
    expect(results.at(-1)).toMatchObject({
      preliminary: false,
      output: { type: "result", isError: false },
    });
    expect(await result.text).toBe("done");
  });
});
