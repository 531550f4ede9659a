import { describe, expect, it } from "vitest";
import {
  ApprovalDecision,
  ToolCallBatch,
  ToolCallLifecycle,
  ToolCallRequest,
} from "../../src/calls/index.js";
import { ToolResult } from "../../src/result/index.js";

function calls(n: number): ToolCallRequest[] {
  return Array.from({ length: n }, (_, i) =>
    ToolCallRequest.create(`tool-${i}`, `Tool ${i}`, {}, 1),
  );
}

function runToEnd(lifecycle: ToolCallLifecycle, result: ToolResult): void {
  lifecycle.startValidation();
  lifecycle.approve();
  lifecycle.startExecution();
  lifecycle.complete(result);
}

describe("ToolCallBatch", () => {
  it("ToolCallBatch_AllCompleted_TrueWhenAllTerminal: only once every call is terminal", () => {
    const batch = ToolCallBatch.multiple(calls(3), 2);
    expect(batch.allCompleted).toBe(false); // no lifecycles yet: all pending
    batch.initializeLifecycles();
    const [a, b, c] = batch.calls.map((call) => batch.getLifecycle(call)!);
    runToEnd(a!, ToolResult.succeeded());
    b!.startValidation();
    b!.failValidation("bad path");
    expect(batch.allCompleted).toBe(false);
    expect(batch.hasPending).toBe(true);
    c!.cancel();
    expect(batch.allCompleted).toBe(true);
    expect(batch.hasPending).toBe(false);
    expect(batch.toString()).toBe("ToolCallBatch(3 calls, Parallel=true, Completed=true)");
  });

  it("ToolCallBatch_SuccessCount_CountsCorrectly: counts successful completions", () => {
    const batch = ToolCallBatch.multiple(calls(5), 1);
    batch.initializeLifecycles();
    const [ok1, ok2, failedResult, failed, denied] = batch.calls.map(
      (call) => batch.getLifecycle(call.id)!,
    );
    runToEnd(ok1!, ToolResult.succeeded(1));
    runToEnd(ok2!, ToolResult.succeeded(2));
    runToEnd(failedResult!, ToolResult.failed("not found"));
    failed!.startValidation();
    failed!.approve();
    failed!.startExecution();
    failed!.timeout();
    denied!.startValidation();
    denied!.requestApproval();
    denied!.deny(ApprovalDecision.deny("no"));

    expect(batch.successCount).toBe(2);
    expect(batch.failureCount).toBe(1);
    expect(batch.deniedCount).toBe(1);
    expect(batch.results.map((r) => r.data)).toEqual([1, 2, undefined]);
  });

  it("creates single and multiple batches", () => {
    const [one] = calls(1);
    const single = ToolCallBatch.single(one!, 7);
    expect(single.isSingleCall).toBe(true);
    expect(single.isParallel).toBe(false);
    expect(single.iterationNumber).toBe(7);
    expect(single.count).toBe(1);
    expect(single.batchId).not.toBe(ToolCallBatch.single(one!, 7).batchId);
    expect(ToolCallBatch.multiple(calls(2), 1, false).isParallel).toBe(false);
    const empty = new ToolCallBatch({ calls: [] });
    expect(empty.allCompleted).toBe(true);
    expect(empty.iterationNumber).toBe(0);
  });

  it("measures its duration from creation to complete()", () => {
    const times = ["2025-01-01T00:00:00.000Z", "2025-01-01T00:00:02.500Z"];
    let i = 0;
    const batch = ToolCallBatch.multiple(calls(2), 1, true, () => new Date(times[i++]!));
    expect(batch.totalDurationMs).toBeUndefined();
    expect(batch.completedAt).toBeUndefined();
    batch.complete();
    expect(batch.totalDurationMs).toBe(2500);
    expect(batch.completedAt).toEqual(new Date(times[1]!));
  });

  it("initializes lifecycles once, keyed by request id, without replacing existing ones", () => {
    const batch = ToolCallBatch.multiple(calls(2), 1);
    batch.initializeLifecycles();
    const first = batch.getLifecycle(batch.calls[0]!)!;
    first.startValidation();
    batch.initializeLifecycles();
    expect(batch.getLifecycle(batch.calls[0]!)).toBe(first);
    expect([...batch.lifecycles.keys()]).toEqual(batch.calls.map((c) => c.id));
    expect(batch.getLifecycle("not-a-call")).toBeUndefined();
  });

  it("accepts a restored lifecycle for one of its calls only", () => {
    const batch = ToolCallBatch.single(calls(1)[0]!, 1);
    const restored = ToolCallLifecycle.fromRecord(
      ToolCallLifecycle.forRequest(batch.calls[0]!).toRecord(),
    );
    batch.setLifecycle(restored);
    expect(batch.getLifecycle(batch.calls[0]!)).toBe(restored);
    const stranger = ToolCallLifecycle.forRequest(calls(1)[0]!);
    expect(() => batch.setLifecycle(stranger)).toThrow(
      expect.objectContaining({ code: "UNKNOWN_TOOL_CALL" }),
    );
  });

  it("keeps a frozen copy of its call list", () => {
    const list = calls(2);
    const batch = new ToolCallBatch({ calls: list, iterationNumber: 3, isParallel: true });
    list.pop();
    expect(batch.count).toBe(2);
    expect(Object.isFrozen(batch.calls)).toBe(true);
  });
});
