import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import {
  canExecuteParallel,
  type ExecutionProgressEvent,
  hasFullProgressEvents,
  LicenseTier,
  licenseTierName,
  maxBatchSizeForTier,
  maxParallelismForTier,
  staticLicense,
  type ToolExecutionEvent,
  ungatedLicense,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import type { Logger } from "../../src/telemetry/index.js";
import { MockTool } from "../../src/testing/index.js";
import { collect, deferred, executorWith, gatedTool, sleep, waitFor } from "./support.js";

function progressTool() {
  return new MockTool({
    id: "progress",
    executeFunc: async (context) => {
      context.reportProgress("Reading", 33.3);
      context.reportProgress("Counting", 2, 4);
      context.reportProgress("No percentage");
      return ToolResult.succeeded();
    },
  });
}

async function runOn(tier: LicenseTier) {
  const executor = executorWith([progressTool()], { license: staticLicense(tier) });
  const progress: ExecutionProgressEvent[] = [];
  executor.events.on("executionProgress", (e) => progress.push(e));
  const task = executor.execute({ toolName: "progress" }, { executionId: "p" });
  const events: ToolExecutionEvent[] = await collect(executor.observe("p"));
  await task;
  return { events, progress };
}

describe("License tiers", () => {
  it("have the spec's names, order, batch sizes, parallelism and progress levels", () => {
    expect(LicenseTier.Core < LicenseTier.WriterPro).toBe(true);
    expect(LicenseTier.WriterPro < LicenseTier.Teams).toBe(true);
    expect(LicenseTier.Teams < LicenseTier.Enterprise).toBe(true);
    const tiers = [
      LicenseTier.Core,
      LicenseTier.WriterPro,
      LicenseTier.Teams,
      LicenseTier.Enterprise,
    ];
    expect(tiers.map(licenseTierName)).toEqual(["Core", "WriterPro", "Teams", "Enterprise"]);
    expect(tiers.map(maxBatchSizeForTier)).toEqual([5, 20, 50, Number.POSITIVE_INFINITY]);
    expect(tiers.map(canExecuteParallel)).toEqual([false, false, true, true]);
    expect(tiers.map(maxParallelismForTier)).toEqual([1, 1, 10, availableParallelism() * 2]);
    expect(tiers.map(hasFullProgressEvents)).toEqual([false, false, true, true]);
  });

  it("treat an unknown tier like Core", () => {
    const unknown = 9 as LicenseTier;
    expect(licenseTierName(unknown)).toBe("Core");
    expect(maxBatchSizeForTier(unknown)).toBe(5);
    expect(maxParallelismForTier(unknown)).toBe(1);
  });

  it("staticLicense gives a frozen context; without one the executor gates nothing (Ungated)", () => {
    const license = staticLicense(LicenseTier.Teams);
    expect(license.currentTier).toBe(LicenseTier.Teams);
    expect(Object.isFrozen(license)).toBe(true);
    expect(executorWith([]).license).toBe(ungatedLicense);
    const ungated = LicenseTier.Ungated;
    expect(licenseTierName(ungated)).toBe("Ungated");
    expect(maxBatchSizeForTier(ungated)).toBe(Number.POSITIVE_INFINITY);
    expect(canExecuteParallel(ungated)).toBe(true);
    expect(maxParallelismForTier(ungated)).toBe(Number.POSITIVE_INFINITY);
    expect(hasFullProgressEvents(ungated)).toBe(true);
  });
});

describe("ToolExecutor: Basic and Full progress events", () => {
  it("Basic (Core, WriterPro): only the lifecycle, one InProgress when the tool starts, no executionProgress", async () => {
    for (const tier of [LicenseTier.Core, LicenseTier.WriterPro]) {
      const { events, progress } = await runOn(tier);
      expect(events.map((e) => e.eventType)).toEqual(["Started", "InProgress", "Completed"]);
      expect(events[1]?.message).toBe("Executing tool");
      expect(events[1]).not.toHaveProperty("progressPercent");
      expect(progress).toEqual([]);
    }
  });

  it("Full (Teams, Enterprise): one InProgress per report with progressPercent, and executionProgress", async () => {
    for (const tier of [LicenseTier.Teams, LicenseTier.Enterprise]) {
      const { events, progress } = await runOn(tier);
      expect(events.map((e) => [e.eventType, e.message, e.progressPercent])).toEqual([
        ["Started", "Execution started", undefined],
        ["InProgress", "Executing tool", undefined],
        ["InProgress", "Reading", 33],
        ["InProgress", "Counting", 50],
        ["InProgress", "No percentage", undefined],
        ["Completed", "Execution completed", undefined],
      ]);
      expect(progress.map((p) => p.progress.message)).toEqual([
        "Reading",
        "Counting",
        "No percentage",
      ]);
      expect(progress.every((p) => p.executionId === "p" && p.toolId === "progress")).toBe(true);
    }
  });

  it("drops progress a tool reports after its execution has ended", async () => {
    let report: (() => void) | undefined;
    const tool = new MockTool({
      id: "late",
      executeFunc: async (context) => {
        report = () => context.reportProgress("too late", 99);
        await sleep(200);
        return ToolResult.succeeded();
      },
    });
    const executor = executorWith([tool], { license: staticLicense(LicenseTier.Teams) });
    const progress: ExecutionProgressEvent[] = [];
    executor.events.on("executionProgress", (e) => progress.push(e));

    await executor.execute({ toolName: "late" }, { executionId: "late", timeoutMs: 10 });
    report?.();
    const events = await collect(executor.observe("late"));

    expect(progress).toEqual([]);
    expect(events.at(-1)?.eventType).toBe("Timeout");
    expect(events.some((e) => e.message === "too late")).toBe(false);
    await sleep(200);
  });

  it("gives the AIntern path's executionProgress on Teams and up", async () => {
    const executor = executorWith([progressTool()], { license: staticLicense(LicenseTier.Teams) });
    const progress: ExecutionProgressEvent[] = [];
    executor.events.on("executionProgress", (e) => progress.push(e));
    const context = ToolExecutionContextBuilder.create().buildForTesting();

    await executor.execute("progress", context);

    expect(progress.map((p) => p.progress.percentComplete)).toEqual([33.3, 50, undefined]);
    expect(progress.every((p) => p.executionId === context.executionId)).toBe(true);
  });
});

describe("ToolExecutor: license defaults and the bulkhead", () => {
  function gatedBatch(license?: LicenseTier) {
    const count = { inFlight: 0, maxInFlight: 0, started: 0 };
    const gate = deferred();
    const warnings: string[] = [];
    const executor = executorWith([gatedTool("g", () => gate.promise, count)], {
      logger: silentLoggerWith(warnings),
      ...(license === undefined ? {} : { license: staticLicense(license) }),
    });
    return { executor, count, gate, warnings };
  }

  it("runs a Teams batch really 10 at once", async () => {
    const { executor, count, gate } = gatedBatch(LicenseTier.Teams);
    const inputs = Array.from({ length: 10 }, () => ({ toolName: "g" }));

    const batch = executor.executeBatch(inputs, { allowParallel: true, maxParallelism: 10 });
    await waitFor(() => count.started === 10);
    gate.resolve();

    expect((await batch).every((r) => r.status === "completed")).toBe(true);
    expect(count.maxInFlight).toBe(10);
  });

  it("gates nothing without a license: a batch of 60 runs, in parallel as asked", async () => {
    const { executor, count, gate } = gatedBatch();
    const inputs = Array.from({ length: 60 }, () => ({ toolName: "g" }));

    const batch = executor.executeBatch(inputs, { allowParallel: true, maxParallelism: 8 });
    await waitFor(() => count.started === 8);
    gate.resolve();

    expect(await batch).toHaveLength(60);
    expect(count.maxInFlight).toBe(8);
  });

  it("lets the bulkhead win over a batch's parallelism, and logs that it did", async () => {
    const { count, gate, warnings } = gatedBatch(LicenseTier.Teams);
    const capped = executorWith([gatedTool("g", () => gate.promise, count)], {
      license: staticLicense(LicenseTier.Teams),
      options: { maxConcurrentExecutions: 4 },
      logger: silentLoggerWith(warnings),
    });

    const batch = capped.executeBatch(
      Array.from({ length: 10 }, () => ({ toolName: "g" })),
      { allowParallel: true, maxParallelism: 10 },
    );
    await waitFor(() => count.started === 4);
    gate.resolve();
    await batch;

    expect(count.maxInFlight).toBe(4);
    expect(warnings.join("\n")).toContain(
      "Batch parallelism 10 capped by maxConcurrentExecutions (4)",
    );
  });
});

/** A logger that records warnings into `warnings`. */
function silentLoggerWith(warnings: string[]): Logger {
  return {
    debug: () => undefined,
    info: () => undefined,
    error: () => undefined,
    warn: (...args: unknown[]) => {
      warnings.push(String(args.at(-1)));
    },
  } as unknown as Logger;
}
