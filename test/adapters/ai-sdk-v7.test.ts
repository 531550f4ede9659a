// In this repository `ai` is AI SDK 6 and AI SDK 7 is installed as `ai7`. The adapter's types
// name `ai`, which in an application that installs AI SDK 7 are AI SDK 7's own (tsconfig.ai7.json
// typechecks the adapter against them, the last test here). The suite's values are typed with
// AI SDK 6's names; this binding gives AI SDK 7 the very same values under AI SDK 7's names
// (casts only: nothing is converted at run time).
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { ModelMessage, ToolSet } from "ai";
import {
  type ModelMessage as Ai7ModelMessage,
  type ToolSet as Ai7ToolSet,
  generateText,
  simulateReadableStream,
  stepCountIs,
  streamText,
} from "ai7";
import { MockLanguageModelV3 } from "ai7/test";
import { describe, expect, it } from "vitest";
import { aiSdkAdapterSuite, type StreamedToolResult } from "./ai-sdk-suite.js";

const asAi7Tools = (tools: ToolSet) => tools as unknown as Ai7ToolSet;
const asAi7Messages = (messages: ModelMessage[]) => messages as unknown as Ai7ModelMessage[];
const fromAi7Messages = (messages: Ai7ModelMessage[]) => messages as unknown as ModelMessage[];

aiSdkAdapterSuite({
  name: "AI SDK 7",
  generate(answers) {
    const model = new MockLanguageModelV3({ doGenerate: [...answers] });
    return async (tools, input) => {
      const result = await generateText({
        model,
        tools: asAi7Tools(tools),
        ...("messages" in input ? { messages: asAi7Messages(input.messages) } : input),
        stopWhen: stepCountIs(5),
      });
      return {
        text: result.text,
        approvalRequests: result.content.filter((part) => part.type === "tool-approval-request"),
        responseMessages: fromAi7Messages(result.responseMessages),
      };
    };
  },
  async stream(calls, tools) {
    const model = new MockLanguageModelV3({
      doStream: calls.map((chunks) => ({ stream: simulateReadableStream({ chunks }) })),
    });
    const result = streamText({
      model,
      tools: asAi7Tools(tools),
      prompt: "x",
      stopWhen: stepCountIs(3),
    });
    const toolResults: StreamedToolResult[] = [];
    for await (const part of result.fullStream) {
      if (part.type === "tool-result") {
        toolResults.push({ preliminary: part.preliminary === true, output: part.output });
      }
    }
    return { toolResults, text: await result.text };
  },
});

describe("AI SDK 7: the adapter's types", () => {
  it("typecheck against AI SDK 7's own declarations (tsconfig.ai7.json maps `ai` to AI SDK 7)", async () => {
    const run = promisify(execFile);
    await expect(
      run(process.execPath, [
        "node_modules/typescript/bin/tsc",
        "-p",
        "tsconfig.ai7.json",
        "--noEmit",
      ]),
    ).resolves.toBeDefined();
  }, 120_000);
});
