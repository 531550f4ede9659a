import { describe, expect, it } from "vitest";
import { ToolErrorCode } from "../../src/core/index.js";
import {
  effectiveTimeoutMs,
  ToolExecutionEventType,
  ToolExecutionStatus,
  type ToolExecutionTimeoutNotification,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { blockingTool, collect, executorWith, recordBus, sleep, waitFor } from "./support.js";

/** A tool that stays until its signal aborts, recording the signal's reason. */
function reasonRecorder(id: string, reasons: unknown[], maxExecutionTimeMs?: number) {
  return new MockTool({
    id,
    ...(maxExecutionTimeMs === undefined ? {} : { constraints: { maxExecutionTimeMs } }),
    executeFunc: (_context, signal) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener(
          "abort",
          () => {
            reasons.push(signal.reason);
            reject(signal.reason);
          },
          { once: true },
        );
      }),
  });
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await work;
  return { value, ms: performance.now() - t0 };
}

describe("ToolExecutor: timeout and cancellation are different outcomes", () => {
  it("gives different statuses, error codes, flags, final events and notifications", async () => {
    const executor = executorWith([blockingTool("slow")]);
    const bus = recordBus(executor);

    const timedOut = await executor.execute(
      { toolName: "slow" },
      { executionId: "t", timeoutMs: 20 },
    );
    const cancelling = executor.execute({ toolName: "slow" }, { executionId: "c" });
    await waitFor(() => executor.isExecuting("c"));
    executor.cancel("c");
    const cancelled = await cancelling;

    expect([timedOut.status, cancelled.status]).toEqual([
      ToolExecutionStatus.Timeout,
      ToolExecutionStatus.Cancelled,
    ]);
    expect([timedOut.errorCode, cancelled.errorCode]).toEqual([
      ToolErrorCode.Timeout,
      ToolErrorCode.Cancelled,
    ]);
    expect([timedOut.timedOut, timedOut.wasCancelled]).toEqual([true, false]);
    expect([cancelled.timedOut, cancelled.wasCancelled]).toEqual([false, true]);
    expect((await collect(executor.observe("t"))).at(-1)?.eventType).toBe(
      ToolExecutionEventType.Timeout,
    );
    expect((await collect(executor.observe("c"))).at(-1)?.eventType).toBe(
      ToolExecutionEventType.Cancelled,
    );
    const timeouts = bus.filter((r) => r.name === "toolExecutionTimeout");
    expect(timeouts.map((r) => (r.event as ToolExecutionTimeoutNotification).executionId)).toEqual([
      "t",
    ]);
    expect(timeouts[0]?.event).toMatchObject({ timeoutMs: 20 });
    const failed = bus.filter((r) => r.name === "toolExecutionFailed").map((r) => r.event);
    expect(failed).toMatchObject([
      { executionId: "t", status: "timeout", errorCode: "Timeout" },
      { executionId: "c", status: "cancelled", errorCode: "Cancelled" },
    ]);
  });

  it("aborts the tool's signal with a TimeoutError on timeout and an AbortError on cancel", async () => {
    const reasons: unknown[] = [];
    const executor = executorWith([reasonRecorder("r", reasons)]);

    await executor.execute({ toolName: "r" }, { timeoutMs: 10 });
    const task = executor.execute({ toolName: "r" }, { executionId: "x" });
    await waitFor(() => executor.isExecuting("x"));
    executor.cancel("x");
    await task;

    expect(reasons.map((r) => (r as DOMException).name)).toEqual(["TimeoutError", "AbortError"]);
    expect(reasons.every((r) => r instanceof Error)).toBe(true);
  });

  it("reports a caller's aborted signal as a cancellation even when its reason is a TimeoutError", async () => {
    const executor = executorWith([blockingTool("slow")]);

    const result = await executor.execute({ toolName: "slow" }, {}, AbortSignal.timeout(10));

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
  });

  it("a tool that rethrows its abort reason still gets the timeout status", async () => {
    const executor = executorWith([reasonRecorder("r", [])]);

    const result = await executor.execute({ toolName: "r" }, { timeoutMs: 10 });

    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(result.mayStillBeRunning).toBe(false);
  });
});

describe("ToolExecutor: the effective timeout", () => {
  it("a per-call timeout shortens the tool's maxExecutionTimeMs", async () => {
    const executor = executorWith([reasonRecorder("r", [], 5_000)]);

    const { value, ms } = await timed(executor.execute({ toolName: "r" }, { timeoutMs: 30 }));

    expect(value.status).toBe(ToolExecutionStatus.Timeout);
    expect(ms).toBeLessThan(1_000);
    expect(value.errorMessage).toContain("timed out");
  });

  it("a per-call timeout cannot extend the tool's maxExecutionTimeMs", async () => {
    const executor = executorWith([reasonRecorder("r", [], 40)]);
    const timeouts: number[] = [];
    executor.events.on("toolExecutionTimeout", (e) => timeouts.push(e.timeoutMs));

    const { value, ms } = await timed(executor.execute({ toolName: "r" }, { timeoutMs: 60_000 }));

    expect(value.status).toBe(ToolExecutionStatus.Timeout);
    expect(ms).toBeLessThan(2_000);
    expect(timeouts).toEqual([40]);
  });

  it("the executor's default applies when neither the call nor the tool gives one", async () => {
    const executor = executorWith([reasonRecorder("r", [])], {
      options: { defaultTimeoutMs: 25 },
    });
    const timeouts: number[] = [];
    executor.events.on("toolExecutionTimeout", (e) => timeouts.push(e.timeoutMs));

    const result = await executor.execute({ toolName: "r" });

    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(timeouts).toEqual([25]);
  });

  it("the tool's own limit applies over the executor's default", async () => {
    const executor = executorWith([reasonRecorder("r", [], 20)], {
      options: { defaultTimeoutMs: 60_000 },
    });

    const { value, ms } = await timed(executor.execute({ toolName: "r" }));

    expect(value.status).toBe(ToolExecutionStatus.Timeout);
    expect(ms).toBeLessThan(2_000);
  });

  it("effectiveTimeoutMs takes the smaller limit and ignores missing, zero, negative and non-finite ones", () => {
    expect(effectiveTimeoutMs(100, 5_000, 60_000)).toBe(100);
    expect(effectiveTimeoutMs(5_000, 100, 60_000)).toBe(100);
    expect(effectiveTimeoutMs(undefined, 100, 60_000)).toBe(100);
    expect(effectiveTimeoutMs(100, undefined, 60_000)).toBe(100);
    expect(effectiveTimeoutMs(undefined, undefined, 60_000)).toBe(60_000);
    expect(effectiveTimeoutMs(0, -1, 60_000)).toBe(60_000);
    expect(effectiveTimeoutMs(Number.NaN, Number.POSITIVE_INFINITY, 7)).toBe(7);
  });
});

describe("ToolExecutor: tools that ignore their abort signal", () => {
  it("still get a timeout result on time, which says the tool may still be running", async () => {
    let finished = false;
    const stubborn = new MockTool({
      id: "stubborn",
      executeFunc: async () => {
        await sleep(400);
        finished = true;
        return ToolResult.succeeded();
      },
    });
    const executor = executorWith([stubborn]);

    const { value, ms } = await timed(
      executor.execute({ toolName: "stubborn" }, { timeoutMs: 30 }),
    );

    expect(value.status).toBe(ToolExecutionStatus.Timeout);
    expect(value.mayStillBeRunning).toBe(true);
    expect(value.result.metadata?.mayStillBeRunning).toBe(true);
    expect(value.errorMessage).toContain("may still be running");
    expect(ms).toBeLessThan(250);
    expect(finished).toBe(false);
    await waitFor(() => finished);
  });

  it("still get a cancelled result at once when cancelled, which says the tool may still be running", async () => {
    const executor = executorWith([MockTool.ignoringSignal("stubborn", 300)]);

    const task = executor.execute({ toolName: "stubborn" }, { executionId: "s" });
    await waitFor(() => executor.isExecuting("s"));
    const t0 = performance.now();
    executor.cancel("s");
    const result = await task;

    expect(performance.now() - t0).toBeLessThan(150);
    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(result.mayStillBeRunning).toBe(true);
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
    expect(result.errorMessage).toContain("may still be running");
    await sleep(320);
  });

  it("a cooperative tool is reported as stopped", async () => {
    const executor = executorWith([MockTool.delayed("polite", 10_000)]);

    const result = await executor.execute({ toolName: "polite" }, { timeoutMs: 10 });

    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(result.mayStillBeRunning).toBe(false);
    expect(result.errorMessage).not.toContain("may still be running");
  });
});

describe("ToolExecutor: cancellation at each stage", () => {
  it("cancels through the signal passed to execute(input, options, signal)", async () => {
    const executor = executorWith([blockingTool("slow")]);
    const controller = new AbortController();

    const task = executor.execute({ toolName: "slow" }, {}, controller.signal);
    setTimeout(() => controller.abort(), 10);

    expect((await task).status).toBe(ToolExecutionStatus.Cancelled);
  });

  it("cancels a run waiting for a concurrency slot without ever running it", async () => {
    const slow = blockingTool("slow");
    const quick = MockTool.succeeding("quick");
    const executor = executorWith([slow, quick], { options: { maxConcurrentExecutions: 1 } });

    const holder = executor.execute({ toolName: "slow" }, { executionId: "holder" });
    const queued = executor.execute({ toolName: "quick" }, { executionId: "queued" });
    await waitFor(() => executor.isExecuting("queued"));
    await sleep(5);
    expect(executor.cancel("queued")).toBe(true);
    const result = await queued;
    executor.cancel("holder");
    await holder;

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(quick.executeCallCount).toBe(0);
  });

  it("ends the observation of a cancelled run with its Cancelled event", async () => {
    const executor = executorWith([blockingTool("slow")]);

    const task = executor.execute({ toolName: "slow" }, { executionId: "obs" });
    const events = collect(executor.observe("obs"));
    setTimeout(() => executor.cancel("obs"), 5);
    await task;

    const final = (await events).at(-1);
    expect(final?.eventType).toBe(ToolExecutionEventType.Cancelled);
    expect(final?.data).toEqual({ status: "cancelled", errorCode: "Cancelled" });
  });

  it("clears the timeout timer of every finished execution", async () => {
    const executor = executorWith([MockTool.succeeding("fast")], {
      options: { defaultTimeoutMs: 600_000 },
    });
    const before = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;

    for (let i = 0; i < 50; i++) await executor.execute({ toolName: "fast" });

    const after = process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    expect(after).toBeLessThanOrEqual(before);
  });
});
