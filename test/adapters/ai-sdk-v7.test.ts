import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { generateText, type ModelMessage, stepCountIs } from "ai7";
import { MockLanguageModelV3 } from "ai7/test";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalDecision } from "../../src/calls/index.js";
import { type AdapterFixture, makeAdapterFixture } from "./adapter-fixture.js";
import { auditSummary, mixedTurnCalls, textAnswer, toolCallsAnswer } from "./ai-sdk-turn.js";
import { recordAi7ApprovalResponses, toAi7Tools } from "./ai7-bridge.js";

let fixture: AdapterFixture;
afterEach(async () => fixture.close());

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

describe("AI SDK 7: toAiSdkTools with the framework's approval flow", () => {
  beforeEach(async () => {
    fixture = await makeAdapterFixture({ sessionId: "session-ai7" });
  });

  it("runs a mixed-risk turn: Safe runs, Medium and Critical are asked, the Critical denial, bad arguments and a path escape reach the model as aintern's messages, and everything is audited", async () => {
    const tools = toAi7Tools(fixture.processor, {
      approval: "framework",
      sessionId: "session-ai7",
    });
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallsAnswer(mixedTurnCalls()), textAnswer("done")],
    });
    const messages: ModelMessage[] = [{ role: "user", content: "tidy up" }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });

    const requests = first.content.filter((part) => part.type === "tool-approval-request");
    expect(requests.map((r) => r.toolCall.toolCallId).sort()).toEqual([
      "call-critical",
      "call-medium",
    ]);
    const critical = requests.find((r) => r.toolCall.toolCallId === "call-critical")!;
    const details = await fixture.processor.needsApproval(
      critical.toolCall.toolName,
      critical.toolCall.input,
      { sessionId: "session-ai7" },
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
    await recordAi7ApprovalResponses(fixture.processor, messages, {
      sessionId: "session-ai7",
      remember: (answer) =>
        answer.toolName === "file-write" ? { rememberForSession: true } : undefined,
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
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

  it("honours an approval remembered for the session on the next turn: the call runs unasked", async () => {
    const tools = toAi7Tools(fixture.processor, {
      approval: "framework",
      sessionId: "session-ai7",
    });
    const write = (id: string, path: string) =>
      toolCallsAnswer([
        { toolCallId: id, toolName: "file-write", input: JSON.stringify({ path, content: id }) },
      ]);
    const model = new MockLanguageModelV3({
      doGenerate: [
        write("w1", "one.txt"),
        textAnswer("one"),
        write("w2", "two.txt"),
        textAnswer("two"),
      ],
    });
    const messages: ModelMessage[] = [{ role: "user", content: "write one" }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    const request = first.content.find((part) => part.type === "tool-approval-request")!;
    messages.push(...first.responseMessages, {
      role: "tool",
      content: [{ type: "tool-approval-response", approvalId: request.approvalId, approved: true }],
    });
    await recordAi7ApprovalResponses(fixture.processor, messages, {
      sessionId: "session-ai7",
      remember: () => ({ rememberForSession: true }),
    });
    const resumed = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    messages.push(...resumed.responseMessages, { role: "user", content: "write two" });

    const next = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    expect(next.content.some((part) => part.type === "tool-approval-request")).toBe(false);
    expect(next.text).toBe("two");
    expect(fixture.read("two.txt")).toBe("w2");
  });
});

describe("AI SDK 7: toAiSdkTools with aintern's approval handler inline", () => {
  it("asks the handler inside execute: the Critical call is denied with aintern's message, the Medium one runs", async () => {
    const asked: string[] = [];
    fixture = await makeAdapterFixture({
      approvalHandler: {
        requestApproval(request, _signal, details) {
          asked.push(`${request.toolId}${details?.warning === undefined ? "" : " (warning)"}`);
          return request.toolId === "terminal-execute"
            ? ApprovalDecision.deny("Never on this host").bindTo(request)
            : ApprovalDecision.approve().bindTo(request);
        },
      },
    });
    const tools = toAi7Tools(fixture.processor);
    const model = new MockLanguageModelV3({
      doGenerate: [toolCallsAnswer(mixedTurnCalls()), textAnswer("done")],
    });
    const result = await generateText({
      model,
      tools,
      prompt: "tidy up",
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe("done");
    expect(asked.sort()).toEqual(["file-write", "terminal-execute (warning)"]);
    const outputs = outputsById(result.responseMessages);
    expect(outputs.get("call-critical")?.type).toBe("error-text");
    expect(String(outputs.get("call-critical")?.value)).toMatch(/denied.*Never on this host/s);
    expect(fixture.read("notes.txt")).toBe("hello");
    expect(await auditSummary(fixture)).toContain("terminal-execute denied");
  });
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
