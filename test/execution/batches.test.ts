import { describe, expect, it } from "vitest";
import type { ToolExecutionContext } from "../../src/context/index.js";
import { ToolErrorCode } from "../../src/core/index.js";
import {
  type BatchExecutionCompletedNotification,
  type BatchExecutionStartedNotification,
  type LicenseContext,
  LicenseTier,
  maxParallelismForTier,
  staticLicense,
  ToolExecutionError,
  type ToolInput,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { blockingTool, executorWith, gatedTool, sleep, waitFor } from "./support.js";

function counter() {
  return { inFlight: 0, maxInFlight: 0, started: 0 };
}

/** A tool that records the order its runs start and end in, taking `ms` of its `n` parameter. */
function orderTool(log: string[]) {
  return new MockTool({
    id: "step",
    executeFunc: async (context: ToolExecutionContext) => {
      const n = context.parameters.n as number;
      log.push(`start ${n}`);
      await sleep((context.parameters.ms as number | undefined) ?? 1);
      log.push(`end ${n}`);
      return ToolResult.succeeded(n);
    },
  });
}

const steps = (count: number, ms?: (n: number) => number): ToolInput[] =>
  Array.from({ length: count }, (_, i) => ({
    toolName: "step",
    parameters: { n: i + 1, ...(ms === undefined ? {} : { ms: ms(i + 1) }) },
  }));

describe("ToolExecutor.executeBatch: sequential batches", () => {
  it("runs items one after another in input order and returns results in input order", async () => {
    const log: string[] = [];
    const executor = executorWith([orderTool(log)]);

    const results = await executor.executeBatch(steps(3));

    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2", "start 3", "end 3"]);
    expect(results.map((r) => r.result.data)).toEqual([1, 2, 3]);
  });

  it("gives each item its own execution id and all of them the batch id", async () => {
    const executor = executorWith([MockTool.succeeding("t")]);
    const inputs = Array.from({ length: 4 }, () => ({ toolName: "t" }));

    const named = await executor.executeBatch(inputs, { executionId: "batch-7" });
    const unnamed = await executor.executeBatch(inputs);

    expect(new Set(named.map((r) => r.executionId)).size).toBe(4);
    expect(named.map((r) => r.executionId)).not.toContain("batch-7");
    expect(named.every((r) => r.batchId === "batch-7")).toBe(true);
    expect(new Set(unnamed.map((r) => r.batchId)).size).toBe(1);
    expect(unnamed[0]?.batchId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("keeps going after a failure by default", async () => {
    const executor = executorWith([MockTool.succeeding("ok"), MockTool.failing("bad")]);

    const results = await executor.executeBatch([
      { toolName: "ok" },
      { toolName: "bad" },
      { toolName: "ok" },
    ]);

    expect(results.map((r) => r.status)).toEqual(["completed", "failed", "completed"]);
  });

  it("with continueOnFailure false, stops at the first failure and reports the rest as NotRun", async () => {
    const ok = MockTool.succeeding("ok");
    const executor = executorWith([ok, MockTool.failing("bad")]);

    const results = await executor.executeBatch(
      [{ toolName: "ok" }, { toolName: "bad" }, { toolName: "ok" }, { toolName: "ok" }],
      { continueOnFailure: false, executionId: "b" },
    );

    expect(results.map((r) => r.status)).toEqual(["completed", "failed", "cancelled", "cancelled"]);
    expect(ok.executeCallCount).toBe(1);
    const notRun = results[2]!;
    expect(notRun.errorCode).toBe(ToolErrorCode.NotRun);
    expect(notRun.wasCancelled).toBe(true);
    expect(notRun.batchId).toBe("b");
    expect(notRun.input).toEqual({ toolName: "ok" });
    expect(notRun.errorMessage).toBe(
      "Not run: an earlier call ('bad') ended with status failed and continueOnFailure is false.",
    );
    expect(new Set(results.map((r) => r.executionId)).size).toBe(4);
  });

  it("counts any status but completed as a failure for continueOnFailure", async () => {
    const executor = executorWith([MockTool.succeeding("ok")]);

    const results = await executor.executeBatch([{ toolName: "missing" }, { toolName: "ok" }], {
      continueOnFailure: false,
    });

    expect(results.map((r) => r.errorCode)).toEqual([
      ToolErrorCode.ToolNotFound,
      ToolErrorCode.NotRun,
    ]);
  });

  it("cancelling the batch cancels the running item and skips the pending ones", async () => {
    const first = MockTool.succeeding("first");
    const executor = executorWith([first, blockingTool("slow"), MockTool.succeeding("after")]);
    const controller = new AbortController();
    let slowStarted = false;
    executor.events.on("executionEvent", (e) => {
      if (e.toolName === "slow" && e.eventType === "InProgress") slowStarted = true;
    });

    const task = executor.executeBatch(
      [{ toolName: "first" }, { toolName: "slow" }, { toolName: "after" }, { toolName: "after" }],
      {},
      controller.signal,
    );
    await waitFor(() => slowStarted);
    controller.abort();
    const results = await task;

    expect(results.map((r) => r.status)).toEqual([
      "completed",
      "cancelled",
      "cancelled",
      "cancelled",
    ]);
    expect(results[1]?.errorCode).toBe(ToolErrorCode.Cancelled);
    expect(results.slice(2).map((r) => r.errorCode)).toEqual([
      ToolErrorCode.NotRun,
      ToolErrorCode.NotRun,
    ]);
    expect(results[2]?.errorMessage).toBe("Not run: the batch was cancelled.");
  });

  it("returns NotRun for every item of a batch whose signal is already aborted", async () => {
    const tool = MockTool.succeeding("t");
    const executor = executorWith([tool]);

    const results = await executor.executeBatch(
      [{ toolName: "t" }, { toolName: "t" }],
      {},
      AbortSignal.abort(),
    );

    expect(results.map((r) => r.errorCode)).toEqual([ToolErrorCode.NotRun, ToolErrorCode.NotRun]);
    expect(tool.executeCallCount).toBe(0);
  });

  it("accepts an empty batch", async () => {
    const executor = executorWith([]);
    const completed: BatchExecutionCompletedNotification[] = [];
    executor.events.on("batchExecutionCompleted", (e) => completed.push(e));

    expect(await executor.executeBatch([])).toEqual([]);
    expect(completed[0]).toMatchObject({ totalCount: 0, successCount: 0, failedCount: 0 });
  });

  it("throws ToolExecutionError for inputs that are not an array", async () => {
    const executor = executorWith([]);

    await expect(executor.executeBatch("nope" as unknown as ToolInput[])).rejects.toThrow(
      ToolExecutionError,
    );
  });
});

describe("ToolExecutor.executeBatch: parallel batches and license tiers", () => {
  it("runs in parallel on Teams with at most min(maxParallelism, 10) in flight", async () => {
    for (const [maxParallelism, expected] of [
      [3, 3],
      [25, 10],
    ] as const) {
      const count = counter();
      const executor = executorWith([gatedTool("g", () => sleep(15), count)], {
        license: staticLicense(LicenseTier.Teams),
        options: { maxConcurrentExecutions: 64 },
      });
      await executor.executeBatch(
        Array.from({ length: 30 }, () => ({ toolName: "g" })),
        { allowParallel: true, maxParallelism },
      );
      expect(count.maxInFlight).toBe(expected);
    }
  });

  it("runs in parallel on Enterprise with at most twice the cores in flight", async () => {
    const count = counter();
    const executor = executorWith([gatedTool("g", () => sleep(15), count)], {
      license: staticLicense(LicenseTier.Enterprise),
      options: { maxConcurrentExecutions: 256 },
    });
    const limit = maxParallelismForTier(LicenseTier.Enterprise);

    await executor.executeBatch(
      Array.from({ length: limit * 3 }, () => ({ toolName: "g" })),
      { allowParallel: true, maxParallelism: 1_000 },
    );

    expect(count.maxInFlight).toBe(limit);
  });

  it("falls back to sequential on Core and WriterPro even when allowParallel is set", async () => {
    for (const tier of [LicenseTier.Core, LicenseTier.WriterPro]) {
      const count = counter();
      const executor = executorWith([gatedTool("g", () => sleep(3), count)], {
        license: staticLicense(tier),
        options: { maxConcurrentExecutions: 64 },
      });
      const started: BatchExecutionStartedNotification[] = [];
      executor.events.on("batchExecutionStarted", (e) => started.push(e));

      await executor.executeBatch(
        Array.from({ length: 5 }, () => ({ toolName: "g" })),
        { allowParallel: true, maxParallelism: 5 },
      );

      expect(count.maxInFlight).toBe(1);
      expect(started[0]?.isParallel).toBe(false);
    }
  });

  it("stays sequential on Teams unless allowParallel is set", async () => {
    const count = counter();
    const executor = executorWith([gatedTool("g", () => sleep(3), count)], {
      license: staticLicense(LicenseTier.Teams),
    });

    await executor.executeBatch(
      Array.from({ length: 4 }, () => ({ toolName: "g" })),
      {
        maxParallelism: 4,
      },
    );

    expect(count.maxInFlight).toBe(1);
  });

  it("returns a parallel batch's results in input order even when items finish out of order", async () => {
    const log: string[] = [];
    const executor = executorWith([orderTool(log)], {
      license: staticLicense(LicenseTier.Teams),
      options: { maxConcurrentExecutions: 10 },
    });

    // 100 ms apart: a loaded CI machine once started them far enough apart to swap two 10 ms ones.
    const results = await executor.executeBatch(
      steps(4, (n) => 400 - n * 100),
      { allowParallel: true, maxParallelism: 4 },
    );

    expect(log.filter((l) => l.startsWith("end"))).toEqual(["end 4", "end 3", "end 2", "end 1"]);
    expect(results.map((r) => r.result.data)).toEqual([1, 2, 3, 4]);
  });

  it("stops starting new items of a parallel batch after a failure when continueOnFailure is false", async () => {
    const ok = new MockTool({
      id: "ok",
      executeFunc: async () => {
        await sleep(20);
        return ToolResult.succeeded();
      },
    });
    const executor = executorWith([ok, MockTool.failing("bad")], {
      license: staticLicense(LicenseTier.Teams),
      options: { maxConcurrentExecutions: 10 },
    });

    const results = await executor.executeBatch(
      [{ toolName: "bad" }, { toolName: "ok" }, { toolName: "ok" }, { toolName: "ok" }],
      { allowParallel: true, maxParallelism: 2, continueOnFailure: false },
    );

    expect(results[0]?.status).toBe("failed");
    expect(results[1]?.status).toBe("completed");
    expect(results.slice(2).map((r) => r.errorCode)).toEqual([
      ToolErrorCode.NotRun,
      ToolErrorCode.NotRun,
    ]);
    expect(ok.executeCallCount).toBe(1);
  });

  it("cancelling a parallel batch cancels every running item and skips the pending ones", async () => {
    const executor = executorWith([blockingTool("slow")], {
      license: staticLicense(LicenseTier.Teams),
      options: { maxConcurrentExecutions: 10 },
    });
    const controller = new AbortController();
    let running = 0;
    executor.events.on("executionEvent", (e) => {
      if (e.eventType === "InProgress") running++;
    });

    const task = executor.executeBatch(
      Array.from({ length: 6 }, () => ({ toolName: "slow" })),
      { allowParallel: true, maxParallelism: 3 },
      controller.signal,
    );
    await waitFor(() => running === 3);
    controller.abort();
    const results = await task;

    expect(results.slice(0, 3).map((r) => r.errorCode)).toEqual([
      "Cancelled",
      "Cancelled",
      "Cancelled",
    ]);
    expect(results.slice(3).map((r) => r.errorCode)).toEqual(["NotRun", "NotRun", "NotRun"]);
  });

  it("limits batch sizes by tier (5, 20, 50, unlimited), naming both numbers when over", async () => {
    for (const [tier, limit, name] of [
      [LicenseTier.Core, 5, "Core"],
      [LicenseTier.WriterPro, 20, "WriterPro"],
      [LicenseTier.Teams, 50, "Teams"],
    ] as const) {
      const executor = executorWith([MockTool.succeeding("t")], { license: staticLicense(tier) });
      const at = Array.from({ length: limit }, () => ({ toolName: "t" }));

      expect(await executor.executeBatch(at)).toHaveLength(limit);
      const over = executor.executeBatch([...at, { toolName: "t" }]);
      await expect(over).rejects.toThrow(ToolExecutionError);
      await expect(over).rejects.toMatchObject({
        code: "BATCH_TOO_LARGE",
        message: `Batch size (${limit + 1}) exceeds limit (${limit}) for ${name} tier.`,
      });
    }
    const enterprise = executorWith([MockTool.succeeding("t")], {
      license: staticLicense(LicenseTier.Enterprise),
      options: { maxConcurrentExecutions: 16 },
    });
    const big = Array.from({ length: 200 }, () => ({ toolName: "t" }));
    expect(
      await enterprise.executeBatch(big, { allowParallel: true, maxParallelism: 8 }),
    ).toHaveLength(200);
  });

  it("reads the tier from the license context at each batch", async () => {
    let tier: LicenseTier = LicenseTier.Core;
    const license: LicenseContext = {
      get currentTier() {
        return tier;
      },
    };
    const executor = executorWith([MockTool.succeeding("t")], { license });
    const six = Array.from({ length: 6 }, () => ({ toolName: "t" }));

    await expect(executor.executeBatch(six)).rejects.toThrow(/limit \(5\)/);
    tier = LicenseTier.WriterPro;
    expect(await executor.executeBatch(six)).toHaveLength(6);
  });

  it("emits BatchExecutionStarted and BatchExecutionCompleted with the batch id and counts", async () => {
    const executor = executorWith([MockTool.succeeding("ok"), MockTool.failing("bad")], {
      license: staticLicense(LicenseTier.Teams),
    });
    const started: BatchExecutionStartedNotification[] = [];
    const completed: BatchExecutionCompletedNotification[] = [];
    executor.events.on("batchExecutionStarted", (e) => started.push(e));
    executor.events.on("batchExecutionCompleted", (e) => completed.push(e));

    await executor.executeBatch([{ toolName: "ok" }, { toolName: "bad" }, { toolName: "ok" }], {
      executionId: "b9",
      allowParallel: true,
      maxParallelism: 2,
    });

    expect(started).toEqual([
      { batchId: "b9", toolCount: 3, isParallel: true, timestamp: expect.any(Date) },
    ]);
    expect(completed).toEqual([
      {
        batchId: "b9",
        totalCount: 3,
        successCount: 2,
        failedCount: 1,
        timestamp: expect.any(Date),
      },
    ]);
  });
});
