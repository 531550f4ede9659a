import type { ModelMessage, ToolSet } from "ai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { recordApprovalResponses, toAiSdkTools } from "../../src/adapters/ai-sdk/index.js";
import type { AinternGate } from "../../src/adapters/shared/index.js";
import { ToolProgress } from "../../src/context/index.js";
import {
  type AdapterFixture,
  auditSummary,
  CountingPolicy,
  makeAdapterFixture,
  personAtHandler,
} from "./adapter-fixture.js";
import {
  type ModelAnswer,
  mixedTurnCalls,
  progressStream,
  textAnswer,
  toolCallsAnswer,
} from "./ai-sdk-turn.js";

/** What a test reads of a `generateText` result, the same in AI SDK 6 and 7. */
export interface Turn {
  readonly text: string;
  readonly approvalRequests: readonly {
    readonly approvalId: string;
    readonly toolCall: {
      readonly toolCallId: string;
      readonly toolName: string;
      readonly input: unknown;
    };
  }[];
  /** The messages to append to the conversation (`response.messages` / `responseMessages`). */
  readonly responseMessages: readonly ModelMessage[];
}

/** A `tool-result` part of `streamText`'s full stream. */
export interface StreamedToolResult {
  readonly preliminary: boolean;
  readonly output: unknown;
}

/**
 * One version of the AI SDK, bound to its own `generateText`, `streamText` and
 * `MockLanguageModelV3`. Messages and tool sets are typed with `ai` (AI SDK 6); the AI SDK 7
 * binding passes the very same values to AI SDK 7.
 */
export interface AiSdkBinding {
  readonly name: string;
  /** A mock model answering `answers` in order; returns a `generateText` with it and `tools`. */
  generate(
    answers: readonly ModelAnswer[],
  ): (tools: ToolSet, input: { messages: ModelMessage[] } | { prompt: string }) => Promise<Turn>;
  /** `streamText` over a mock model streaming `calls` in order: its tool results and text. */
  stream(
    calls: ReturnType<typeof progressStream>,
    tools: ToolSet,
  ): Promise<{ readonly toolResults: readonly StreamedToolResult[]; readonly text: string }>;
}

function outputsById(
  messages: readonly ModelMessage[],
): Map<string, { type: string; value?: unknown; reason?: unknown }> {
  const outputs = new Map<string, { type: string; value?: unknown; reason?: unknown }>();
  for (const message of messages) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type === "tool-result") outputs.set(part.toolCallId, part.output);
    }
  }
  return outputs;
}

/** The adapter's tests, run in the loop of one AI SDK version. */
export function aiSdkAdapterSuite(sdk: AiSdkBinding): void {
  let fixture: AdapterFixture;
  afterEach(async () => fixture.close());

  describe(`${sdk.name}: toAiSdkTools with the framework's approval flow`, () => {
    const sessionId = "session-ai-sdk";
    beforeEach(async () => {
      fixture = await makeAdapterFixture({ sessionId });
    });

    it("runs a mixed-risk turn: Safe runs, Medium and Critical are asked, the Critical denial, bad arguments and a path escape reach the model as aintern's messages, and everything is audited", async () => {
      const tools = toAiSdkTools(fixture.processor, { approval: "framework", sessionId });
      const generate = sdk.generate([toolCallsAnswer(mixedTurnCalls()), textAnswer("done")]);
      const messages: ModelMessage[] = [{ role: "user", content: "tidy up" }];
      const first = await generate(tools, { messages });

      const requests = first.approvalRequests;
      expect(requests.map((r) => r.toolCall.toolCallId).sort()).toEqual([
        "call-critical",
        "call-medium",
      ]);
      const critical = requests.find((r) => r.toolCall.toolCallId === "call-critical")!;
      const details = await fixture.processor.needsApproval(
        critical.toolCall.toolName,
        critical.toolCall.input,
        { sessionId },
      );
      expect(details !== false && details.warning).toBeTruthy();

      const outputs = outputsById(first.responseMessages);
      expect(outputs.get("call-safe")).toEqual({
        type: "text",
        value: expect.stringContaining("answer = 42"),
      });
      expect(outputs.get("call-bad")?.type).toBe("error-text");
      expect(String(outputs.get("call-bad")?.value)).toMatch(/content/);
      expect(outputs.get("call-escape")?.type).toBe("error-text");
      expect(String(outputs.get("call-escape")?.value)).toMatch(/outside the workspace/i);
      expect(String(outputs.get("call-unknown")?.value)).toMatch(
        /not found.*Did you mean 'file-read'/s,
      );

      messages.push(...first.responseMessages, {
        role: "tool",
        content: requests.map((request) => ({
          type: "tool-approval-response" as const,
          approvalId: request.approvalId,
          approved: request.toolCall.toolCallId === "call-medium",
          ...(request.toolCall.toolCallId === "call-critical"
            ? { reason: "Never on this host" }
            : {}),
        })),
      });
      await recordApprovalResponses(fixture.processor, messages, {
        sessionId,
        remember: (answer) =>
          answer.toolName === "file-write" ? { rememberForSession: true } : undefined,
      });
      const second = await generate(tools, { messages });
      expect(second.text).toBe("done");
      expect(fixture.read("notes.txt")).toBe("hello");
      expect(fixture.commands).toEqual([]);
      const resumed = outputsById(second.responseMessages);
      expect(resumed.get("call-medium")?.type).toBe("text");
      expect(resumed.get("call-critical")).toMatchObject({
        type: "execution-denied",
        reason: "Never on this host",
      });

      expect(await auditSummary(fixture)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^file-raed (failed|validationError)$/),
          "file-read completed",
          "file-read failed",
          "file-write completed",
          "file-write validationError",
          "terminal-execute denied",
        ]),
      );
    });

    it("judges a call it lets run once: execute runs on needsApproval's check, audited as the policy's", async () => {
      await fixture.close();
      const policy = new CountingPolicy();
      fixture = await makeAdapterFixture({ sessionId, policy });
      const tools = toAiSdkTools(fixture.processor, { approval: "framework", sessionId });
      const read = (id: string) =>
        toolCallsAnswer([
          { toolCallId: id, toolName: "file-read", input: JSON.stringify({ path: "src/app.ts" }) },
        ]);
      const generate = sdk.generate([read("r1"), textAnswer("one"), read("r2"), textAnswer("two")]);
      const first = await generate(tools, { prompt: "read it" });
      expect(first.text).toBe("one");
      expect(outputsById(first.responseMessages).get("r1")).toEqual({
        type: "text",
        value: expect.stringContaining("answer = 42"),
      });
      expect(policy.decisions).toBe(1);
      await generate(tools, { prompt: "read it again" });
      expect(policy.decisions).toBe(2);
      const rows = await fixture.audit();
      expect(rows.map((r) => [r.callId, r.status, r.decision, r.decidedBy])).toEqual([
        ["r1", "completed", "approved", "policy"],
        ["r2", "completed", "approved", "policy"],
      ]);
    });

    it("honours an approval remembered for the session on the next turn: the call runs unasked", async () => {
      const tools = toAiSdkTools(fixture.processor, { approval: "framework", sessionId });
      const write = (id: string, path: string) =>
        toolCallsAnswer([
          { toolCallId: id, toolName: "file-write", input: JSON.stringify({ path, content: id }) },
        ]);
      const generate = sdk.generate([
        write("w1", "one.txt"),
        textAnswer("one"),
        write("w2", "two.txt"),
        textAnswer("two"),
      ]);
      const messages: ModelMessage[] = [{ role: "user", content: "write one" }];
      const first = await generate(tools, { messages });
      const request = first.approvalRequests[0]!;
      messages.push(...first.responseMessages, {
        role: "tool",
        content: [
          { type: "tool-approval-response", approvalId: request.approvalId, approved: true },
        ],
      });
      await recordApprovalResponses(fixture.processor, messages, {
        sessionId,
        remember: () => ({ rememberForSession: true }),
      });
      const resumed = await generate(tools, { messages });
      messages.push(...resumed.responseMessages, { role: "user", content: "write two" });

      const next = await generate(tools, { messages });
      expect(next.approvalRequests).toEqual([]);
      expect(next.text).toBe("two");
      expect(fixture.read("two.txt")).toBe("w2");
    });
  });

  describe(`${sdk.name}: toAiSdkTools with aintern's approval handler inline`, () => {
    it("asks the handler inside execute: the Critical call is denied with aintern's message, the Medium one runs", async () => {
      const asked: string[] = [];
      fixture = await makeAdapterFixture({ approvalHandler: personAtHandler(asked) });
      const tools = toAiSdkTools(fixture.processor);
      const generate = sdk.generate([toolCallsAnswer(mixedTurnCalls()), textAnswer("done")]);
      const result = await generate(tools, { prompt: "tidy up" });
      expect(result.text).toBe("done");
      expect(asked.sort()).toEqual(["file-write", "terminal-execute (warning)"]);
      const outputs = outputsById(result.responseMessages);
      expect(outputs.get("call-critical")?.type).toBe("error-text");
      expect(String(outputs.get("call-critical")?.value)).toMatch(/denied.*Never on this host/s);
      expect(fixture.read("notes.txt")).toBe("hello");
      expect(await auditSummary(fixture)).toContain("terminal-execute denied");
    });
  });

  describe(`${sdk.name}: toAiSdkTools details`, () => {
    beforeEach(async () => {
      fixture = await makeAdapterFixture();
    });

    it("lists only the real tools, so only they are advertised, and a null-prototype set answers `constructor` with aintern's not-found message", async () => {
      const tools = toAiSdkTools(fixture.processor);
      expect(Object.keys(tools).sort()).toEqual(["file-read", "file-write", "terminal-execute"]);
      expect({ ...tools }).not.toHaveProperty("constructor");
      const generate = sdk.generate([
        toolCallsAnswer([
          { toolCallId: "c1", toolName: "constructor", input: "{}" },
          {
            toolCallId: "c2",
            toolName: "File-Read",
            input: JSON.stringify({ path: "src/app.ts" }),
          },
        ]),
        textAnswer("done"),
      ]);
      const result = await generate(tools, { prompt: "x" });
      const outputs = outputsById(result.responseMessages);
      expect(JSON.stringify(outputs.get("c1"))).toMatch(/not found/);
      // aintern looks tools up case-insensitively: the call reaches file-read and runs.
      expect(JSON.stringify(outputs.get("c2"))).toMatch(/answer = 42/);
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
      const result = await sdk.stream(
        progressStream({
          toolCallId: "c1",
          toolName: "file-read",
          input: JSON.stringify({ path: "src/app.ts" }),
        }),
        toAiSdkTools(reporting),
      );
      expect(result.toolResults[0]).toEqual({
        preliminary: true,
        output: {
          type: "progress",
          message: expect.stringContaining("halfway"),
          percentComplete: 50,
        },
      });
      expect(result.toolResults.at(-1)).toMatchObject({
        preliminary: false,
        output: { type: "result", isError: false, content: expect.stringContaining("answer = 42") },
      });
      expect(result.text).toBe("done");
    });
  });
}
