import { describe, expect, it } from "vitest";
import {
  type ApprovalAnswer,
  type ApprovalHandler,
  ApprovalPolicy,
  type ApprovalPromptDetails,
  type ApprovalRequest,
} from "../../src/approval/index.js";
import { ApprovalDecision, parseToolCalls, ToolCallProcessor } from "../../src/calls/index.js";
import { flagApprovalHandler } from "../../src/cli/index.js";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import { type JsonObject, RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import {
  type ExecutorApproval,
  ToolExecutionStatus,
  type ToolExecutorConfig,
} from "../../src/execution/index.js";
import { openStore } from "../../src/store/index.js";
import { MockTool } from "../../src/testing/index.js";
import { collect, executorWith } from "./support.js";

/** A handler that answers with `answer` and records what it was shown. */
function recording(answer: (request: ApprovalRequest) => ApprovalAnswer | Promise<ApprovalAnswer>) {
  const prompts: { request: ApprovalRequest; details: ApprovalPromptDetails | undefined }[] = [];
  const handler: ApprovalHandler & { prompts: typeof prompts } = {
    prompts,
    requestApproval(request, _signal, details) {
      prompts.push({ request, details });
      return answer(request);
    },
  };
  return handler;
}

/** Tools of each risk; `shell` is Low unless its command contains "rm" (then High). */
function tools() {
  return {
    safe: new MockTool({ id: "safe", riskLevel: RiskLevel.Safe }),
    medium: new MockTool({ id: "medium", riskLevel: RiskLevel.Medium }),
    high: new MockTool({ id: "high", riskLevel: RiskLevel.High }),
    critical: new MockTool({ id: "critical", riskLevel: RiskLevel.Critical }),
    confirm: new MockTool({ id: "confirm", requiresConfirmation: true }),
    shell: new (class extends MockTool {
      override getEffectiveRiskLevel(parameters: JsonObject): RiskLevel {
        return String(parameters.command ?? "").includes("rm") ? RiskLevel.High : RiskLevel.Low;
      }
    })({ id: "shell", riskLevel: RiskLevel.Low }),
  };
}

function gated(approval?: ExecutorApproval, extra: Omit<ToolExecutorConfig, "registry"> = {}) {
  const all = tools();
  const executor = executorWith(Object.values(all), {
    ...(approval === undefined ? {} : { approval }),
    ...extra,
  });
  return { executor, ...all };
}

describe("ToolExecutor approval gate: none configured", () => {
  it("refuses High and Critical calls with ConfirmationRequired and says how to configure approvals", async () => {
    const { executor, high, critical } = gated();

    for (const id of ["high", "critical"]) {
      const result = await executor.execute({ toolName: id });
      expect(result.status).toBe(ToolExecutionStatus.RequiresConfirmation);
      expect(result.errorCode).toBe(ToolErrorCode.ConfirmationRequired);
      expect(result.errorMessage).toContain("approval: { policy: new ApprovalPolicy(), handler }");
      expect(result.errorMessage).toContain('approval: "none"');
      expect(result.wasApproved).toBe(false);
    }
    expect(high.executeCallCount + critical.executeCallCount).toBe(0);
  });

  it("judges the effective risk of the call, not the tool's default", async () => {
    const { executor, shell } = gated();

    const listed = await executor.execute({ toolName: "shell", parameters: { command: "ls" } });
    const removed = await executor.execute({
      toolName: "shell",
      parameters: { command: "rm -rf src" },
    });

    expect(listed.status).toBe(ToolExecutionStatus.Completed);
    expect(removed.errorCode).toBe(ToolErrorCode.ConfirmationRequired);
    expect(removed.errorMessage).toContain("High risk calls need approval");
    expect(shell.executeCallCount).toBe(1);
  });

  it("refuses a tool that requires confirmation, and runs Safe, Low and Medium calls", async () => {
    const { executor, confirm } = gated();

    const refused = await executor.execute({ toolName: "confirm" });
    const ran = await Promise.all(
      ["safe", "medium"].map((toolName) => executor.execute({ toolName })),
    );

    expect(refused.errorCode).toBe(ToolErrorCode.ConfirmationRequired);
    expect(confirm.executeCallCount).toBe(0);
    expect(ran.map((r) => r.status)).toEqual(["completed", "completed"]);
  });

  it("lets the call's own confirmation callback approve a High call", async () => {
    const { executor, high } = gated();

    const result = await executor.execute(
      { toolName: "high" },
      { confirmationCallback: () => true },
    );

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.wasApproved).toBe(true);
    expect(high.executeCallCount).toBe(1);
  });

  it("refuses the AIntern path's unapproved context too, and runs one built with isApproved", async () => {
    const { executor, high } = gated();
    const context = (isApproved: boolean) =>
      ToolExecutionContextBuilder.create().withApproval(isApproved).buildForTesting();

    const refused = await executor.execute("high", context(false));
    const approved = await executor.execute("high", context(true));

    expect(refused.errorCode).toBe(ToolErrorCode.ConfirmationRequired);
    expect(approved.status).toBe(ToolExecutionStatus.Completed);
    expect(high.executeCallCount).toBe(1);
  });
});

describe("ToolExecutor approval gate: configuration", () => {
  it("refuses an approval config without a policy or a handler", () => {
    for (const approval of [
      {},
      { policy: new ApprovalPolicy() },
      { handler: flagApprovalHandler("all") },
      "always",
    ]) {
      expect(() => gated(approval as unknown as ExecutorApproval)).toThrow(/approval must be/);
    }
  });
});

describe('ToolExecutor approval gate: "none"', () => {
  it("runs High and Critical calls unasked (trusted batch jobs)", async () => {
    const { executor } = gated("none");

    const results = await executor.executeBatch([{ toolName: "high" }, { toolName: "critical" }]);

    expect(results.map((r) => r.status)).toEqual(["completed", "completed"]);
  });

  it("still asks the call's callback for a tool that requires confirmation (spec 003)", async () => {
    const { executor } = gated("none");

    const unasked = await executor.execute({ toolName: "confirm" });
    const denied = await executor.execute(
      { toolName: "confirm" },
      { confirmationCallback: () => false },
    );

    expect(unasked.errorCode).toBe(ToolErrorCode.ConfirmationRequired);
    expect(unasked.errorMessage).not.toContain("approval gate");
    expect(denied.errorCode).toBe(ToolErrorCode.ConfirmationDenied);
  });
});

describe("ToolExecutor approval gate: { policy, handler }", () => {
  it("asks the handler for a call the policy asks about, with the call's id, summary and risk", async () => {
    const handler = recording(() => ({ approved: true }));
    const { executor, medium } = gated({ policy: new ApprovalPolicy(), handler });

    const result = await executor.execute(
      { toolName: "medium", parameters: { path: "a.txt" } },
      { executionId: "e1", callId: "call-7" },
    );
    const events = await collect(executor.observe("e1"));

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.wasApproved).toBe(true);
    expect(medium.executeCallCount).toBe(1);
    expect(handler.prompts).toHaveLength(1);
    const [{ request, details }] = handler.prompts as [(typeof handler.prompts)[0]];
    expect(request).toMatchObject({
      id: "call-7",
      toolId: "medium",
      parameters: { path: "a.txt" },
      riskLevel: RiskLevel.Medium,
      executionSummary: medium.getExecutionSummary({ path: "a.txt" }),
    });
    expect(details).toMatchObject({ reason: "Medium Risk calls need approval", round: 1 });
    expect(events.map((e) => e.eventType)).toEqual([
      "Started",
      "ConfirmationRequested",
      "ConfirmationReceived",
      "InProgress",
      "Completed",
    ]);
  });

  it("refuses a call the handler denies, with its reason, and never runs it", async () => {
    const handler = recording(() => ({ approved: false, reason: "not on a Friday" }));
    const { executor, high } = gated({ policy: new ApprovalPolicy(), handler });

    const result = await executor.execute({ toolName: "high" });

    expect(result.status).toBe(ToolExecutionStatus.Denied);
    expect(result.errorCode).toBe(ToolErrorCode.ConfirmationDenied);
    expect(result.errorMessage).toBe("Denied: not on a Friday");
    expect(high.executeCallCount).toBe(0);
  });

  it("refuses what a deny rule covers without asking, and runs what an allow rule covers unasked", async () => {
    const handler = recording(() => ({ approved: true }));
    const policy = new ApprovalPolicy({
      deny: [{ toolId: "critical", reason: "never in production" }],
      allow: [{ toolId: "high" }],
    });
    const { executor, critical } = gated({ policy, handler });

    const denied = await executor.execute({ toolName: "critical" });
    const allowed = await executor.execute({ toolName: "high" });
    const safe = await executor.execute({ toolName: "safe" });

    expect(denied.status).toBe(ToolExecutionStatus.Denied);
    expect(denied.errorCode).toBe(ToolErrorCode.Denied);
    expect(denied.errorMessage).toContain("never in production");
    expect(critical.executeCallCount).toBe(0);
    expect([allowed.status, safe.status]).toEqual(["completed", "completed"]);
    expect(handler.prompts).toHaveLength(0);
  });

  it("asks for a tool that requires confirmation even when the policy allows it", async () => {
    const handler = recording(() => ({ approved: true }));
    const policy = new ApprovalPolicy({ tools: { confirm: "allow" } });
    const { executor } = gated({ policy, handler });

    const result = await executor.execute({ toolName: "confirm" });

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(handler.prompts).toHaveLength(1);
  });

  it("denies when the handler throws, answers nothing in time, or the call is cancelled while it asks", async () => {
    const throwing = recording(() => {
      throw new Error("console offline");
    });
    const silent = recording(() => new Promise<ApprovalAnswer>(() => undefined));
    const failed = await gated({
      policy: new ApprovalPolicy(),
      handler: throwing,
    }).executor.execute({ toolName: "high" });
    const late = await gated({
      policy: new ApprovalPolicy(),
      handler: silent,
      timeoutMs: 20,
    }).executor.execute({ toolName: "high" });
    const { executor: cancelling } = gated({ policy: new ApprovalPolicy(), handler: silent });
    const controller = new AbortController();
    const cancelled = cancelling.execute({ toolName: "high" }, {}, controller.signal);
    controller.abort();

    expect([failed.status, failed.errorMessage]).toEqual([
      "denied",
      "Confirmation failed: console offline",
    ]);
    expect([late.status, late.errorMessage]).toEqual([
      "denied",
      "Denied: Approval request timed out",
    ]);
    expect((await cancelled).status).toBe(ToolExecutionStatus.Cancelled);
  });

  it("runs the tool with edited arguments, validated and checked again; a riskier edit is refused", async () => {
    const { executor, shell } = gated({
      policy: new ApprovalPolicy({ riskLevels: { Low: "ask" } }),
      handler: recording((request) => ({
        approved: true,
        modifiedParameters: {
          command: request.parameters.command === "ls" ? "ls -la" : "rm -rf /",
        },
      })),
    });

    const edited = await executor.execute({ toolName: "shell", parameters: { command: "ls" } });
    const riskier = await executor.execute({
      toolName: "shell",
      parameters: { command: "cat x" },
    });

    expect(edited.status).toBe(ToolExecutionStatus.Completed);
    expect(shell.executedParameters).toEqual([{ command: "ls -la" }]);
    expect(riskier.status).toBe(ToolExecutionStatus.Denied);
    expect(riskier.errorMessage).toContain("High risk, more than the Low risk call");
  });

  it("writes its decisions to the audit: who decided, by name when the handler says", async () => {
    const store = await openStore("sqlite::memory:");
    try {
      const { executor } = gated(
        {
          policy: new ApprovalPolicy({ deny: [{ toolId: "critical", reason: "never" }] }),
          handler: recording((request) =>
            request.parameters.command === "rm a"
              ? { approved: true, decidedBy: "ana@example.com" }
              : { approved: false, reason: "no" },
          ),
        },
        { audit: store.audit },
      );
      await executor.execute({ toolName: "shell", parameters: { command: "rm a" } });
      await executor.execute({ toolName: "shell", parameters: { command: "rm b" } });
      await executor.execute({ toolName: "critical" });
      await executor.execute({ toolName: "safe" });
      const rows = (await store.audit.query()).entries;
      const byStatus = (status: string) => rows.filter((r) => r.status === status);
      expect(byStatus("completed").map((r) => [r.toolName, r.decision, r.decidedBy])).toEqual(
        expect.arrayContaining([
          // A person's decision under the name the handler gave, as the processor records it.
          ["shell", "approved", "ana@example.com"],
          ["safe", null, null],
        ]),
      );
      expect(byStatus("denied").map((r) => [r.toolName, r.decision, r.decidedBy])).toEqual(
        expect.arrayContaining([
          ["shell", "denied", "person"],
          ["critical", "denied", "rule"],
        ]),
      );
    } finally {
      await store.close();
    }
  });

  it("skips the gate for a call its sender already approved (approvedBy)", async () => {
    const handler = recording(() => ({ approved: false }));
    const { executor, critical } = gated({ policy: new ApprovalPolicy(), handler });

    const result = await executor.execute({ toolName: "critical" }, { approvedBy: "processor" });

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(handler.prompts).toHaveLength(0);
    expect(critical.executeCallCount).toBe(1);
  });

  it("takes the processor's handler as it is: a decision bound to the request approves", async () => {
    const { executor } = gated({
      policy: new ApprovalPolicy(),
      handler: flagApprovalHandler("all"),
    });
    const bound = recording((request) => ApprovalDecision.approve().bindTo(request));
    const viaDecision = executorWith([new MockTool({ id: "m", riskLevel: RiskLevel.Medium })], {
      approval: { policy: new ApprovalPolicy(), handler: bound },
    });

    expect((await executor.execute({ toolName: "high" })).status).toBe("completed");
    expect((await viaDecision.execute({ toolName: "m" }, { callId: "c" })).status).toBe(
      "completed",
    );
  });

  it("is not asked again for a call a ToolCallProcessor decided", async () => {
    const gateHandler = recording(() => ({ approved: false, reason: "asked twice" }));
    const { executor, high } = gated({ policy: new ApprovalPolicy(), handler: gateHandler });
    const processor = new ToolCallProcessor({
      executor,
      approvalHandler: { requestApproval: (request) => ApprovalDecision.approve().bindTo(request) },
    });
    const batch = parseToolCalls(
      {
        choices: [
          {
            message: {
              tool_calls: [
                { id: "c1", type: "function", function: { name: "high", arguments: "{}" } },
              ],
            },
          },
        ],
      },
      { format: "openai-chat" },
    );

    await processor.process(batch);

    expect(gateHandler.prompts).toHaveLength(0);
    expect(high.executeCallCount).toBe(1);
  });
});
