import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ServiceContainer,
  ToolExecutionContext,
  type ToolProgress,
} from "../../src/context/index.js";
import { AinternError, Cancellation, ToolErrorCode } from "../../src/core/index.js";
import { ArtifactAction, ArtifactType, ToolArtifact, ToolResult } from "../../src/result/index.js";
import {
  ProcessSandbox,
  processOutputMetadataKey,
  SandboxError,
  SandboxErrorCode,
  type SandboxOutcome,
} from "../../src/sandbox/process.js";
import type { Tool } from "../../src/tools/index.js";
import * as tools from "../fixtures/sandbox/tools.js";
import {
  fixtureModule,
  isDead,
  isReaped,
  killSeen,
  livingGroupMembers,
  runTool,
  seenPids,
} from "./process-helpers.js";

// Every test here runs real child processes. Each misbehaving tool must end with an aborted or
// failed outcome, not before its timeout when the timeout is what stops it, leave no process
// behind, and leave the pool working (the next call succeeds). The upper bound on how long that
// takes is wide (timeout + 5 s): it proves the kill happened rather than the test's own timeout
// ending a hung run, and holds on a loaded machine; how fast a kill is belongs in bench/.
const killMarginMs = 5_000;

/** The run lasted at least its timeout (it was not stopped early) and ended within the margin. */
function expectEndedByTimeout(elapsedMs: number, timeoutMs: number): void {
  // Timers may fire up to a millisecond early, rounded.
  expect(elapsedMs).toBeGreaterThanOrEqual(timeoutMs - 2);
  expect(elapsedMs).toBeLessThan(timeoutMs + killMarginMs);
}

let sandbox: ProcessSandbox;
let small: ProcessSandbox;
let folder: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), "aintern-sandbox-"));
  // Two warm processes each: after a kill, the next call finds one ready while the pool
  // replaces the killed one.
  sandbox = new ProcessSandbox({ poolSize: 2, preloadModules: [fixtureModule] });
  small = new ProcessSandbox({
    poolSize: 2,
    maxMemoryMb: 64,
    maxMessageBytes: 64 * 1024,
    preloadModules: [fixtureModule],
  });
  await Promise.all([sandbox.warm(), small.warm()]);
});

afterAll(async () => {
  await Promise.all([sandbox?.close(), small?.close()]);
  killSeen();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

/** Waits until the pool has a started process waiting, so a run's timing excludes a start. */
async function ready(pool: ProcessSandbox): Promise<void> {
  await expect.poll(() => pool.idleWorkers, { timeout: 15_000, interval: 10 }).toBeGreaterThan(0);
}

function completed(outcome: SandboxOutcome): ToolResult {
  if (outcome.kind !== "completed") {
    throw new Error(`Expected a completed outcome, got ${JSON.stringify(outcome)}`);
  }
  return outcome.result;
}

function threw(outcome: SandboxOutcome): Error {
  if (outcome.kind !== "threw") {
    throw new Error(`Expected a threw outcome, got ${JSON.stringify(outcome)}`);
  }
  return outcome.error as Error;
}

/**
 * The worker and everything in its process group are gone. A run ends at most 40 ms after its
 * SIGKILL even when the kernel is slower to tear the process down, so the reap is polled for.
 */
async function expectNothingLeft(pid: number | undefined, grandchildPid?: number): Promise<void> {
  expect(pid).toBeTypeOf("number");
  await expect.poll(() => isReaped(pid as number), { timeout: 2_000, interval: 10 }).toBe(true);
  expect(livingGroupMembers(pid as number)).toEqual([]);
  if (grandchildPid !== undefined) expect(isDead(grandchildPid)).toBe(true);
}

/** The pool serves a normal call afterwards, from a new process. */
async function expectPoolWorks(pool: ProcessSandbox, killedPid: number | undefined): Promise<void> {
  const next = await runTool(pool, tools.pid);
  const data = completed(next.outcome).data as { pid: number };
  expect(data.pid).not.toBe(killedPid);
  seenPids.add(data.pid);
}

describe("ProcessSandbox: a normal run", () => {
  it("carries parameters, context, progress, artifacts and printed output across the boundary", async () => {
    const decidedAt = new Date("2024-05-06T07:08:09.000Z");
    const run = await runTool(sandbox, tools.echo, {
      parameters: { path: "src/app.ts", count: 0, nested: { list: [1, "two", null] } },
      context: {
        executionId: "exec-1",
        sessionId: "session-1",
        workspacePath: folder,
        isApproved: true,
        approval: { approvedBy: "ada", decidedAt, automatic: false },
        metadata: { requestId: "r-1", when: decidedAt, skip: () => 1 },
      },
    });
    const result = completed(run.outcome);
    expect(result).toBeInstanceOf(ToolResult);
    expect(result.success).toBe(true);
    expect(result.message).toBe("Echoed");
    expect(result.data).toEqual({
      parameters: { path: "src/app.ts", count: 0, nested: { list: [1, "two", null] } },
      pid: expect.any(Number),
      executionId: "exec-1",
      sessionId: "session-1",
      toolId: "echo",
      workspacePath: folder,
      isApproved: true,
      approvedBy: "ada",
      decidedAt: decidedAt.toISOString(),
      metadata: { requestId: "r-1", when: decidedAt.toISOString() },
      startedAt: expect.any(String),
      // Data crosses as JSON: a Date comes back as its ISO string.
      when: "2024-01-02T03:04:05.000Z",
    });
    expect((result.data as { pid: number }).pid).not.toBe(process.pid);
    expect(result.durationMs).toBe(12);
    expect(result.suggestedFollowUps).toEqual(["Open out/report.md"]);
    expect(result.metadata?.itemCount).toBe(2);
    expect(result.metadata?.[processOutputMetadataKey]).toEqual({
      stdout: "to stdout\n",
      stderr: "to stderr\n",
    });

    const [report, deleted, terminal] = result.artifacts;
    expect(report).toBeInstanceOf(ToolArtifact);
    expect(report?.type).toBe(ArtifactType.File);
    expect(report?.path).toBe("out/report.md");
    expect(report?.size).toBe(9);
    expect(report?.contentHash).toBe(ToolArtifact.hashContent("# Report\n"));
    expect(report?.mimeType).toBe(ToolArtifact.fileWithContent("x.md", "").mimeType);
    expect(report?.isNew).toBe(true);
    expect(report?.action).toBe(ArtifactAction.Created);
    expect(deleted?.action).toBe(ArtifactAction.Deleted);
    expect(deleted?.description).toBe("Deleted");
    expect(terminal?.type).toBe(ArtifactType.Output);
    expect(terminal?.size).toBe(3);

    expect(run.progress.map((p) => [p.message, p.percentComplete, p.itemsProcessed])).toEqual([
      ["Starting", 10, undefined],
      ["Halfway", 50, 5],
    ]);
    expect(run.progress[1]?.totalItems).toBe(10);
  });

  it("carries multi-megabyte parameters and results, call after call on one process", async () => {
    for (const size of [10, 70_000, 3_000_000, 100, 1]) {
      const text = "é".repeat(size);
      const echoed = completed(
        (await runTool(sandbox, tools.echo, { parameters: { text, list: [size] } })).outcome,
      ).data as { parameters: { text: string; list: number[] } };
      expect(echoed.parameters.text === text).toBe(true);
      expect(echoed.parameters.list).toEqual([size]);
      const large = completed(
        (await runTool(sandbox, tools.large, { parameters: { size } })).outcome,
      );
      expect((large.data as string).length).toBe(size);
    }
  });

  it("reuses the same warm process for consecutive clean runs", async () => {
    const first = completed((await runTool(sandbox, tools.pid)).outcome).data as { pid: number };
    const second = completed((await runTool(sandbox, tools.pid)).outcome).data as { pid: number };
    expect(second.pid).toBe(first.pid);
    expect(sandbox.pids).toContain(first.pid);
  });

  it("loads the default export when the source names no export", async () => {
    const tool: Tool = { ...tools.pid, source: { module: fileURLToPath(fixtureModule) } };
    const result = completed((await runTool(sandbox, tool)).outcome);
    expect(result.success).toBe(true);
  });

  it("returns a tool's error with its name and message when execute rejects", async () => {
    const error = threw((await runTool(sandbox, tools.rawThrows)).outcome);
    expect(error.name).toBe("RangeError");
    expect(error.message).toBe("bad range in the child");
    expect(ToolResult.fromException(error).errorCode).toBe("RangeError");
  });

  it("fails a tool that returns something other than a ToolResult", async () => {
    const error = threw((await runTool(sandbox, tools.notAResult)).outcome);
    expect(error.name).toBe("TypeError");
    expect(error.message).toContain("not a ToolResult");
  });
});

describe("ProcessSandbox: tools it cannot load", () => {
  it("refuses a tool without source, saying to set source, and starts no process", async () => {
    const pidsBefore = [...sandbox.pids];
    const { source: _source, ...withoutSource } = tools.pid;
    const error = threw((await runTool(sandbox, withoutSource as Tool)).outcome);
    expect(error).toBeInstanceOf(SandboxError);
    expect((error as SandboxError).code).toBe(SandboxErrorCode.ToolSourceMissing);
    expect(error.message).toContain("source: { module, exportName }");
    expect(error.message).toContain("'pid'");
    expect(sandbox.pids).toEqual(pidsBefore);
  });

  it("refuses a source module that is neither absolute nor a file: URL", async () => {
    const tool: Tool = { ...tools.pid, source: { module: "./tools.ts" } };
    const error = threw((await runTool(sandbox, tool)).outcome) as SandboxError;
    expect(error.code).toBe(SandboxErrorCode.ToolSourceInvalid);
    expect(error.message).toContain("absolute");
  });

  it.each([
    ["a missing export", "noSuchExport", "has no export 'noSuchExport'"],
    ["an export that is not a tool", "notATool", "is not a tool"],
    ["an export that is another tool", "echo", "is tool 'echo', not 'pid'"],
  ])("reports %s as an invalid source and keeps the process", async (_name, exportName, text) => {
    const before = completed((await runTool(sandbox, tools.pid)).outcome).data as { pid: number };
    const tool: Tool = { ...tools.pid, source: { module: fixtureModule, exportName } };
    const error = threw((await runTool(sandbox, tool)).outcome) as SandboxError;
    expect(error.code).toBe(SandboxErrorCode.ToolSourceInvalid);
    expect(error.message).toContain(text);
    const after = completed((await runTool(sandbox, tools.pid)).outcome).data as { pid: number };
    expect(after.pid).toBe(before.pid);
  });
});

describe("ProcessSandbox: tools that will not stop", () => {
  it.each([
    ["a synchronous while (true) loop", tools.busyLoop],
    ["a tool that ignores SIGTERM and loops", tools.ignoresSigterm],
  ])("kills %s on timeout", async (_name, tool) => {
    await ready(sandbox);
    const run = await runTool(sandbox, tool, { timeoutMs: 600 });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expectEndedByTimeout(run.elapsedMs, 600);
    await expectNothingLeft(run.pid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it("kills a tool blocked reading a FIFO nobody writes", async () => {
    const fifo = join(folder, "blocked.fifo");
    execFileSync("mkfifo", [fifo]);
    await ready(sandbox);
    const run = await runTool(sandbox, tools.fifoRead, { timeoutMs: 600, parameters: { fifo } });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expectEndedByTimeout(run.elapsedMs, 600);
    await expectNothingLeft(run.pid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it("kills the grandchild a hanging tool started, with its whole process group", async () => {
    await ready(sandbox);
    const run = await runTool(sandbox, tools.grandchild, { timeoutMs: 600 });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expectEndedByTimeout(run.elapsedMs, 600);
    expect(run.grandchildPid).toBeGreaterThan(0);
    await expectNothingLeft(run.pid, run.grandchildPid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it("kills a command the tool started in a process group of its own, as the terminal tool does", async () => {
    await ready(sandbox);
    const file = "should-not-exist";
    const run = await runTool(sandbox, tools.detachedShell, {
      timeoutMs: 10_000,
      cancelOnPid: true,
      parameters: { folder, file },
    });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expect(run.grandchildPid).toBeGreaterThan(0);
    // Dead when the run ends, not some time later: the run's end is what the audit records.
    expect(isDead(run.grandchildPid as number)).toBe(true);
    await expectNothingLeft(run.pid, run.grandchildPid);
    // The shell would have touched the file 1.5 s after it started.
    await new Promise((resolve) => setTimeout(resolve, 1_800));
    expect(existsSync(join(folder, file))).toBe(false);
  });

  it("kills what such a command moved out of reach with setsid, found by the command's marker", async () => {
    await ready(sandbox);
    const run = await runTool(sandbox, tools.escapedGrandchild, {
      timeoutMs: 10_000,
      cancelOnPid: true,
      parameters: { folder },
    });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expect(run.grandchildPid).toBeGreaterThan(0);
    expect(isDead(run.grandchildPid as number)).toBe(true);
    await expectNothingLeft(run.pid, run.grandchildPid);
  });

  it("kills a spawner's children forked while it is being killed, though they carry no marker", async () => {
    await ready(sandbox);
    const tag = `aintern-spawned-${process.pid}-${Date.now()}`;
    const run = await runTool(sandbox, tools.forkingSpawner, {
      timeoutMs: 10_000,
      cancelOnPid: true,
      parameters: { folder, tag },
    });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    const living = (): number[] =>
      readdirSync("/proc")
        .filter((entry) => /^\d+$/.test(entry))
        .filter((entry) => {
          try {
            return (
              readFileSync(`/proc/${entry}/cmdline`, "latin1").startsWith(tag) &&
              !isDead(Number(entry))
            );
          } catch {
            return false;
          }
        })
        .map(Number);
    // Killed is what counts; the kernel may take a moment to tear a process down.
    await expect.poll(living, { timeout: 1_000, interval: 20 }).toEqual([]);
    for (const pid of living()) process.kill(pid, "SIGKILL");
  });

  it("kills the group on cancellation through the signal, not only on timeout", async () => {
    await ready(sandbox);
    const run = await runTool(sandbox, tools.grandchild, { timeoutMs: 10_000, cancelOnPid: true });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expect(run.elapsedMs).toBeLessThan(5_000);
    await expectNothingLeft(run.pid, run.grandchildPid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it("waits on the executor's Cancellation without making its signal, and kills on its abort", async () => {
    await ready(sandbox);
    const cancellation = new Cancellation();
    const options = {
      cancellation,
      timeoutMs: 10_000,
      get signal(): AbortSignal {
        throw new Error("The sandbox made the signal.");
      },
    };
    let pid: number | undefined;
    const context = (tool: Tool): ToolExecutionContext =>
      new ToolExecutionContext({
        services: new ServiceContainer(),
        toolId: tool.id,
        progress: (update: ToolProgress) => {
          pid = (JSON.parse(update.message) as { pid: number }).pid;
          seenPids.add(pid);
          cancellation.abort(new Error("cancelled by the test"));
        },
      });
    expect(completed(await sandbox.run(tools.pid, context(tools.pid), options)).success).toBe(true);
    const started = performance.now();
    const outcome = await sandbox.run(tools.busyLoop, context(tools.busyLoop), options);
    expect(outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expect(performance.now() - started).toBeLessThan(5_000);
    await expectNothingLeft(pid);
    await expectPoolWorks(sandbox, pid);
  });

  it("stops a run with its own timer when the signal never aborts, as a timeout result", async () => {
    await ready(sandbox);
    const run = await runTool(sandbox, tools.busyLoop, { timeoutMs: 500, noSignalTimeout: true });
    const result = completed(run.outcome);
    expect(result.errorCode).toBe(ToolErrorCode.Timeout);
    expect(result.error).toContain("0.5s");
    expectEndedByTimeout(run.elapsedMs, 500);
    await expectNothingLeft(run.pid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it("returns aborted at once for a signal that is already aborted", async () => {
    const run = await runTool(sandbox, tools.busyLoop, { signal: AbortSignal.abort() });
    expect(run.outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expect(run.pid).toBeUndefined();
  });
});

describe("ProcessSandbox: tools that break a limit", () => {
  it("ends 100 MB of output quickly, as a failure naming maxOutputBytes", async () => {
    await ready(sandbox);
    const run = await runTool(sandbox, tools.flood, { timeoutMs: 5_000 });
    const result = completed(run.outcome);
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe(SandboxErrorCode.OutputLimitExceeded);
    expect(result.error).toContain("maxOutputBytes");
    expect(run.elapsedMs).toBeLessThan(5_000 + killMarginMs);
    await expectNothingLeft(run.pid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it("takes a timeout longer than setTimeout's 24.8-day limit without spinning or warning", async () => {
    await ready(sandbox);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const thirtyDays = 30 * 24 * 60 * 60 * 1_000;
      const run = await runTool(sandbox, tools.echo, { sandboxTimeoutMs: thirtyDays });
      const result = completed(run.outcome);
      expect(result.success).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings.filter((w) => w.name === "TimeoutOverflowWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("counts output written after a forged run-end marker against maxOutputBytes", async () => {
    const pool = new ProcessSandbox({
      poolSize: 1,
      maxOutputBytes: 1_000,
      preloadModules: [fixtureModule],
    });
    try {
      const spied = completed((await runTool(pool, tools.forgesMarker)).outcome);
      expect(spied.data).toBe("spied");
      const forged = completed(
        (await runTool(pool, tools.forgesMarker, { timeoutMs: 10_000 })).outcome,
      );
      expect(forged.success).toBe(false);
      expect(forged.errorCode).toBe(SandboxErrorCode.OutputLimitExceeded);
    } finally {
      await pool.close();
    }
  });

  it("applies a tool's smaller constraints.maxOutputBytes", async () => {
    await ready(sandbox);
    const tool: Tool = { ...tools.echo, constraints: { maxOutputBytes: 4 } };
    const result = completed((await runTool(sandbox, tool)).outcome);
    expect(result.errorCode).toBe(SandboxErrorCode.OutputLimitExceeded);
    expect(result.error).toContain("more than 4 bytes");
  });

  it.each([
    ["a heap bomb (objects forever)", tools.heapBomb],
    ["a Buffer bomb (untouched Buffers, outside the V8 heap: the OS limit)", tools.bufferBomb],
    ["a Buffer bomb that fills its Buffers (resident memory)", tools.bufferFillBomb],
  ])("ends %s as an out-of-memory failure", async (_name, tool) => {
    await ready(small);
    const run = await runTool(small, tool, { timeoutMs: 8_000 });
    const result = completed(run.outcome);
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe(SandboxErrorCode.OutOfMemory);
    expect(result.error).toContain("ran out of memory");
    expect(result.error).toContain("64 MB");
    expect(run.elapsedMs).toBeLessThan(8_000 + killMarginMs);
    await expectNothingLeft(run.pid);
    await expectPoolWorks(small, run.pid);
  });

  /** A process's soft data limit and data segment size, in bytes, from /proc. */
  function dataOf(pid: number): { limit: number; data: number } {
    const limits = readFileSync(`/proc/${pid}/limits`, "utf8");
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return {
      limit: Number(/^Max data size\s+(\d+)/m.exec(limits)?.[1]),
      data: Number(/^VmData:\s+(\d+) kB/m.exec(status)?.[1]) * 1024,
    };
  }

  const mib = 1024 * 1024;

  it.runIf(process.platform === "linux")(
    "caps an idle worker's data segment at its own idle size plus maxMemoryMb plus the 256 MiB headroom",
    async () => {
      expect(small.memoryLimit).not.toBe("none");
      await small.warm();
      for (const pid of small.pids) {
        const { limit, data } = dataOf(pid);
        // The idle size it was measured at (Node 24 commits 512 MiB of code range per isolate,
        // Node 20 does not): the limit follows it, whichever it is.
        const idle = limit - (64 + 256) * mib;
        expect(idle).toBeGreaterThan(0);
        expect(Math.abs(data - idle)).toBeLessThan(64 * mib);
      }
    },
  );

  it.runIf(process.platform === "linux")(
    "measures an idle worker first under ulimit -d, then ends a Buffer bomb there too",
    async () => {
      const viaShell = new ProcessSandbox({
        poolSize: 1,
        maxMemoryMb: 64,
        memoryLimit: "ulimit",
        preloadModules: [fixtureModule],
      });
      try {
        await viaShell.warm();
        const [pid] = viaShell.pids;
        const { limit, data } = dataOf(pid as number);
        expect(Math.abs(data - (limit - (64 + 256) * mib))).toBeLessThan(64 * mib);
        const run = await runTool(viaShell, tools.bufferBomb, { timeoutMs: 8_000 });
        const result = completed(run.outcome);
        expect(result.errorCode).toBe(SandboxErrorCode.OutOfMemory);
        await expectNothingLeft(run.pid);
        await expectPoolWorks(viaShell, run.pid);
      } finally {
        await viaShell.close();
      }
    },
  );

  it("kills a child that sends an over-size message, as a failure naming maxMessageBytes", async () => {
    await ready(small);
    const run = await runTool(small, tools.large, { parameters: { size: 100_000 } });
    const result = completed(run.outcome);
    expect(result.errorCode).toBe(SandboxErrorCode.MessageLimitExceeded);
    expect(result.error).toContain("maxMessageBytes");
    await expectPoolWorks(small, undefined);
  });

  it("kills a child that sends an over-deep message, as a failure naming maxMessageDepth", async () => {
    await ready(small);
    const run = await runTool(small, tools.deep, { parameters: { depth: 100 } });
    const result = completed(run.outcome);
    expect(result.errorCode).toBe(SandboxErrorCode.MessageLimitExceeded);
    expect(result.error).toContain("maxMessageDepth");
    await expectPoolWorks(small, undefined);
  });

  it("refuses a frame header announcing 4 GB before reading its body", async () => {
    await ready(sandbox);
    const run = await runTool(sandbox, tools.rogueFrame, { timeoutMs: 5_000 });
    const result = completed(run.outcome);
    expect(result.errorCode).toBe(SandboxErrorCode.MessageLimitExceeded);
    expect(result.error).toContain("4294967280 bytes");
    expect(run.elapsedMs).toBeLessThan(5_000);
    await expectNothingLeft(run.pid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it.each([
    ["a message outside the protocol", "not-protocol", "not part of the worker protocol"],
    ["a message for another run", "wrong-id", "unexpected 'progress' message"],
    ["a second 'ready'", "ready", "unexpected 'ready' message"],
  ])("kills a child that writes %s into the channel", async (_name, kind, text) => {
    await ready(small);
    const run = await runTool(small, tools.rogueMessage, { parameters: { kind } });
    const result = completed(run.outcome);
    expect(result.errorCode).toBe(SandboxErrorCode.MessageLimitExceeded);
    expect(result.error).toContain(text);
    await expectNothingLeft(run.pid);
  });

  it("refuses parameters over maxMessageBytes without running the tool", async () => {
    await ready(small);
    const run = await runTool(small, tools.echo, { parameters: { text: "z".repeat(100_000) } });
    const error = threw(run.outcome) as SandboxError;
    expect(error.code).toBe(SandboxErrorCode.RequestTooLarge);
    expect(error.message).toContain("maxMessageBytes");
    await expectPoolWorks(small, undefined);
  });
});

describe("ProcessSandbox: processes that die and the pool", () => {
  it("reports a child that calls process.exit(3) as threw with the exit code", async () => {
    await ready(sandbox);
    const run = await runTool(sandbox, tools.exitThree);
    const error = threw(run.outcome) as SandboxError;
    expect(error).toBeInstanceOf(SandboxError);
    expect(error.code).toBe(SandboxErrorCode.ProcessExited);
    expect(error.message).toContain("exited with code 3");
    await expectNothingLeft(run.pid);
    await expectPoolWorks(sandbox, run.pid);
  });

  it("replaces a killed process so the pool keeps its size", async () => {
    await sandbox.warm();
    expect(sandbox.pids).toHaveLength(2);
    const run = await runTool(sandbox, tools.busyLoop, { timeoutMs: 300 });
    expect(run.outcome.kind).toBe("aborted");
    // The replacement is started as soon as the process dies, not at the next call.
    expect(sandbox.pids).toHaveLength(2);
    expect(sandbox.pids).not.toContain(run.pid);
    await sandbox.warm();
    expect(sandbox.idleWorkers).toBe(2);
  });

  it("gives a tool with its own constraints.maxMemoryMb a process of its own, not kept", async () => {
    await sandbox.warm();
    const pooled = [...sandbox.pids];
    const tool: Tool = { ...tools.pid, constraints: { maxMemoryMb: 96 } };
    const data = completed((await runTool(sandbox, tool)).outcome).data as { pid: number };
    seenPids.add(data.pid);
    expect(pooled).not.toContain(data.pid);
    await expect.poll(() => isReaped(data.pid), { timeout: 3_000 }).toBe(true);
    expect(sandbox.pids).toEqual(pooled);
  });

  it("runs calls in parallel beyond the pool size, keeping only poolSize processes", async () => {
    await sandbox.warm();
    const runs = await Promise.all([1, 2, 3].map(() => runTool(sandbox, tools.pid)));
    const pids = runs.map((run) => (completed(run.outcome).data as { pid: number }).pid);
    for (const pid of pids) seenPids.add(pid);
    expect(new Set(pids).size).toBe(3);
    await expect.poll(() => sandbox.pids.length, { timeout: 3_000 }).toBe(2);
  });

  it("replaces a process that dies while idle", async () => {
    await ready(sandbox);
    const [idle] = sandbox.pids;
    expect(idle).toBeTypeOf("number");
    process.kill(idle as number, "SIGKILL");
    await expect.poll(() => sandbox.pids.includes(idle as number), { timeout: 2_000 }).toBe(false);
    await expectPoolWorks(sandbox, idle);
    expect(sandbox.pids).toHaveLength(2);
  });

  it("kills its workers, busy ones too, when the host process dies without closing", async () => {
    const host = spawn(
      process.execPath,
      ["--import", "tsx", fileURLToPath(new URL("../fixtures/sandbox/host.ts", import.meta.url))],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        host.stdout.once("data", (chunk: Buffer) => resolve(chunk.toString("utf8")));
        host.once("exit", (code) => reject(new Error(`The host exited early (${code}).`)));
      });
      const { busy, pool } = JSON.parse(line) as { busy: number; pool: number[] };
      for (const pid of [busy, ...pool]) seenPids.add(pid);
      expect(isDead(busy)).toBe(false);
      host.kill("SIGKILL");
      for (const pid of new Set([busy, ...pool])) {
        await expect.poll(() => isDead(pid), { timeout: 3_000, interval: 20 }).toBe(true);
      }
    } finally {
      host.kill("SIGKILL");
    }
  });

  it("fails to warm with a clear error when a worker does not start in time", async () => {
    const pool = new ProcessSandbox({ poolSize: 1, startupTimeoutMs: 1 });
    try {
      await expect(pool.warm()).rejects.toThrow(/did not start within 1 ms/);
    } finally {
      await pool.close();
    }
  });

  it("close() kills every process, and later runs fail as closed", async () => {
    const pool = new ProcessSandbox({ poolSize: 2 });
    try {
      await pool.warm();
      const pids = [...pool.pids];
      expect(pids).toHaveLength(2);
      for (const pid of pids) seenPids.add(pid);
      await pool.close();
      for (const pid of pids) await expectNothingLeft(pid);
      expect(pool.pids).toEqual([]);
      const error = threw((await runTool(pool, tools.pid)).outcome) as SandboxError;
      expect(error.code).toBe(SandboxErrorCode.Closed);
      await expect(pool.warm()).rejects.toMatchObject({ code: SandboxErrorCode.Closed });
    } finally {
      await pool.close();
    }
  });

  it("fails runs with a clear error when no process can start", async () => {
    const pool = new ProcessSandbox({ poolSize: 1, execArgv: ["--no-such-node-flag"] });
    try {
      await expect(pool.warm()).rejects.toMatchObject({ code: SandboxErrorCode.StartFailed });
      const error = threw((await runTool(pool, tools.pid)).outcome) as SandboxError;
      expect(error.code).toBe(SandboxErrorCode.StartFailed);
      expect(error.message).toContain("--no-such-node-flag");
    } finally {
      await pool.close();
    }
  });

  it("rejects invalid options at construction", () => {
    expect(() => new ProcessSandbox({ poolSize: 0 })).toThrow(AinternError);
    expect(() => new ProcessSandbox({ maxMemoryMb: Number.NaN })).toThrow(/maxMemoryMb/);
    expect(() => new ProcessSandbox({ preloadModules: ["relative.js"] })).toThrow(/preloadModules/);
  });
});
