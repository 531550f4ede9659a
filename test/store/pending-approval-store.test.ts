import { describe, expect, it } from "vitest";
import { ApprovalDecision, ToolCallRequest } from "../../src/calls/index.js";
import {
  ConsoleApprovalHandler,
  type NewPendingApproval,
  PendingApprovalStatus,
} from "../../src/console/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { StoreClosedError } from "../../src/store/index.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

function pending(callKey: string, overrides: Partial<NewPendingApproval> = {}): NewPendingApproval {
  return {
    callKey,
    requestId: `req-${callKey}`,
    argumentsHash: "hash-1",
    sessionId: "s-1",
    request: {
      id: `req-${callKey}`,
      toolId: "file-write",
      toolName: "Write File",
      parameters: { path: "a.txt", content: "x" },
      riskLevel: RiskLevel.Medium,
      executionSummary: "Write 1 byte",
      warnings: [],
      requestedAt: new Date(),
    },
    details: { reason: "Medium Risk calls need approval", round: 1 },
    expiresAt: new Date(Date.now() + 60_000),
    ...overrides,
  };
}

function request(callId: string, parameters = { line: "a" }): ToolCallRequest {
  return new ToolCallRequest({
    providerCallId: callId,
    toolId: "append-line",
    toolName: "Append line",
    parameters,
    riskLevel: RiskLevel.Medium,
  });
}

describe.each(storeTargets)("store.approvals and store.executions on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("records a pending approval and returns the same row when the same call asks again", async () => {
    const store = await target.place().open();
    const first = await store.approvals.open(pending("call-1"));
    expect(first.status).toBe(PendingApprovalStatus.Pending);
    expect(first.request.parameters).toEqual({ path: "a.txt", content: "x" });
    expect(first.request.requestedAt).toBeInstanceOf(Date);
    const again = await store.approvals.open(pending("call-1", { requestId: "req-new" }));
    expect(again.id).toBe(first.id);
    expect(again.requestId).toBe("req-new");
    const other = await store.approvals.open(pending("call-1", { argumentsHash: "hash-2" }));
    expect(other.id).not.toBe(first.id);
    expect(await store.approvals.list({ status: PendingApprovalStatus.Pending })).toHaveLength(2);
  });

  it("decides once, refuses a second decision, and lets exactly one asker claim it", async () => {
    const store = await target.place().open();
    const row = await store.approvals.open(pending("call-2"));
    const decided = await store.approvals.decide(row.id, { approved: false, reason: "no" }, "ada");
    expect(decided.ok).toBe(true);
    expect(decided.approval?.decidedBy).toBe("ada");
    expect(decided.approval?.decision?.reason).toBe("no");
    const second = await store.approvals.decide(row.id, { approved: true }, "bob");
    expect(second.ok).toBe(false);
    expect(second.problem).toContain("already denied");
    const claims = await Promise.all([
      store.approvals.claim(row.id),
      store.approvals.claim(row.id),
    ]);
    expect(claims.filter((c) => c)).toHaveLength(1);
    expect((await store.approvals.get(row.id))?.appliedAt).toBeInstanceOf(Date);
  });

  it("refuses to decide an approval past its expiry and marks it expired", async () => {
    const store = await target.place().open();
    const row = await store.approvals.open(
      pending("call-3", { expiresAt: new Date(Date.now() - 1) }),
    );
    const result = await store.approvals.decide(row.id, { approved: true }, "ada");
    expect(result.ok).toBe(false);
    expect((await store.approvals.get(row.id))?.status).toBe(PendingApprovalStatus.Expired);
    expect(await store.approvals.decide("no-such-id", { approved: true }, "ada")).toMatchObject({
      ok: false,
    });
  });

  it("keeps call keys and reasons a model wrote exactly, NUL and lone surrogates included", async () => {
    const store = await target.place().open();
    const key = "call\u0000\ud800<script>";
    const row = await store.approvals.open(pending(key));
    const [listed] = await store.approvals.list({ callKey: key });
    expect(listed?.id).toBe(row.id);
    const decided = await store.approvals.decide(
      row.id,
      { approved: false, reason: "bad \u0000 <img onerror=x>" },
      "ada",
    );
    expect(decided.approval?.decision?.reason).toBe("bad \u0000 <img onerror=x>");
  });

  it("wakes a handler waiting in one store when another store on the same database decides", async () => {
    const place = target.place();
    const agent = await place.open();
    const consoleSide = await place.open();
    const handler = new ConsoleApprovalHandler({ approvals: agent.approvals, sessionId: "s-1" });
    const call = request("call-4");
    const waiting = handler.requestApproval(call, new AbortController().signal);
    let row = undefined as { id: string } | undefined;
    while (row === undefined) {
      [row] = await consoleSide.approvals.list({ callKey: "call-4" });
      await new Promise((r) => setTimeout(r, 10));
    }
    await consoleSide.approvals.decide(
      row.id,
      {
        approved: true,
        rememberForTool: true,
        rememberPattern: "src/**",
        modifiedParameters: { line: "b" },
      },
      "ada",
    );
    const decision = await waiting;
    expect(decision).toBeInstanceOf(ApprovalDecision);
    expect(decision.approved).toBe(true);
    expect(decision.rememberForTool).toBe(true);
    expect(decision.rememberPattern).toBe("src/**");
    expect(decision.modifiedParameters).toEqual({ line: "b" });
    expect(decision.mismatch(call)).toBeUndefined();
  });

  it("denies as timed out after the handler's timeout, and expires the row when the caller gives up", async () => {
    const store = await target.place().open();
    const handler = new ConsoleApprovalHandler({ approvals: store.approvals, timeoutMs: 50 });
    const timedOut = await handler.requestApproval(request("call-5"), new AbortController().signal);
    expect(timedOut.approved).toBe(false);
    expect(timedOut.reason).toBe("Approval request timed out");
    const [expired] = await store.approvals.list({ callKey: "call-5" });
    expect(expired?.status).toBe(PendingApprovalStatus.Expired);

    const controller = new AbortController();
    const waiting = new ConsoleApprovalHandler({ approvals: store.approvals }).requestApproval(
      request("call-6"),
      controller.signal,
    );
    while ((await store.approvals.list({ callKey: "call-6" })).length === 0) {
      await new Promise((r) => setTimeout(r, 10));
    }
    controller.abort();
    expect((await waiting).approved).toBe(false);
    expect((await store.approvals.list({ callKey: "call-6" }))[0]?.status).toBe(
      PendingApprovalStatus.Expired,
    );
  });

  it("lists running executions with their progress, records a cancel request for the owner, and hides finished ones", async () => {
    const place = target.place();
    const agent = await place.open();
    const consoleSide = await place.open();
    await agent.executions.start({
      executionId: "e-1",
      toolId: "t",
      toolName: "T",
      startedAt: new Date(),
    });
    await agent.executions.progress("e-1", 140, "almost");
    const [running] = await consoleSide.executions.list();
    expect(running).toMatchObject({ executionId: "e-1", percent: 100, message: "almost" });
    expect(await consoleSide.executions.requestCancel("e-1", "ada")).toBe(true);
    expect(await consoleSide.executions.cancelRequests()).toEqual([]);
    expect(await agent.executions.cancelRequests()).toEqual(["e-1"]);
    await agent.executions.finish("e-1");
    expect(await consoleSide.executions.list()).toEqual([]);
    expect(await consoleSide.executions.requestCancel("e-1", "ada")).toBe(false);
  });

  it("throws StoreClosedError after close", async () => {
    const store = await target.place().open();
    await store.close();
    await expect(store.approvals.list()).rejects.toBeInstanceOf(StoreClosedError);
    await expect(store.executions.list()).rejects.toBeInstanceOf(StoreClosedError);
  });
});
