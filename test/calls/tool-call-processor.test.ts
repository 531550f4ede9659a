import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ApprovalDecision,
  hashToolCallArguments,
  parseToolCalls,
  ToolCallProcessor,
  ToolCallRequest,
  ToolCallStatus,
  toProviderMessages,
} from "../../src/calls/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { LicenseTier, staticLicense, ToolExecutor } from "../../src/execution/index.js";
import { TooManyToolCallsError } from "../../src/providers/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { ToolValidator } from "../../src/validation/index.js";
import {
  anthropicResponse,
  type CallSpec,
  makeExecutor,
  makeProcessor,
  makeTools,
  makeToolsProcessor,
  makeWorkspace,
  openAIBatch,
  openAIResponse,
  recordingHandler,
  silentHandler,
  type Tools,
  type Workspace,
  waitFor,
} from "./processor-support.js";

let workspace: Workspace;
let tools: Tools;

beforeEach(() => {
  workspace = makeWorkspace();
  tools = makeTools();
});

afterEach(() => workspace.cleanup());

const approveAll = () => recordingHandler(() => ApprovalDecision.approve());

describe("ToolCallProcessor: a batch of calls of different risk", () => {
  it("runs safe calls without asking and asks for the medium ones, each with its own decision", async () => {
    const handler = recordingHandler((request) =>
      request.toolId === "file-write"
        ? ApprovalDecision.approve().bindTo(request)
        : ApprovalDecision.deny("Not now").bindTo(request),
    );
    const { processor } = makeToolsProcessor(tools, handler, {
      workspacePath: workspace.root,
    });
    const batch = openAIBatch([
      ["call_read", "file-read", { path: "src/app.ts" }],
      ["call_write", "file-write", { path: "notes.txt", content: "hello" }],
      ["call_run", "terminal-execute", { command: "npm test" }],
    ]);

    const result = await processor.process(batch);

    expect(result).toBe(batch);
    expect(handler.prompts.map((p) => p.request.toolId)).toEqual([
      "file-write",
      "terminal-execute",
    ]);
    const [read, write, run] = batch.calls.map((c) => batch.getLifecycle(c)!);
    expect(read!.status).toBe(ToolCallStatus.Completed);
    expect(read!.wasAutoApproved).toBe(true);
    expect(read!.result?.data).toBe("export const answer = 42;\n");
    expect(write!.status).toBe(ToolCallStatus.Completed);
    expect(write!.approvalRequired).toBe(true);
    expect(workspace.read("notes.txt")).toBe("hello");
    expect(run!.status).toBe(ToolCallStatus.Denied);
    expect(run!.approvalDecision?.reason).toBe("Not now");
    expect(tools.log.commands).toEqual([]);
    expect(batch.successCount).toBe(2);
    expect(batch.deniedCount).toBe(1);
    expect(batch.allCompleted).toBe(true);
    expect(batch.completedAt).toBeInstanceOf(Date);
  });

  it("tells the handler why it asks and the call's effective risk and summary", async () => {
    const handler = approveAll();
    const { processor } = makeToolsProcessor(tools, handler, {
      workspacePath: workspace.root,
    });
    await processor.process(
      openAIBatch([
        ["c1", "file-write", { path: "a.txt", content: "x" }],
        ["c2", "terminal-execute", { command: "rm -rf build" }],
      ]),
    );
    const [write, run] = handler.prompts;
    expect(write!.details).toMatchObject({
      reason: "Medium Risk calls need approval",
      riskLevel: 2,
      round: 1,
    });
    expect(write!.request.executionSummary).toBe("Write a.txt");
    expect(run!.request.riskLevel).toBe(3);
    expect(run!.details).toMatchObject({ reason: "High Risk calls need approval", riskLevel: 3 });
  });

  it("denying the first call neither drops nor blocks the calls after it", async () => {
    const handler = recordingHandler((request) =>
      request.getParameter("path") === "first.txt"
        ? ApprovalDecision.deny("No")
        : ApprovalDecision.approve(),
    );
    const { processor } = makeToolsProcessor(tools, handler, {
      workspacePath: workspace.root,
    });
    const batch = openAIBatch([
      ["c1", "file-write", { path: "first.txt", content: "1" }],
      ["c2", "file-write", { path: "second.txt", content: "2" }],
      ["c3", "counter", {}],
    ]);
    await processor.process(batch);
    expect(batch.calls.map((c) => batch.getLifecycle(c)?.status)).toEqual([
      ToolCallStatus.Denied,
      ToolCallStatus.Completed,
      ToolCallStatus.Completed,
    ]);
    expect(tools.log.writes).toEqual([{ path: "second.txt", content: "2" }]);
    expect(tools.counter.executeCallCount).toBe(1);
  });

  it("without an approval handler, calls that need approval are denied and safe ones run", async () => {
    const { processor } = makeProcessor({ executor: makeExecutor(tools) });
    const batch = openAIBatch([
      ["c1", "risky-counter", {}],
      ["c2", "counter", {}],
    ]);
    await processor.process(batch);
    const denied = batch.getLifecycle(batch.calls[0]!)!;
    expect(denied.status).toBe(ToolCallStatus.Denied);
    expect(denied.approvalDecision?.reason).toContain("No approval handler");
    expect(tools.riskyCounter.executeCallCount).toBe(0);
    expect(tools.counter.executeCallCount).toBe(1);
  });

  it("an empty batch completes at once", async () => {
    const { processor, transitions } = makeProcessor({ executor: makeExecutor(tools) });
    const batch = parseToolCalls(openAIResponse([]), { format: "openai-chat" });
    await processor.process(batch);
    expect(batch.allCompleted).toBe(true);
    expect(transitions).toEqual([]);
    expect(toProviderMessages(batch, "openai-chat")).toEqual([]);
  });
});

describe("ToolCallProcessor: every call is answered exactly once", () => {
  const calls: readonly CallSpec[] = [
    ["call_ok", "file-read", { path: "README.md" }],
    ["call_denied", "risky-counter", {}],
    ["call_failed", "failing", {}],
    ["call_threw", "throwing", {}],
    ["call_timeout", "slow", {}],
    ["call_invalid", "file-read", { path: 42 }],
    ["call_unknown", "file-raed", { path: "README.md" }],
  ];

  async function run(batchFormat: "openai-chat" | "anthropic") {
    const response =
      batchFormat === "openai-chat" ? openAIResponse(calls) : anthropicResponse(calls);
    const batch = parseToolCalls(response, { format: batchFormat });
    const { processor } = makeToolsProcessor(
      tools,
      recordingHandler(() => ApprovalDecision.deny("Too risky")),
      {
        workspacePath: workspace.root,
      },
    );
    await processor.process(batch);
    return batch;
  }

  it("ends each call in its own terminal state", async () => {
    const batch = await run("openai-chat");
    expect(batch.calls.map((c) => batch.getLifecycle(c)?.status)).toEqual([
      ToolCallStatus.Completed,
      ToolCallStatus.Denied,
      ToolCallStatus.Completed, // the tool reported a failure: a completed call, failed result
      ToolCallStatus.Failed, // the tool threw
      ToolCallStatus.TimedOut,
      ToolCallStatus.ValidationFailed,
      ToolCallStatus.ValidationFailed,
    ]);
    const threw = batch.getLifecycle(batch.calls[3]!)!;
    expect(threw.errorMessage).toContain("Boom");
    expect(threw.failed).toBe(true);
    expect(batch.failureCount).toBe(4);
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("answers OpenAI with one tool message per call, in order, with the provider's call ids", async () => {
    const batch = await run("openai-chat");
    const messages = toProviderMessages(batch, "openai-chat");
    expect(messages.map((m) => m.tool_call_id)).toEqual(calls.map(([id]) => id));
    expect(messages.every((m) => m.role === "tool")).toBe(true);
    const content = Object.fromEntries(messages.map((m) => [m.tool_call_id, m.content]));
    expect(content.call_ok).toContain("# sample");
    expect(content.call_denied).toContain("denied");
    expect(content.call_denied).toContain("Too risky");
    expect(content.call_failed).toContain("The disk is full");
    expect(content.call_threw).toContain("Boom");
    expect(content.call_timeout).toMatch(/timed out/i);
    expect(content.call_invalid).toContain("path");
    expect(content.call_unknown).toContain("Tool 'file-raed' not found");
    expect(content.call_unknown).toContain("'file-read'");
  });

  it("answers Anthropic with one tool_result block per call, errors marked", async () => {
    const batch = await run("anthropic");
    const messages = toProviderMessages(batch, "anthropic");
    expect(messages).toHaveLength(1);
    const blocks = messages[0]!.content;
    expect(blocks.map((b) => b.tool_use_id)).toEqual(calls.map(([id]) => id));
    expect(blocks.map((b) => b.is_error)).toEqual([false, true, true, true, true, true, true]);
    expect(blocks[6]!.content).toContain("Did you mean 'file-read'");
  });

  it("an unknown tool fails validation with the closest name, and nothing runs", async () => {
    const { processor } = makeProcessor({ executor: makeExecutor(tools) });
    const batch = openAIBatch([["c1", "File_Writ", { path: "x", content: "y" }]]);
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.ValidationFailed);
    expect(lifecycle.errorMessage).toContain("Did you mean 'file-write'");
    expect(lifecycle.errorMessage).toContain("Available: file-read, file-write");
    expect(tools.log.writes).toEqual([]);
  });

  it("an unknown tool flagged by the parser keeps the parser's message", async () => {
    const { processor } = makeProcessor({ executor: makeExecutor(tools) });
    const batch = parseToolCalls(openAIResponse([["c1", "file-raed", { path: "a" }]]), {
      format: "openai-chat",
      toolIds: ["file-read", "file-write"],
    });
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.ValidationFailed);
    expect(lifecycle.errorMessage).toContain("file-read");
    expect(tools.log.reads).toEqual([]);
  });
});

describe("ToolCallProcessor: arguments over the limits", () => {
  function nested(depth: number): Record<string, unknown> {
    let value: Record<string, unknown> = { leaf: true };
    for (let i = 0; i < depth; i++) value = { inner: value };
    return value;
  }

  it("arguments nested deeper than the validator's limit fail validation and never run", async () => {
    const { processor } = makeProcessor({ executor: makeExecutor(tools) });
    const batch = openAIBatch([["c1", "counter", nested(100) as never]]);
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.ValidationFailed);
    expect(lifecycle.errorMessage).toMatch(/deep|depth|nest/i);
    expect(tools.counter.executeCallCount).toBe(0);
  });

  it("a string over the configured length fails validation and never runs", async () => {
    const { processor } = makeProcessor({
      executor: makeExecutor(tools),
      validator: new ToolValidator({ maxStringLength: 1_000 }),
    });
    const batch = openAIBatch([
      ["c1", "counter", { text: "x".repeat(2_000) }],
      ["c2", "counter", { text: "short" }],
    ]);
    await processor.process(batch);
    expect(batch.getLifecycle(batch.calls[0]!)?.status).toBe(ToolCallStatus.ValidationFailed);
    expect(batch.getLifecycle(batch.calls[1]!)?.status).toBe(ToolCallStatus.Completed);
    expect(tools.counter.executeCallCount).toBe(1);
  });

  it("arguments over the parser's size limit fail validation and never run", async () => {
    const { processor } = makeProcessor({ executor: makeExecutor(tools) });
    const batch = parseToolCalls(openAIResponse([["c1", "counter", { text: "x".repeat(5_000) }]]), {
      format: "openai-chat",
      maxArgumentsBytes: 1_024,
    });
    await processor.process(batch);
    expect(batch.getLifecycle(batch.calls[0]!)?.status).toBe(ToolCallStatus.ValidationFailed);
    expect(tools.counter.executeCallCount).toBe(0);
  });

  it("a 10,000-call response is refused by the batch limit before anything runs", () => {
    const calls: CallSpec[] = Array.from({ length: 10_000 }, (_, i) => [
      `call_${i}`,
      "counter",
      {},
    ]);
    let processorReached = false;
    const attempt = () => {
      const batch = parseToolCalls(openAIResponse(calls), { format: "openai-chat" });
      processorReached = true;
      return batch;
    };
    expect(attempt).toThrow(TooManyToolCallsError);
    expect(attempt).toThrow(/10000|10,000/);
    expect(processorReached).toBe(false);
    expect(tools.counter.executeCallCount).toBe(0);
  });
});

describe("ToolCallProcessor: approval handlers that misbehave", () => {
  it("a handler that throws is a denial, and the tool never runs", async () => {
    const { processor } = makeProcessor({
      executor: makeExecutor(tools),
      approvalHandler: {
        requestApproval() {
          throw new Error("The UI crashed");
        },
      },
    });
    const batch = openAIBatch([["c1", "risky-counter", {}]]);
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.Denied);
    expect(lifecycle.approvalDecision?.reason).toContain("The UI crashed");
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("a handler whose promise rejects, or that answers with no decision, is a denial", async () => {
    let n = 0;
    const { processor } = makeProcessor({
      executor: makeExecutor(tools),
      approvalHandler: {
        requestApproval: () =>
          n++ === 0
            ? Promise.reject(new Error("gone"))
            : (undefined as unknown as ApprovalDecision),
      },
    });
    const batch = openAIBatch([
      ["c1", "risky-counter", {}],
      ["c2", "risky-counter", { again: true }],
    ]);
    await processor.process(batch);
    const [first, second] = batch.calls.map((c) => batch.getLifecycle(c)!);
    expect(first!.approvalDecision?.reason).toContain("gone");
    expect(second!.approvalDecision?.reason).toBe("The approval handler returned no decision");
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("a handler that never answers is denied as a timeout after approvalTimeoutMs", async () => {
    const handler = silentHandler();
    const { processor } = makeToolsProcessor(tools, handler, {
      approvalTimeoutMs: 30,
    });
    const batch = openAIBatch([["c1", "risky-counter", {}]]);
    const started = Date.now();
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(lifecycle.status).toBe(ToolCallStatus.Denied);
    expect(lifecycle.approvalDecision?.reason).toBe("Approval request timed out");
    expect(tools.riskyCounter.executeCallCount).toBe(0);
    // The handler is told its answer is no longer needed.
    expect(handler.prompts[0]!.signal.aborted).toBe(true);
    expect(toProviderMessages(batch, "openai-chat")[0]!.content).toContain("timed out");
  });

  it("a decision bound to another request is refused: denied, and the tool never runs", async () => {
    const other = ToolCallRequest.create("risky-counter", "Mock Tool", {}, 0);
    const { processor } = makeToolsProcessor(
      tools,
      recordingHandler(() => ApprovalDecision.approve().bindTo(other)),
    );
    const batch = openAIBatch([["c1", "risky-counter", {}]]);
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.Denied);
    expect(lifecycle.approvalDecision?.reason).toContain("Approval refused");
    expect(lifecycle.approvalDecision?.reason).toContain(other.id);
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("a decision made for other arguments is refused: denied, and the tool never runs", async () => {
    const { processor } = makeProcessor({
      executor: makeExecutor(tools),
      approvalHandler: recordingHandler((request) =>
        ApprovalDecision.approve({
          requestId: request.id,
          argumentsHash: hashToolCallArguments({ command: "npm test" }),
        }),
      ),
    });
    const batch = openAIBatch([["c1", "terminal-execute", { command: "rm -rf /" }]]);
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.Denied);
    expect(lifecycle.approvalDecision?.reason).toContain("other arguments");
    expect(tools.log.commands).toEqual([]);
  });
});

describe("ToolCallProcessor: cancellation", () => {
  it("a signal aborted while a person is asked cancels the call, which never runs", async () => {
    const handler = silentHandler();
    const { processor } = makeToolsProcessor(tools, handler);
    const controller = new AbortController();
    const batch = openAIBatch([["c1", "risky-counter", {}]]);
    const done = processor.process(batch, controller.signal);
    await waitFor(() => handler.prompts.length === 1);
    controller.abort();
    await done;
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.Cancelled);
    expect(lifecycle.errorMessage).toBe("Approval was cancelled");
    expect(handler.prompts[0]!.signal.aborted).toBe(true);
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("a signal aborted while the tool runs cancels it (Cancelled, not TimedOut)", async () => {
    const long = MockTool.delayed("long", 10_000);
    const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [long] }) });
    const { processor } = makeProcessor({ executor });
    const controller = new AbortController();
    const batch = openAIBatch([["c1", "long", {}]]);
    const done = processor.process(batch, controller.signal);
    await waitFor(() => long.executeCallCount === 1);
    controller.abort();
    await done;
    expect(batch.getLifecycle(batch.calls[0]!)?.status).toBe(ToolCallStatus.Cancelled);
    expect(toProviderMessages(batch, "openai-chat")[0]!.content).toMatch(/cancel/i);
  });

  it("a signal aborted before processing cancels every call, and nothing runs", async () => {
    const { processor } = makeProcessor({ executor: makeExecutor(tools) });
    const batch = openAIBatch([
      ["c1", "counter", {}],
      ["c2", "file-read", { path: "README.md" }],
    ]);
    await processor.process(batch, AbortSignal.abort());
    expect(batch.calls.map((c) => batch.getLifecycle(c)?.status)).toEqual([
      ToolCallStatus.Cancelled,
      ToolCallStatus.Cancelled,
    ]);
    expect(tools.counter.executeCallCount).toBe(0);
    expect(tools.log.reads).toEqual([]);
    expect(toProviderMessages(batch, "openai-chat")).toHaveLength(2);
  });
});

describe("ToolCallProcessor: transition events", () => {
  it("emits one event for every lifecycle transition", async () => {
    const { processor, transitions } = makeProcessor({
      executor: makeExecutor(tools),
      approvalHandler: recordingHandler((request) =>
        request.toolId === "file-write" ? ApprovalDecision.approve() : ApprovalDecision.deny("no"),
      ),
      workspacePath: workspace.root,
    });
    const batch = openAIBatch([
      ["c1", "file-read", { path: "README.md" }], // 4: Validating, Approved, Executing, Completed
      ["c2", "file-write", { path: "a.txt", content: "a" }], // 5: + AwaitingApproval
      ["c3", "terminal-execute", { command: "ls" }], // 3: Validating, AwaitingApproval, Denied
      ["c4", "nope", {}], // 2: Validating, ValidationFailed
    ]);
    await processor.process(batch);
    expect(transitions).toHaveLength(14);
    for (const call of batch.calls) {
      const lifecycle = batch.getLifecycle(call)!;
      const emitted = transitions
        .filter((t) => t.requestId === call.id)
        .map((t) => `${t.from}>${t.to}`);
      expect(emitted).toEqual(lifecycle.transitions.map((t) => `${t.from}>${t.to}`));
      expect(
        transitions.filter((t) => t.requestId === call.id).every((t) => t.lifecycle === lifecycle),
      ).toBe(true);
    }
    expect(transitions.filter((t) => t.requestId === batch.calls[1]!.id).map((t) => t.to)).toEqual([
      ToolCallStatus.Validating,
      ToolCallStatus.AwaitingApproval,
      ToolCallStatus.Approved,
      ToolCallStatus.Executing,
      ToolCallStatus.Completed,
    ]);
  });
});

describe("ToolCallProcessor: parallel batches", () => {
  function concurrencyProbe() {
    let inFlight = 0;
    let maxInFlight = 0;
    const tool = new MockTool({
      id: "probe",
      executeFunc: async () => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 60));
        inFlight--;
        return ToolResult.succeeded();
      },
    });
    return { tool, max: () => maxInFlight };
  }

  const threeCalls: CallSpec[] = [
    ["p1", "probe", { n: 1 }],
    ["p2", "probe", { n: 2 }],
    ["p3", "probe", { n: 3 }],
  ];

  it("runs a parallel batch concurrently on the Teams tier", async () => {
    const probe = concurrencyProbe();
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [probe.tool] }),
      license: staticLicense(LicenseTier.Teams),
    });
    const batch = openAIBatch(threeCalls);
    expect(batch.isParallel).toBe(true);
    await new ToolCallProcessor({ executor }).process(batch);
    expect(batch.successCount).toBe(3);
    expect(probe.max()).toBe(3);
  });

  it("runs a parallel batch concurrently when no license is configured (nothing is gated)", async () => {
    const probe = concurrencyProbe();
    const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [probe.tool] }) });
    const batch = openAIBatch(threeCalls);
    await new ToolCallProcessor({ executor }).process(batch);
    expect(batch.successCount).toBe(3);
    expect(probe.max()).toBe(3);
  });

  it("runs the same batch one call at a time on the Core tier", async () => {
    const probe = concurrencyProbe();
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [probe.tool] }),
      license: staticLicense(LicenseTier.Core),
    });
    const batch = openAIBatch(threeCalls);
    await new ToolCallProcessor({ executor }).process(batch);
    expect(batch.successCount).toBe(3);
    expect(probe.max()).toBe(1);
  });

  it("runs a batch marked not parallel one call at a time, even on the Teams tier", async () => {
    const probe = concurrencyProbe();
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [probe.tool] }),
      license: staticLicense(LicenseTier.Teams),
    });
    const parsed = openAIBatch(threeCalls);
    const { ToolCallBatch } = await import("../../src/calls/index.js");
    const batch = ToolCallBatch.multiple(parsed.calls, 0, false);
    await new ToolCallProcessor({ executor }).process(batch);
    expect(probe.max()).toBe(1);
  });

  it("on the Teams tier a call waiting for a person does not hold back the others", async () => {
    const handler = silentHandler();
    const executor = makeExecutor(tools, staticLicense(LicenseTier.Teams));
    const { processor } = makeProcessor({ executor, approvalHandler: handler });
    const controller = new AbortController();
    const batch = openAIBatch([
      ["c1", "risky-counter", {}],
      ["c2", "counter", {}],
    ]);
    const done = processor.process(batch, controller.signal);
    await waitFor(() => batch.getLifecycle(batch.calls[1]!)?.status === ToolCallStatus.Completed);
    expect(batch.getLifecycle(batch.calls[0]!)?.status).toBe(ToolCallStatus.AwaitingApproval);
    controller.abort();
    await done;
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });
});

describe("ToolCallProcessor: results of the executor", () => {
  it("a tool the executor cannot admit (requires a permission) fails the call", async () => {
    const guarded = new MockTool({ id: "guarded", requiredPermissions: ["admin"] });
    const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [guarded] }) });
    const { processor } = makeProcessor({ executor });
    const batch = openAIBatch([["c1", "guarded", {}]]);
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.Failed);
    expect(lifecycle.errorMessage).toContain("Permission denied");
    expect(guarded.executeCallCount).toBe(0);
    expect(toProviderMessages(batch, "openai-chat")[0]!.content).toContain("Permission denied");
  });

  it.each([
    [
      "throws",
      () => {
        throw new Error("no idea");
      },
    ],
    ["answers with no risk level", () => undefined as unknown as RiskLevel],
    ["answers with a number out of range", () => 7 as RiskLevel],
  ])("a Safe tool whose risk assessment %s is treated as Medium: it asks", async (_, assess) => {
    const odd = new MockTool({ id: "odd", riskLevel: RiskLevel.Safe });
    odd.getEffectiveRiskLevel = assess;
    const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [odd] }) });
    const handler = recordingHandler(() => ApprovalDecision.deny("unsure"));
    const { processor } = makeProcessor({ executor, approvalHandler: handler });
    const batch = openAIBatch([["c1", "odd", {}]]);
    await processor.process(batch);
    expect(handler.prompts).toHaveLength(1);
    expect(handler.prompts[0]!.request.riskLevel).toBe(RiskLevel.Medium);
    expect(handler.prompts[0]!.request.warnings?.join(" ")).toContain("could not assess");
    expect(odd.executeCallCount).toBe(0);
  });

  it("a tool whose validate throws fails validation", async () => {
    const odd = new MockTool({
      id: "odd",
      validateFunc: () => {
        throw new Error("validator bug");
      },
    });
    const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [odd] }) });
    const { processor } = makeProcessor({ executor });
    const batch = openAIBatch([["c1", "odd", {}]]);
    await processor.process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.ValidationFailed);
    expect(lifecycle.errorMessage).toContain("validator bug");
    expect(odd.executeCallCount).toBe(0);
  });

  it("hands tools the session, the provider call id and the workspace", async () => {
    let seen: { session?: string; call?: string; workspace?: string; approved?: boolean } = {};
    const probe = new MockTool({
      id: "probe",
      executeFunc: async (context) => {
        seen = {
          session: context.sessionId,
          call: context.toolCallId,
          workspace: context.workspacePath,
          approved: context.isApproved,
        };
        return ToolResult.succeeded();
      },
    });
    const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [probe] }) });
    const processor = new ToolCallProcessor({
      executor,
      sessionId: "conv-1",
      workspacePath: workspace.root,
    });
    await processor.process(openAIBatch([["call_abc", "probe", {}]]));
    expect(seen).toEqual({
      session: "conv-1",
      call: "call_abc",
      workspace: workspace.root,
      approved: true,
    });
    expect(processor.sessionId).toBe("conv-1");
  });
});
