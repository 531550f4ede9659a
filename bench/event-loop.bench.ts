/**
 * Do timers keep their turn while the executor runs a stream of synchronous tools?
 *
 * 64 callers each loop `await executor.execute(...)` on a tool that returns at once (never
 * awaits), for `EVENT_LOOP_BENCH_CALLS` executions in all, once with no audit log and once
 * auditing to a SQLite file. Meanwhile a 5 ms `setInterval` notes how late each tick fires (wall
 * time past its due time) and how much CPU time the process used between two ticks. The target
 * is on the CPU figure, the work that ran while the timer waited (this VM is shared: a process
 * that is not scheduled is late by wall time through no fault of its own): the longest CPU time
 * between ticks, less the interval, under 50 ms. Before the executor and the group commit
 * yielded, no tick fired at all until the stream ended.
 *
 *   npx tsx bench/event-loop.bench.ts          (or `npm run bench -- event-loop`)
 *
 * Exits non-zero when the target is missed. `run()` returns the figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pino } from "pino";
import { ToolExecutor } from "../src/execution/index.js";
import { ToolRegistry } from "../src/registry/index.js";
import { ToolResult } from "../src/result/index.js";
import { JsonSchema } from "../src/schema/index.js";
import { openStore } from "../src/store/index.js";
import { defineTool } from "../src/tools/index.js";

const TARGET_MS = 50;
const IN_FLIGHT = 64;
const INTERVAL_MS = 5;

interface Figure {
  readonly audit: string;
  readonly executions: number;
  readonly seconds: number;
  readonly ticks: number;
  readonly longestDelayMs: number;
  readonly longestCpuDelayMs: number;
}

async function measure(calls: number, withAudit: boolean): Promise<Figure> {
  const folder = mkdtempSync(join(tmpdir(), "aintern-bench-loop-"));
  const store = withAudit ? await openStore(`sqlite:${join(folder, "audit.db")}`) : undefined;
  const sync = defineTool({
    id: "sync",
    name: "sync",
    description: "returns at once",
    inputSchema: JsonSchema.empty(),
    execute: () => ToolResult.succeeded(),
  });
  const executor = new ToolExecutor({
    registry: new ToolRegistry({ tools: [sync] }),
    logger: pino({ level: "silent" }),
    options: { maxConcurrentExecutions: IN_FLIGHT, logResults: false },
    ...(store === undefined ? {} : { audit: store.audit }),
  });
  let longest = 0;
  let longestCpu = 0;
  let ticks = 0;
  let due = performance.now() + INTERVAL_MS;
  let cpuAtTick = process.cpuUsage();
  const interval = setInterval(() => {
    const now = performance.now();
    const cpu = process.cpuUsage(cpuAtTick);
    cpuAtTick = process.cpuUsage();
    longest = Math.max(longest, now - due);
    // Only this (main) thread's share counts: a GC helper thread does not delay timers.
    longestCpu = Math.max(longestCpu, cpu.user / 1000 - INTERVAL_MS);
    ticks++;
    due = now + INTERVAL_MS;
  }, INTERVAL_MS);
  let next = 0;
  const started = performance.now();
  const caller = async () => {
    while (next < calls) {
      next++;
      await executor.execute({ toolName: "sync" });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, caller));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(interval);
  await store?.close();
  rmSync(folder, { recursive: true, force: true });
  return {
    audit: withAudit ? "SQLite" : "none",
    executions: calls,
    seconds: Number(seconds.toFixed(2)),
    ticks,
    longestDelayMs: Number(longest.toFixed(1)),
    longestCpuDelayMs: Number(longestCpu.toFixed(1)),
  };
}

/** Runs both measures; `passed` when every longest delay is under the target. */
export async function run(calls = 50_000) {
  const figures = [await measure(calls, false), await measure(calls, true)];
  return {
    date: new Date().toISOString(),
    node: process.version,
    figures,
    passed: figures.every((figure) => figure.longestCpuDelayMs < TARGET_MS),
  };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await run(Number(process.env.EVENT_LOOP_BENCH_CALLS ?? 50_000));
  console.log(
    `Timer delay under ${IN_FLIGHT} synchronous executions in flight, node ${result.node}, ${result.date}`,
  );
  console.log(
    "audit   executions  seconds  5 ms ticks  longest CPU between ticks - 5 ms (target < 50)  longest wall delay",
  );
  for (const f of result.figures) {
    console.log(
      `${f.audit.padEnd(8)}${String(f.executions).padEnd(12)}${String(f.seconds).padEnd(9)}${String(f.ticks).padEnd(12)}${`${f.longestCpuDelayMs} ms`.padEnd(48)}${f.longestDelayMs} ms`,
    );
  }
  if (!result.passed) process.exitCode = 1;
}
