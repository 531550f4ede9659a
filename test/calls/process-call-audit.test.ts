import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalPolicy } from "../../src/approval/index.js";
import {
  ApprovalDecision,
  hashToolCallArguments,
  ToolCallProcessor,
  ToolCallStatus,
} from "../../src/calls/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import type { Store } from "../../src/store/index.js";
import { MockTool } from "../../src/testing/index.js";
import { storeTargets, useStoreTarget } from "../store/store-targets.js";
import {
  makeTools,
  makeWorkspace,
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

describe.each(storeTargets)("the audit of every decision on $name", ({ make }) => {
  const target = useStoreTarget(make);

  async function setup(
    config: Partial<ConstructorParameters<typeof ToolCallProcessor>[0]> = {},
    logParameters = false,
  ): Promise<{ store: Store; processor: ToolCallProcessor }> {
    const store = await target.place().open();
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [...tools.all, secretTool()] }),
      audit: store.audit,
      options: { logParameters },
    });
    const processor = new ToolCallProcessor({
      executor,
      store: store.calls,
      workspacePath: workspace.root,
      sessionId: "conv-a",
      ...config,
    });
    return { store, processor };
  }

  it("records a validation failure: invalid, by validation, with the call and session", async () => {
    const { store, processor } = await setup();
    await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: 5 },
      callId: "v1",
    });
    const [row] = (await store.audit.query({ callId: "v1" })).entries;
    expect(row).toMatchObject({
      toolName: "terminal-execute",
      status: "validationError",
      decision: "invalid",
      decidedBy: "validation",
      sessionId: "conv-a",
      callId: "v1",
      argumentsHash: hashToolCallArguments({ command: 5 }),
    });
    expect(row?.errorMessage).toContain("command");
  });

  it("records arguments nested past the limit as invalid, without them, where copying them overflowed the stack", async () => {
    // Red team (session 19): 5,000 levels threw 'Maximum call stack size exceeded' out of
    // processCall, before any audit row.
    const { store, processor } = await setup({}, true);
    let deep: unknown = "x";
    for (let i = 0; i < 5_000; i++) deep = { a: deep };
    const answer = await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: "ls", extra: deep as never },
      callId: "deep-1",
    });
    expect(answer.isError).toBe(true);
    expect(answer.content).toContain("nest more than 256 levels deep");
    const [row] = (await store.audit.query({ callId: "deep-1" })).entries;
    expect(row).toMatchObject({ status: "validationError", decision: "invalid", parameters: {} });
  });

  it("records denials and who denied: a rule, a person, no handler", async () => {
    const byRule = await setup({
      policy: new ApprovalPolicy({ deny: [{ toolId: "file-write", reason: "read-only" }] }),
      approvalHandler: recordingHandler(() => ApprovalDecision.deny("not today")),
    });
    await byRule.processor.processCall({
      toolId: "file-write",
      parameters: { path: "a", content: "b" },
      callId: "d1",
    });
    await byRule.processor.processCall({ toolId: "risky-counter", parameters: {}, callId: "d2" });
    const noHandler = await setup();
    await noHandler.processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      callId: "d3",
    });

    const denied = await byRule.store.audit.query({ decision: "denied" });
    expect(denied.entries.map((e) => [e.callId, e.status, e.decidedBy, e.errorMessage])).toEqual([
      ["d2", "denied", "person", "not today"],
      ["d1", "denied", "rule", "read-only"],
    ]);
    const [none] = (await noHandler.store.audit.query({ callId: "d3" })).entries;
    expect(none).toMatchObject({ decision: "denied", decidedBy: "no-handler" });
  });

  it("records the execution with its approval: by whom, how widely, the grant used", async () => {
    const { store, processor } = await setup({
      approvalHandler: recordingHandler(() =>
        ApprovalDecision.approve({ rememberForSession: true }),
      ),
    });
    await processor.processCall({ toolId: "counter", parameters: {}, callId: "a0" });
    await processor.processCall({ toolId: "risky-counter", parameters: { n: 1 }, callId: "a1" });
    await processor.processCall({ toolId: "risky-counter", parameters: { n: 2 }, callId: "a2" });
    const row = async (callId: string) => (await store.audit.query({ callId })).entries[0];
    expect(await row("a0")).toMatchObject({
      status: "completed",
      decision: "approved",
      decidedBy: "policy",
      wasApproved: true,
    });
    const first = await row("a1");
    expect(first).toMatchObject({
      status: "completed",
      decision: "approved",
      decidedBy: "person",
      approvalScope: "session",
      sessionId: "conv-a",
    });
    expect(first?.grantId).toBeTruthy();
    expect(await row("a2")).toMatchObject({
      decision: "approved",
      decidedBy: "remembered",
      approvalScope: "session",
      grantId: first?.grantId,
    });
    expect(await store.audit.count({ sessionId: "conv-a", decision: "approved" })).toBe(3);
    expect(await store.audit.count({ decidedBy: "remembered" })).toBe(1);
  });

  it("records an approval's reach: once, and a pattern with the grant it made and later covered", async () => {
    const { store, processor } = await setup({
      approvalHandler: recordingHandler((request) =>
        request.getParameter("path") === "src/once.ts"
          ? ApprovalDecision.approve()
          : ApprovalDecision.approve({ rememberForSession: true, rememberPattern: "src/**" }),
      ),
    });
    const write = (path: string, callId: string) =>
      processor.processCall({
        toolId: "file-write",
        parameters: { path, content: "x" },
        callId,
      });
    await write("src/once.ts", "o1");
    await write("src/first.ts", "g1");
    await write("src/second.ts", "g2");
    const row = async (callId: string) => (await store.audit.query({ callId })).entries[0];
    expect(await row("o1")).toMatchObject({
      status: "completed",
      decidedBy: "person",
      approvalScope: "once",
      grantId: null,
    });
    const granted = await row("g1");
    expect(granted).toMatchObject({ decidedBy: "person", approvalScope: "pattern" });
    expect(granted?.grantId).toBeTruthy();
    expect(await row("g2")).toMatchObject({
      decidedBy: "remembered",
      approvalScope: "pattern",
      grantId: granted?.grantId,
    });
  });

  it("records an edit with the original and the edited arguments' hashes", async () => {
    const { store, processor } = await setup({
      approvalHandler: recordingHandler(() =>
        ApprovalDecision.approveWithModifications({ command: "ls -la" }),
      ),
    });
    await processor.processCall({
      toolId: "terminal-execute",
      parameters: { command: "ls" },
      callId: "e1",
    });
    const [row] = (await store.audit.query({ callId: "e1" })).entries;
    expect(row).toMatchObject({
      decision: "approved",
      decidedBy: "person",
      argumentsHash: hashToolCallArguments({ command: "ls" }),
      editedArgumentsHash: hashToolCallArguments({ command: "ls -la" }),
    });
  });

  it("records a decision made in the host framework, and a cancelled call", async () => {
    const { store, processor } = await setup();
    await processor.recordDecision({
      toolId: "risky-counter",
      parameters: {},
      callId: "h1",
      decision: { approved: true, rememberForTool: true },
    });
    const [decided] = (await store.audit.query({ callId: "h1" })).entries;
    expect(decided).toMatchObject({
      status: "pending",
      decision: "approved",
      decidedBy: "host",
      approvalScope: "tool",
    });
    await processor.processCall({ toolId: "risky-counter", parameters: {}, callId: "h1" });
    const rows = (await store.audit.query({ callId: "h1" })).entries;
    expect(rows.map((r) => r.status).sort()).toEqual(["completed", "pending"]);

    await processor.processCall({
      toolId: "counter",
      parameters: {},
      callId: "c1",
      signal: AbortSignal.abort(),
    });
    expect((await store.audit.query({ callId: "c1" })).entries[0]).toMatchObject({
      status: "cancelled",
      decision: "cancelled",
      decidedBy: "caller",
    });
  });

  it("records who decided: the name a decision carries, recordDecision's decidedBy, else the approver", async () => {
    const named = await setup({
      approvalHandler: recordingHandler(() =>
        ApprovalDecision.approve({ rememberForTool: true }).by("Ada Reviewer"),
      ),
    });
    await named.processor.processCall({ toolId: "risky-counter", parameters: {}, callId: "w1" });
    expect((await named.store.audit.query({ callId: "w1" })).entries[0]).toMatchObject({
      decision: "approved",
      decidedBy: "Ada Reviewer",
    });
    const [grant] = await named.processor.permissions.list({ toolId: "risky-counter" });
    expect(grant?.grantedBy).toBe("Ada Reviewer");

    await named.processor.recordDecision({
      toolId: "risky-counter",
      parameters: { n: 2 },
      callId: "w2",
      decision: { approved: false, reason: "not now" },
      decidedBy: "oauth-user-7",
    });
    expect((await named.store.audit.query({ callId: "w2" })).entries[0]).toMatchObject({
      decision: "denied",
      decidedBy: "oauth-user-7",
    });

    const approver = await setup({
      approver: "ana",
      approvalHandler: recordingHandler(() => ApprovalDecision.deny("no")),
    });
    await approver.processor.processCall({ toolId: "risky-counter", parameters: {}, callId: "w3" });
    expect((await approver.store.audit.query({ callId: "w3" })).entries[0]).toMatchObject({
      decision: "denied",
      decidedBy: "ana",
    });
  });

  it("filters by tool, status, session, decision and time range", async () => {
    const { store, processor } = await setup({
      approvalHandler: recordingHandler(() => ApprovalDecision.deny("no")),
    });
    const before = new Date(Date.now() - 1);
    await processor.processCall({ toolId: "counter", parameters: {}, callId: "f1" });
    await processor.processCall({
      toolId: "risky-counter",
      parameters: {},
      callId: "f2",
      sessionId: "conv-b",
    });
    await processor.processCall({ toolId: "nope", parameters: {}, callId: "f3" });
    expect(await store.audit.count({ toolName: "counter" })).toBe(1);
    expect(await store.audit.count({ status: "denied" })).toBe(1);
    expect(await store.audit.count({ sessionId: "conv-b" })).toBe(1);
    expect(await store.audit.count({ decision: ["denied", "invalid"] })).toBe(2);
    expect(await store.audit.count({ from: before })).toBe(3);
    expect(await store.audit.count({ to: before })).toBe(0);
    await expect(
      store.audit.count({ decision: "maybe" as unknown as "denied" }),
    ).rejects.toMatchObject({ field: "decision" });
  });

  it("redacts parameters the schema marks x-secret before they are stored", async () => {
    const { store, processor } = await setup({}, true);
    const parameters = { user: "ana", token: "s3cret-value" };
    const first = await processor.processCall({ toolId: "login", parameters, callId: "s1" });
    expect(first.status).toBe(ToolCallStatus.Completed);
    const [row] = (await store.audit.query({ callId: "s1" })).entries;
    expect(row?.parameters).toEqual({ user: "ana", token: "[redacted]" });
    const stored = await store.calls.get("s1", "conv-a");
    expect(JSON.stringify(stored?.record)).not.toContain("s3cret-value");
    // The same call sent again is still recognised (by its arguments' hash), not run again.
    const again = await processor.processCall({ toolId: "login", parameters, callId: "s1" });
    expect(again.status).toBe(ToolCallStatus.Completed);
    expect(await store.audit.count({ callId: "s1" })).toBe(1);
    // A denied call's row is redacted too.
    const denied = await setup(
      { policy: new ApprovalPolicy({ deny: [{ toolId: "login" }] }) },
      true,
    );
    await denied.processor.processCall({ toolId: "login", parameters, callId: "s2" });
    const [deniedRow] = (await denied.store.audit.query({ callId: "s2" })).entries;
    expect(deniedRow?.parameters).toEqual({ user: "ana", token: "[redacted]" });
  });
});

/** A Safe tool with a secret parameter. */
function secretTool(): MockTool {
  return new MockTool({
    id: "login",
    riskLevel: RiskLevel.Safe,
    schema: {
      type: "object",
      properties: {
        user: { type: "string", description: "User name" },
        token: { type: "string", description: "Access token", "x-secret": true },
      },
      required: ["user", "token"],
    },
  });
}
