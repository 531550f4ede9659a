import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ToolErrorCode } from "../../src/core/index.js";
import {
  ConcurrencyLimitError,
  ConcurrencyLimiter,
  defaultMaxConcurrentExecutions,
  LicenseTier,
  resolveExecutorOptions,
  staticLicense,
  ToolExecutionStatus,
} from "../../src/execution/index.js";
import { deferred, executorWith, gatedTool, nextTurn, sleep, waitFor } from "./support.js";

function counter() {
  return { inFlight: 0, maxInFlight: 0, started: 0 };
}

describe("ToolExecutor: the maxConcurrentExecutions bulkhead", () => {
  it("never has more than maxConcurrentExecutions tool runs in flight, and runs them all", async () => {
    const count = counter();
    const executor = executorWith([gatedTool("g", () => sleep(5), count)], {
      options: { maxConcurrentExecutions: 3 },
    });

    const results = await Promise.all(
      Array.from({ length: 20 }, () => executor.execute({ toolName: "g" })),
    );

    expect(results.every((r) => r.status === ToolExecutionStatus.Completed)).toBe(true);
    expect(count.started).toBe(20);
    expect(count.maxInFlight).toBe(3);
  });

  it("defaults to 3 concurrent runs on Core, as spec 001 has it", async () => {
    const count = counter();
    const executor = executorWith([gatedTool("g", () => sleep(5), count)], {
      license: staticLicense(LicenseTier.Core),
    });

    await Promise.all(Array.from({ length: 9 }, () => executor.execute({ toolName: "g" })));

    expect(executor.options.maxConcurrentExecutions).toBe(3);
    expect(count.maxInFlight).toBe(3);
  });

  it("defaults to the widest parallelism the license allows: 10 on Teams, at least 10 without a license", () => {
    const cores = availableParallelism();
    const bulkhead = (config: Parameters<typeof executorWith>[1]) =>
      executorWith([], config).options.maxConcurrentExecutions;
    expect(bulkhead({ license: staticLicense(LicenseTier.WriterPro) })).toBe(3);
    expect(bulkhead({ license: staticLicense(LicenseTier.Teams) })).toBe(10);
    expect(bulkhead({ license: staticLicense(LicenseTier.Enterprise) })).toBe(
      Math.max(10, 2 * cores),
    );
    expect(bulkhead({})).toBe(Math.max(10, 2 * cores));
    expect(defaultMaxConcurrentExecutions(LicenseTier.Core)).toBe(3);
    // An explicit setting always wins.
    expect(bulkhead({ options: { maxConcurrentExecutions: 2 } })).toBe(2);
  });

  it("refuses a run with ConcurrencyLimit when the slots and the queue are full", async () => {
    const gate = deferred();
    const count = counter();
    const executor = executorWith([gatedTool("g", () => gate.promise, count)], {
      options: { maxConcurrentExecutions: 1, maxQueuedExecutions: 1 },
    });

    const running = executor.execute({ toolName: "g" });
    const queued = executor.execute({ toolName: "g" });
    await waitFor(() => count.started === 1);
    const refused = await executor.execute({ toolName: "g" });
    gate.resolve();

    expect(refused.status).toBe(ToolExecutionStatus.Failed);
    expect(refused.errorCode).toBe(ToolErrorCode.ConcurrencyLimit);
    expect(refused.errorMessage).toContain("1 running and 1 waiting");
    expect((await running).status).toBe(ToolExecutionStatus.Completed);
    expect((await queued).status).toBe(ToolExecutionStatus.Completed);
    expect(count.started).toBe(2);
  });

  it("completes a parallel batch bigger than the bulkhead without deadlock", async () => {
    const count = counter();
    const executor = executorWith([gatedTool("g", () => sleep(2), count)], {
      license: staticLicense(LicenseTier.Teams),
      options: { maxConcurrentExecutions: 2 },
    });
    const inputs = Array.from({ length: 30 }, () => ({ toolName: "g" }));

    const results = await executor.executeBatch(inputs, {
      allowParallel: true,
      maxParallelism: 10,
    });

    expect(results).toHaveLength(30);
    expect(results.every((r) => r.status === ToolExecutionStatus.Completed)).toBe(true);
    expect(count.maxInFlight).toBe(2);
  });

  it("completes two parallel batches at once through a bulkhead of one", async () => {
    const count = counter();
    const executor = executorWith([gatedTool("g", () => sleep(1), count)], {
      license: staticLicense(LicenseTier.Enterprise),
      options: { maxConcurrentExecutions: 1 },
    });
    const inputs = Array.from({ length: 12 }, () => ({ toolName: "g" }));
    const options = { allowParallel: true, maxParallelism: 6 };

    const [a, b] = await Promise.all([
      executor.executeBatch(inputs, options),
      executor.executeBatch(inputs, options),
    ]);

    expect([...a, ...b].every((r) => r.status === ToolExecutionStatus.Completed)).toBe(true);
    expect(count.maxInFlight).toBe(1);
  });

  it("rejects option values that make no sense", () => {
    expect(() => resolveExecutorOptions({ maxConcurrentExecutions: 0 })).toThrow(RangeError);
    expect(() => resolveExecutorOptions({ defaultTimeoutMs: -1 })).toThrow(/defaultTimeoutMs/);
    expect(() => resolveExecutorOptions({ maxQueuedExecutions: -1 })).toThrow(RangeError);
    expect(() => resolveExecutorOptions({ retainFinishedExecutions: Number.NaN })).toThrow(
      RangeError,
    );
    expect(resolveExecutorOptions()).toEqual({
      defaultTimeoutMs: 60_000,
      maxConcurrentExecutions: 3,
      maxQueuedExecutions: 1_000,
      logParameters: false,
      logResults: true,
      retainFinishedExecutions: 1_000,
    });
  });
});

describe("ConcurrencyLimiter", () => {
  it("holds a free slot at once, without a promise", () => {
    const limiter = new ConcurrencyLimiter(2, 10);

    expect(limiter.acquire()).toBeUndefined();
    expect(limiter.acquire()).toBeUndefined();
    expect(limiter.active).toBe(2);
  });

  it("hands released slots to waiters first come, first served", async () => {
    const limiter = new ConcurrencyLimiter(1, 10);
    const order: number[] = [];
    limiter.acquire();

    const waits = [1, 2, 3].map((n) => limiter.acquire()?.then(() => order.push(n)));
    expect(limiter.waiting).toBe(3);
    limiter.release();
    await nextTurn();
    limiter.release();
    await nextTurn();
    limiter.release();
    await Promise.all(waits);
    limiter.release();

    expect(order).toEqual([1, 2, 3]);
    expect(limiter.active).toBe(0);
    expect(limiter.waiting).toBe(0);
  });

  it("rejects a full queue with ConcurrencyLimitError", async () => {
    const limiter = new ConcurrencyLimiter(1, 0);
    limiter.acquire();

    await expect(limiter.acquire()).rejects.toBeInstanceOf(ConcurrencyLimitError);
  });

  it("drops a waiter whose signal aborts, rejecting with the signal's reason", async () => {
    const limiter = new ConcurrencyLimiter(1, 10);
    limiter.acquire();
    const controller = new AbortController();

    const waiting = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    controller.abort(new Error("gone"));

    await expect(waiting).rejects.toThrow("gone");
    expect(limiter.waiting).toBe(1);
    limiter.release();
    await next;
    expect(limiter.active).toBe(1);
  });

  it("rejects at once for a signal that is already aborted", async () => {
    const limiter = new ConcurrencyLimiter(1, 10);

    await expect(limiter.acquire(AbortSignal.abort("stop"))).rejects.toBe("stop");
    expect(limiter.active).toBe(0);
  });

  it("removes its abort listener from a waiter that gets a slot", async () => {
    const limiter = new ConcurrencyLimiter(1, 10);
    limiter.acquire();
    const controller = new AbortController();
    let removed = 0;
    const remove = controller.signal.removeEventListener.bind(controller.signal);
    controller.signal.removeEventListener = ((...args: Parameters<typeof remove>) => {
      removed++;
      remove(...args);
    }) as typeof remove;

    const waiting = limiter.acquire(controller.signal);
    limiter.release();
    await waiting;
    controller.abort();

    expect(removed).toBe(1);
    expect(limiter.active).toBe(1);
  });
});
