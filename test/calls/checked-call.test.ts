import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApprovalPolicy, type PolicyCall, type PolicyDecision } from "../../src/approval/index.js";
import {
  ApprovalDecision,
  CheckedCall,
  InvalidCallInputError,
  ToolCallProcessor,
  type ToolCallProcessorConfig,
  ToolCallStatus,
} from "../../src/calls/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { JsonSchemaBuilder } from "../../src/schema/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { MockTool } from "../../src/testing/index.js";
import {
  makeTools,
  makeWorkspace,
  recordingHandler,
  type Tools,
  type Workspace,
} from "./processor-support.js";

/** The default policy, counting how often it decides. */
class CountingPolicy extends ApprovalPolicy {
  decisions = 0;
  override decide(call: PolicyCall): PolicyDecision {
    this.decisions++;
    return super.decide(call);
  }
}

let workspace: Workspace;
let tools: Tools;
let folder: string;
let store: Store;

beforeEach(async () => {
  workspace = makeWorkspace();
  tools = makeTools();
  folder = mkdtempSync(join(tmpdir(), "aintern-checked-call-"));
  store = await openStore(`sqlite:${join(folder, "audit.db")}`);
});
afterEach(async () => {
  vi.useRealTimers();
  await store.close();
  rmSync(folder, { recursive: true, force: true });
  workspace.cleanup();
});

function setup(config: Partial<ToolCallProcessorConfig> = {}): {
  processor: ToolCallProcessor;
  policy: CountingPolicy;
} {
  const policy = config.policy instanceof CountingPolicy ? config.policy : new CountingPolicy();
  const executor = new ToolExecutor({
    registry: new ToolRegistry({ tools: tools.all }),
    audit: store.audit,
  });
  const processor = new ToolCallProcessor({
    executor,
    workspacePath: workspace.root,
    sessionId: "conv-a",
    ...config,
    policy,
  });
  return { processor, policy };
}

/** The columns that say how a call was decided, of its audit row. */
async function decisionColumns(callId: string) {
  const [row] = (await store.audit.query({ callId })).entries;
  expect(row).toBeDefined();
  return {
    toolName: row?.toolName,
    status: row?.status,
    decision: row?.decision,
    decidedBy: row?.decidedBy,
    approvalScope: row?.approvalScope,
    grantId: row?.grantId,
    argumentsHash: row?.argumentsHash,
    editedArgumentsHash: row?.editedArgumentsHash,
    wasApproved: row?.wasApproved,
    sessionId: row?.sessionId,
    errorMessage: row?.errorMessage,
  };
}

/** The model's text without the run's duration (which differs between two runs). */
function withoutDuration(content: string): string {
  return content.replace(/Duration: \d+ms/, "Duration: -");
}

describe("processCall with a checked call", () => {
  it("runs the policy once for a call checked first (twice when checked with needsApproval)", async () => {
    const { processor, policy } = setup();
    const parameters = { path: "README.md" };
    const checked = await processor.checkCall({ toolId: "file-read", parameters, callId: "c1" });
    expect(checked.needsApproval).toBe(false);
    const answer = await processor.processCall({
      toolId: "file-read",
      parameters,
      callId: "c1",
      checked,
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(answer.content).toContain("# sample");
    expect(policy.decisions).toBe(1);

    expect(await processor.needsApproval("file-read", parameters)).toBe(false);
    await processor.processCall({ toolId: "file-read", parameters, callId: "c2" });
    expect(policy.decisions).toBe(3);
    expect(tools.log.reads).toEqual(["README.md", "README.md"]);
  });

  it("writes the same audit row and lifecycle as a call decided again: policy, remembered, rule", async () => {
    const { processor } = setup({
      policy: new CountingPolicy({ deny: [{ toolId: "file-write", reason: "read-only" }] }),
    });
    await processor.recordDecision({
      toolId: "risky-counter",
      parameters: { n: 1 },
      decision: ApprovalDecision.approve({ rememberForSession: true }),
    });
    const calls = [
      { toolId: "file-read", parameters: { path: "src/app.ts" } },
      { toolId: "risky-counter", parameters: { n: 2 } },
      { toolId: "file-write", parameters: { path: "notes.md", content: "hi" } },
    ];
    for (const [i, call] of calls.entries()) {
      expect(await processor.needsApproval(call.toolId, call.parameters)).toBe(false);
      const decidedAgain = await processor.processCall({ ...call, callId: `again-${i}` });
      const checked = await processor.checkCall({ ...call, callId: `checked-${i}` });
      const reused = await processor.processCall({ ...call, callId: `checked-${i}`, checked });

      expect(await decisionColumns(`checked-${i}`)).toEqual(await decisionColumns(`again-${i}`));
      expect(reused.status).toBe(decidedAgain.status);
      expect(withoutDuration(reused.content)).toBe(withoutDuration(decidedAgain.content));
      const steps = (a: typeof reused) => a.lifecycle.transitions.map((t) => `${t.from}>${t.to}`);
      expect(steps(reused)).toEqual(steps(decidedAgain));
      expect(reused.lifecycle.approvalDecision?.approved).toBe(
        decidedAgain.lifecycle.approvalDecision?.approved,
      );
    }
    const byWho = await Promise.all(calls.map((_, i) => decisionColumns(`checked-${i}`)));
    expect(byWho.map((r) => r.decidedBy)).toEqual(["policy", "remembered", "rule"]);
    expect(byWho[1]?.grantId).toBeTruthy();
    expect(tools.log.writes).toEqual([]);
  });

  it("reuses the check with a lifecycle store, and a call id that already ran is not run again", async () => {
    const { processor, policy } = setup({ store: store.calls });
    const parameters = { path: "README.md" };
    const checked = await processor.checkCall({ toolId: "file-read", parameters, callId: "s1" });
    const answer = await processor.processCall({
      toolId: "file-read",
      parameters,
      callId: "s1",
      checked,
    });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(policy.decisions).toBe(1);
    expect((await store.calls.get("s1", "conv-a"))?.record.status).toBe(ToolCallStatus.Completed);

    const again = await processor.checkCall({ toolId: "file-read", parameters, callId: "s1" });
    const replay = await processor.processCall({
      toolId: "file-read",
      parameters,
      callId: "s1",
      checked: again,
    });
    expect(replay.status).toBe(ToolCallStatus.Completed);
    expect(tools.log.reads).toEqual(["README.md"]);
  });

  it("never runs a call that needs approval on its check: the person is asked", async () => {
    const handler = recordingHandler(() => ApprovalDecision.deny("not now"));
    const { processor, policy } = setup({ approvalHandler: handler });
    const parameters = { command: "rm -rf build" };
    const checked = await processor.checkCall({ toolId: "terminal-execute", parameters });
    expect(checked.needsApproval).toMatchObject({ riskLevel: 3 });
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters,
      checked,
    });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(handler.prompts).toHaveLength(1);
    expect(policy.decisions).toBe(2);
    expect(tools.log.commands).toEqual([]);
  });

  it("still asks about a protected path a Safe tool reads (no handler: denied, not read)", async () => {
    const { processor } = setup();
    const parameters = { path: ".git/hooks/pre-commit" };
    const checked = await processor.checkCall({ toolId: "file-read", parameters });
    expect(checked.needsApproval).not.toBe(false);
    const answer = await processor.processCall({ toolId: "file-read", parameters, checked });
    expect(answer.status).toBe(ToolCallStatus.Denied);
    expect(tools.log.reads).toEqual([]);
  });

  it("runs the arguments that were judged, not the caller's object changed since", async () => {
    const { processor } = setup();
    const parameters: { path: string } = { path: "README.md" };
    const checked = await processor.checkCall({ toolId: "file-read", parameters });
    parameters.path = ".git/hooks/pre-commit";
    const answer = await processor.processCall({ toolId: "file-read", parameters, checked });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(tools.log.reads).toEqual(["README.md"]);
  });

  it("runs the coerced arguments of the check, with the coercion note", async () => {
    const { processor, policy } = setup();
    const counted = new MockTool({
      id: "counted",
      riskLevel: RiskLevel.Safe,
      schema: JsonSchemaBuilder.create()
        .addInteger("count", "How many", { required: true })
        .build(),
    });
    processor.executor.registry.registerTool(counted);
    const parameters = { count: "3" };
    const checked = await processor.checkCall({ toolId: "counted", parameters });
    const reused = await processor.processCall({ toolId: "counted", parameters, checked });
    const again = await processor.processCall({ toolId: "counted", parameters });
    expect(policy.decisions).toBe(2);
    expect(reused.lifecycle.request.parameters).toEqual({ count: 3 });
    expect(again.lifecycle.request.parameters).toEqual({ count: 3 });
    expect(withoutDuration(reused.content)).toBe(withoutDuration(again.content));
    expect(reused.content).toContain("3");
  });

  describe("decides again when the check does not fit the call", () => {
    const parameters = { path: "README.md" };
    const cases: {
      name: string;
      call: (
        processor: ToolCallProcessor,
        checked: CheckedCall,
      ) => Promise<{ status: ToolCallStatus }>;
    }[] = [
      {
        name: "another session",
        call: (p, checked) =>
          p.processCall({ toolId: "file-read", parameters, sessionId: "conv-b", checked }),
      },
      {
        name: "another tool",
        call: (p, checked) => p.processCall({ toolId: "counter", parameters, checked }),
      },
      {
        name: "another call id",
        call: (p, checked) =>
          p.processCall({ toolId: "file-read", parameters, callId: "other", checked }),
      },
      {
        name: "another arguments object",
        call: (p, checked) =>
          p.processCall({ toolId: "file-read", parameters: { ...parameters }, checked }),
      },
      {
        name: "a second use",
        call: async (p, checked) => {
          await p.processCall({ toolId: "file-read", parameters, checked });
          return p.processCall({ toolId: "file-read", parameters, checked });
        },
      },
      {
        name: "a check older than a second",
        call: (p, checked) => {
          vi.useFakeTimers({ toFake: ["Date"] });
          vi.setSystemTime(Date.now() + 1_001);
          return p.processCall({ toolId: "file-read", parameters, checked });
        },
      },
    ];
    it.each(cases)("$name", async ({ name, call }) => {
      const { processor, policy } = setup();
      const checked = await processor.checkCall({ toolId: "file-read", parameters });
      const answer = await call(processor, checked);
      expect(answer.status).toBe(ToolCallStatus.Completed);
      // One decision by the check, one by the call decided again (the second use: the first
      // call reused it).
      expect(policy.decisions).toBe(2);
      expect(name).toBeTruthy();
    });

    it("a check made by another processor", async () => {
      const first = setup();
      const second = setup({ policy: first.policy });
      const checked = await first.processor.checkCall({ toolId: "file-read", parameters });
      await second.processor.processCall({ toolId: "file-read", parameters, checked });
      expect(first.policy.decisions).toBe(2);
    });

    it("a tool registered again since the check", async () => {
      const { processor, policy } = setup();
      const checked = await processor.checkCall({ toolId: "file-read", parameters });
      processor.executor.registry.unregisterTool("file-read");
      processor.executor.registry.registerTool(makeTools().fileRead);
      await processor.processCall({ toolId: "file-read", parameters, checked });
      expect(policy.decisions).toBe(2);
    });
  });

  it("refuses a checked value that checkCall did not make, saying what it must be", async () => {
    const { processor } = setup();
    await expect(
      processor.processCall({
        toolId: "file-read",
        parameters: {},
        checked: { needsApproval: false } as unknown as CheckedCall,
      }),
    ).rejects.toThrow(InvalidCallInputError);
    expect(CheckedCall.isInstance({ needsApproval: false })).toBe(false);
    expect(() => new (CheckedCall as unknown as new () => unknown)()).toThrow(/checkCall/);
  });

  it("answers checkCall as needsApproval answers, for invalid and unknown calls too", async () => {
    const { processor } = setup();
    for (const [toolId, parameters] of [
      ["file-write", { path: "a.md", content: "x" }],
      ["file-read", { path: 5 }],
      ["no-such-tool", {}],
      ["file-read", "not an object"],
    ] as const) {
      const checked = await processor.checkCall({ toolId, parameters });
      expect(checked.needsApproval).toEqual(await processor.needsApproval(toolId, parameters));
    }
    const invalid = { path: 5 };
    const checked = await processor.checkCall({ toolId: "file-read", parameters: invalid });
    const answer = await processor.processCall({
      toolId: "file-read",
      parameters: invalid,
      checked,
    });
    expect(answer.status).toBe(ToolCallStatus.ValidationFailed);
  });
});
