import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApprovalPolicy } from "../../src/approval/index.js";
import {
  ApprovalDecision,
  hashToolCallArguments,
  InvalidCallInputError,
  MemoryToolCallStore,
  ToolCallStatus,
} from "../../src/calls/index.js";
import type { ToolProgress } from "../../src/context/index.js";
import { RiskLevel, ToolCategory, ToolErrorCode } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { defineTool } from "../../src/tools/index.js";
import {
  makeProcessor,
  makeTools,
  makeToolsProcessor,
  makeWorkspace,
  processorOf,
  recordingHandler,
  type Tools,
  type Workspace,
} from "./processor-support.js";

let workspace: Workspace;
let tools: Tools;

beforeEach(() => {
  workspace = makeWorkspace();
  tools = makeTools();
});
afterEach(() => workspace.cleanup());

const approveAll = () => recordingHandler(() => ApprovalDecision.approve());

describe("processCall: one call through the whole gate", () => {
  it("runs a Safe call unasked and returns the text the model gets, the data and the lifecycle", async () => {
    const handler = approveAll();
    const { processor } = makeToolsProcessor(tools, handler, { workspacePath: workspace.root });
    const answer = await processor.processCall({
      toolId: "file-read",
      parameters: { path: "src/app.ts" },
      callId: "call_1",
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(answer.isError).toBe(false);
    expect(answer.content).toContain("export const answer = 42;");
    expect(answer.data).toBe("export const answer = 42;\n");
    expect(answer.result.success).toBe(true);
    expect(answer.lifecycle.request.providerCallId).toBe("call_1");
    expect(handler.prompts).toHaveLength(0);
  });

  it("matches the tool id case-insensitively, as the parser does", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({ toolId: "COUNTER", parameters: {} });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(tools.counter.executeCallCount).toBe(1);
  });

  it("tells the model about an unknown tool, with the closest name, without running anything", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({ toolId: "file-raed", parameters: { path: "a" } });
    expect(answer.status).toBe(ToolCallStatus.ValidationFailed);
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain("file-raed");
    expect(answer.content).toContain("file-read");
    expect(answer.data).toBeUndefined();
  });

  it("refuses arguments that are not a JSON object as a validation failure, not a throw", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    for (const parameters of [null, "path=a", [1, 2], 5, undefined]) {
      const answer = await processor.processCall({ toolId: "file-read", parameters });
      expect(answer.status).toBe(ToolCallStatus.ValidationFailed);
      expect(answer.content).toContain("must be a JSON object");
    }
    expect(tools.log.reads).toHaveLength(0);
  });

  it("reports invalid arguments in the words the model can act on", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({ toolId: "file-read", parameters: { path: 5 } });
    expect(answer.status).toBe(ToolCallStatus.ValidationFailed);
    expect(answer.content).toContain("path");
    expect(tools.log.reads).toHaveLength(0);
  });

  it("asks the handler about a Medium call, with the session, the call id and the summary", async () => {
    const handler = approveAll();
    const { processor } = makeToolsProcessor(tools, handler, {
      workspacePath: workspace.root,
      sessionId: "conv-1",
    });
    const answer = await processor.processCall({
      toolId: "file-write",
      parameters: { path: "notes.md", content: "hi" },
      callId: "call_w",
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(workspace.read("notes.md")).toBe("hi");
    expect(handler.prompts).toHaveLength(1);
    expect(handler.prompts[0]!.details).toMatchObject({
      sessionId: "conv-1",
      callId: "call_w",
      summary: "Write notes.md",
      riskLevel: RiskLevel.Medium,
      round: 1,
    });
  });

  it("passes a call's own session to the handler and the tool", async () => {
    const sessions: (string | undefined)[] = [];
    const probe = defineTool({
      id: "probe",
      name: "Probe",
      description: "Records its session.",
      category: ToolCategory.Custom,
      riskLevel: RiskLevel.Medium,
      inputSchema: z.object({}),
      execute: (_input, context) => {
        sessions.push(context.sessionId);
        return "ok";
      },
    });
    const handler = approveAll();
    const { processor } = processorOf([probe], {
      approvalHandler: handler,
    });
    await processor.processCall({ toolId: "probe", parameters: {}, sessionId: "conn-7" });
    await processor.processCall({ toolId: "probe", parameters: {} });
    expect(sessions).toEqual(["conn-7", "default"]);
    expect(handler.prompts.map((p) => p.details?.sessionId)).toEqual(["conn-7", "default"]);
  });

  it("denies a call that needs approval when there is no handler, and says so to the model", async () => {
    const { processor } = makeProcessor({
      executor: new ToolExecutor({ registry: registryOf(tools) }),
    });
    const answer = await processor.processCall({ toolId: "risky-counter", parameters: {} });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain("No approval handler is configured");
    expect(answer.result.errorCode).toBe(ToolErrorCode.Denied);
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("reports a tool's own failure as an error the model sees, with the call Completed", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({ toolId: "failing", parameters: {} });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain("The disk is full");
  });

  it("hands the tool's progress reports to onProgress", async () => {
    const reporter = new MockTool({
      id: "reporter",
      riskLevel: RiskLevel.Safe,
      executeFunc: async (context) => {
        context.reportProgress("half way", 50);
        context.reportProgress("done", 100);
        return ToolResult.succeeded("ok");
      },
    });
    const { processor } = processorOf([reporter]);
    const reports: ToolProgress[] = [];
    const answer = await processor.processCall({
      toolId: "reporter",
      parameters: {},
      onProgress: (p) => reports.push(p),
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(reports.map((r) => [r.message, r.percentComplete])).toEqual([
      ["half way", 50],
      ["done", 100],
    ]);
  });

  it("a signal aborted before the call cancels it without running the tool", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({
      toolId: "counter",
      parameters: {},
      signal: AbortSignal.abort(),
    });
    expect(answer.status).toBe(ToolCallStatus.Cancelled);
    expect(answer.isError).toBe(true);
    expect(tools.counter.executeCallCount).toBe(0);
  });

  it("a signal aborted while the person is asked cancels the call", async () => {
    const controller = new AbortController();
    const handler = recordingHandler(() => {
      controller.abort();
      return new Promise<ApprovalDecision>(() => undefined);
    });
    const { processor } = makeToolsProcessor(tools, handler);
    const answer = await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      signal: controller.signal,
    });
    expect(answer.status).toBe(ToolCallStatus.Cancelled);
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("a tool that requires confirmation is asked about even when its risk would run unasked", async () => {
    const confirm = new MockTool({
      id: "confirm-me",
      riskLevel: RiskLevel.Safe,
      requiresConfirmation: true,
    });
    const handler = recordingHandler(() => ApprovalDecision.deny("not now"));
    const { processor } = processorOf([confirm], {
      approvalHandler: handler,
    });
    const answer = await processor.processCall({ toolId: "confirm-me", parameters: {} });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(handler.prompts[0]!.details?.reason).toContain("requires confirmation");
    expect(confirm.executeCallCount).toBe(0);
  });

  it("throws for a call id or session id that is not a non-empty string (a programmer error)", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    await expect(
      processor.processCall({ toolId: "counter", parameters: {}, callId: 7 as unknown as string }),
    ).rejects.toThrow(InvalidCallInputError);
    await expect(
      processor.processCall({ toolId: "counter", parameters: {}, sessionId: "" }),
    ).rejects.toThrow(/sessionId/);
    await expect(
      processor.processCall({
        toolId: "counter",
        parameters: {},
        decision: { approved: "yes" } as unknown as ApprovalDecision,
      }),
    ).rejects.toThrow(/decision/);
    expect(tools.counter.executeCallCount).toBe(0);
  });

  it("a handler may wait as long as it likes with approvalTimeoutMs: Infinity", async () => {
    let answer: (d: ApprovalDecision) => void = () => undefined;
    const handler = recordingHandler(
      () => new Promise<ApprovalDecision>((resolve) => (answer = resolve)),
    );
    const { processor } = makeToolsProcessor(tools, handler, {
      approvalTimeoutMs: Number.POSITIVE_INFINITY,
    });
    const pending = processor.processCall({ toolId: "risky-counter", parameters: {} });
    await new Promise((resolve) => setTimeout(resolve, 30));
    answer(ApprovalDecision.approve());
    const result = await pending;
    expect(result.status).toBe(ToolCallStatus.Completed);
    expect(tools.riskyCounter.executeCallCount).toBe(1);
  });
});

describe("processCall with a decision the host framework already made", () => {
  it("runs an approved call without asking the handler", async () => {
    const handler = approveAll();
    const { processor } = makeToolsProcessor(tools, handler);
    const answer = await processor.processCall({
      toolId: "risky-counter",
      parameters: { n: 1 },
      decision: { approved: true },
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(handler.prompts).toHaveLength(0);
    expect(answer.lifecycle.approvalDecision?.approved).toBe(true);
    expect(answer.lifecycle.wasAutoApproved).toBe(false);
  });

  it("works without any approval handler configured", async () => {
    const { processor } = makeProcessor({
      executor: new ToolExecutor({ registry: registryOf(tools) }),
    });
    const answer = await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      decision: ApprovalDecision.approve(),
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
  });

  it("a denial is passed to the model with its reason", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      decision: ApprovalDecision.deny("Not on a Friday"),
    });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(answer.content).toContain("Not on a Friday");
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("an approval bound to other arguments is refused", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: "rm -rf /" },
      decision: { approved: true, argumentsHash: hashToolCallArguments({ command: "ls" }) },
    });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(answer.content).toContain("other arguments");
    expect(tools.log.commands).toHaveLength(0);
  });

  it("an approval bound to the arguments' hash from needsApproval runs the call", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const parameters = { command: "rm -rf build" };
    const need = await processor.needsApproval("terminal-execute", parameters);
    expect(need).not.toBe(false);
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters,
      decision: { approved: true, argumentsHash: need === false ? "" : need.argumentsHash },
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(tools.log.commands).toEqual(["rm -rf build"]);
  });

  it("a deny rule wins over the host's approval", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll(), {
      policy: new ApprovalPolicy({ deny: [{ commandPattern: "rm *", reason: "No deletions" }] }),
    });
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: "rm -rf build" },
      decision: { approved: true },
    });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(answer.content).toContain("No deletions");
    expect(tools.log.commands).toHaveLength(0);
  });

  it("edited arguments are validated: an invalid edit is denied, not asked again", async () => {
    const handler = approveAll();
    const { processor } = makeToolsProcessor(tools, handler);
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: "ls" },
      decision: { approved: true, modifiedParameters: { command: "" } },
    });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(answer.content).toContain("cannot be applied");
    expect(handler.prompts).toHaveLength(0);
    expect(tools.log.commands).toHaveLength(0);
  });

  it("an edit that raises the risk is denied rather than run", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: "ls" },
      decision: { approved: true, modifiedParameters: { command: "rm -rf src" } },
    });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(answer.content).toContain("raised the risk");
    expect(tools.log.commands).toHaveLength(0);
  });

  it("an edit at the same risk runs with the edited arguments", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: "ls" },
      decision: { approved: true, modifiedParameters: { command: "ls -la" } },
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(tools.log.commands).toEqual(["ls -la"]);
  });

  it("a remembered approval given by the host covers the next call of the session", async () => {
    const handler = recordingHandler(() => ApprovalDecision.deny("asked"));
    const { processor } = makeToolsProcessor(tools, handler);
    await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      sessionId: "s1",
      decision: { approved: true, rememberForSession: true },
    });
    expect(await processor.needsApproval("risky-counter", {}, { sessionId: "s1" })).toBe(false);
    const again = await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      sessionId: "s1",
    });
    expect(again.status).toBe(ToolCallStatus.Completed);
    expect(handler.prompts).toHaveLength(0);
    // Another session is not covered.
    const other = await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      sessionId: "s2",
    });
    expect(other.status).toBe(ToolCallStatus.Denied);
    expect(handler.prompts).toHaveLength(1);
  });
});

describe("needsApproval", () => {
  it("is false for a Safe call, an unknown tool, invalid arguments and a call a rule denies", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll(), {
      policy: new ApprovalPolicy({ deny: [{ toolId: "file-write" }] }),
    });
    expect(await processor.needsApproval("file-read", { path: "a" })).toBe(false);
    expect(await processor.needsApproval("nope", {})).toBe(false);
    expect(await processor.needsApproval("terminal-execute", { command: 5 })).toBe(false);
    expect(await processor.needsApproval("terminal-execute", "ls")).toBe(false);
    expect(await processor.needsApproval("file-write", { path: "a", content: "b" })).toBe(false);
  });

  it("says why a call needs approval, with its risk, summary and the arguments' hash", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll(), {
      workspacePath: workspace.root,
    });
    const parameters = { path: "notes.md", content: "x" };
    expect(await processor.needsApproval("file-write", parameters)).toEqual({
      reason: "Medium Risk calls need approval",
      riskLevel: RiskLevel.Medium,
      summary: "Write notes.md",
      argumentsHash: hashToolCallArguments(parameters),
    });
  });

  it("uses the call's effective risk and carries the warning of a Critical call", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const high = await processor.needsApproval("terminal-execute", { command: "rm -rf x" });
    expect(high).toMatchObject({ riskLevel: RiskLevel.High });
    const critical = await processor.needsApproval("terminal-execute", { command: "shutdown now" });
    expect(critical).toMatchObject({ riskLevel: RiskLevel.Critical });
    expect(critical !== false && critical.warning).toBeTruthy();
  });

  it("is false once a remembered permission of that session covers the call", async () => {
    const { processor } = makeToolsProcessor(
      tools,
      recordingHandler(() => ApprovalDecision.approve({ rememberForSession: true })),
      { sessionId: "s1" },
    );
    expect(await processor.needsApproval("risky-counter", {})).not.toBe(false);
    await processor.processCall({ toolId: "risky-counter", parameters: {} });
    expect(await processor.needsApproval("risky-counter", {})).toBe(false);
    expect(await processor.needsApproval("risky-counter", {}, { sessionId: "s2" })).not.toBe(false);
  });
});

describe("recordDecision", () => {
  it("an approval recorded for a call id lets processCall run it without asking", async () => {
    const handler = recordingHandler(() => ApprovalDecision.deny("should not be asked"));
    const { processor } = makeToolsProcessor(tools, handler);
    const recorded = await processor.recordDecision({
      toolId: "risky-counter",
      parameters: { n: 1 },
      callId: "call_9",
      decision: { approved: true },
    });
    expect(recorded.approved).toBe(true);
    expect(recorded.lifecycle.status).toBe(ToolCallStatus.Approved);
    expect(recorded.decision.argumentsHash).toBe(hashToolCallArguments({ n: 1 }));
    expect(tools.riskyCounter.executeCallCount).toBe(0);

    const answer = await processor.processCall({
      toolId: "risky-counter",
      parameters: { n: 1 },
      callId: "call_9",
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(handler.prompts).toHaveLength(0);
    expect(tools.riskyCounter.executeCallCount).toBe(1);
  });

  it("a recorded approval does not answer other arguments, another call id or another session", async () => {
    const handler = recordingHandler(() => ApprovalDecision.deny("asked"));
    const { processor } = makeToolsProcessor(tools, handler);
    const record = (callId: string) =>
      processor.recordDecision({
        toolId: "risky-counter",
        parameters: { n: 1 },
        callId,
        sessionId: "s1",
        decision: { approved: true },
      });
    await record("a");
    expect(
      (
        await processor.processCall({
          toolId: "risky-counter",
          parameters: { n: 2 },
          callId: "a",
          sessionId: "s1",
        })
      ).status,
    ).toBe(ToolCallStatus.Denied);
    await record("b");
    expect(
      (
        await processor.processCall({
          toolId: "risky-counter",
          parameters: { n: 1 },
          callId: "b",
          sessionId: "s2",
        })
      ).status,
    ).toBe(ToolCallStatus.Denied);
    expect(
      (
        await processor.processCall({
          toolId: "risky-counter",
          parameters: { n: 1 },
          callId: "c",
          sessionId: "s1",
        })
      ).status,
    ).toBe(ToolCallStatus.Denied);
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("a recorded denial answers the call with its reason", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll());
    const recorded = await processor.recordDecision({
      toolId: "risky-counter",
      parameters: {},
      callId: "call_d",
      decision: ApprovalDecision.deny("Ask me tomorrow"),
    });
    expect(recorded).toMatchObject({ approved: false, reason: "Ask me tomorrow" });
    const answer = await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      callId: "call_d",
    });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(answer.content).toContain("Ask me tomorrow");
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });

  it("refuses an approval for an invalid call or one a rule denies, and says why", async () => {
    const { processor } = makeToolsProcessor(tools, approveAll(), {
      policy: new ApprovalPolicy({ deny: [{ toolId: "file-write", reason: "read-only day" }] }),
    });
    const invalid = await processor.recordDecision({
      toolId: "terminal-execute",
      parameters: { command: 1 },
      decision: { approved: true },
    });
    expect(invalid.approved).toBe(false);
    expect(invalid.lifecycle.status).toBe(ToolCallStatus.ValidationFailed);
    expect(invalid.reason).toContain("command");
    const denied = await processor.recordDecision({
      toolId: "file-write",
      parameters: { path: "a", content: "b" },
      decision: { approved: true },
    });
    expect(denied).toMatchObject({ approved: false, reason: "read-only day" });
  });

  it("remembers what the decision asks to remember", async () => {
    const { processor } = makeToolsProcessor(
      tools,
      recordingHandler(() => ApprovalDecision.deny()),
    );
    await processor.recordDecision({
      toolId: "risky-counter",
      parameters: {},
      decision: { approved: true, rememberForTool: true },
    });
    const [grant] = await processor.permissions.list();
    expect(grant).toMatchObject({ scope: "tool", toolId: "risky-counter" });
    expect(await processor.needsApproval("risky-counter", { n: 3 })).toBe(false);
  });

  it("with a store, a processor started later runs the recorded approval without asking", async () => {
    const store = new MemoryToolCallStore();
    const first = makeToolsProcessor(tools, approveAll(), { store }).processor;
    await first.recordDecision({
      toolId: "risky-counter",
      parameters: {},
      callId: "call_r",
      decision: { approved: true },
    });
    expect((await store.get("call_r"))?.record.status).toBe(ToolCallStatus.Approved);
    const handler = recordingHandler(() => ApprovalDecision.deny("asked"));
    const second = makeToolsProcessor(tools, handler, { store }).processor;
    const answer = await second.processCall({
      toolId: "risky-counter",
      parameters: {},
      callId: "call_r",
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(handler.prompts).toHaveLength(0);
    // Run once: processed again, it is answered from the store.
    const again = await second.processCall({
      toolId: "risky-counter",
      parameters: {},
      callId: "call_r",
    });
    expect(again.status).toBe(ToolCallStatus.Completed);
    expect(tools.riskyCounter.executeCallCount).toBe(1);
  });
});

function registryOf(t: Tools): ToolRegistry {
  return new ToolRegistry({ tools: t.all });
}

describe("scalar coercion (spec 003)", () => {
  function typedTool() {
    const seen: unknown[] = [];
    const tool = defineTool({
      id: "typed",
      name: "Typed",
      description: "Takes typed values.",
      category: ToolCategory.Custom,
      riskLevel: RiskLevel.Safe,
      inputSchema: z.object({
        count: z.number().int(),
        ratio: z.number().optional(),
        force: z.boolean().optional(),
        options: z.object({ depth: z.number().int() }).optional(),
        tags: z.array(z.string()).optional(),
      }),
      execute: (input) => {
        seen.push(input);
        return "ok";
      },
    });
    const { processor } = processorOf([tool]);
    return { seen, processor };
  }

  it("converts '5' to 5 for an integer, '2.5' for a number and 'true' for a boolean, and tells the model", async () => {
    const { seen, processor } = typedTool();
    const answer = await processor.processCall({
      toolId: "typed",
      parameters: { count: "5", ratio: "2.5", force: "true", options: { depth: "2" } },
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(seen).toEqual([{ count: 5, ratio: 2.5, force: true, options: { depth: 2 } }]);
    expect(answer.isError).toBe(false);
    expect(answer.content).toContain("Validation warnings:");
    expect(answer.content).toContain(`Parameter 'count' was converted from string "5" to number 5`);
    expect(answer.content).toContain("options.depth");
    const warnings = answer.lifecycle.request.validationResult?.warnings ?? [];
    expect(warnings.map((w) => w.warningCode)).toEqual([
      "coerced",
      "coerced",
      "coerced",
      "coerced",
    ]);
  });

  it("never coerces objects, arrays, or strings that do not say the value exactly", async () => {
    const { seen, processor } = typedTool();
    for (const parameters of [
      { count: "5.5" },
      { count: "five" },
      { count: "" },
      { count: 1, force: "yes" },
      { count: 1, tags: "a" },
      { count: [5] },
      { count: { value: 5 } },
    ]) {
      const answer = await processor.processCall({ toolId: "typed", parameters });
      expect(answer.status, JSON.stringify(parameters)).toBe(ToolCallStatus.ValidationFailed);
    }
    expect(seen).toEqual([]);
  });

  it("a coerced call sent again is the same call: answered from the store, not run twice", async () => {
    const { seen, processor } = typedTool();
    const store = new MemoryToolCallStore();
    const stored = makeProcessor({
      executor: processor.executor,
      store,
    }).processor;
    await stored.processCall({ toolId: "typed", parameters: { count: "7" }, callId: "k1" });
    const again = await stored.processCall({
      toolId: "typed",
      parameters: { count: "7" },
      callId: "k1",
    });
    expect(again.status).toBe(ToolCallStatus.Completed);
    expect(seen).toHaveLength(1);
  });
});
