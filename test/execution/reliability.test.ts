import { getEventListeners } from "node:events";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditStatusFromCode,
  ToolExecutionStatus,
  type ToolExecutor,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchema } from "../../src/schema/index.js";
import { sqliteTableName, TOOL_EXECUTIONS_TABLE } from "../../src/store/index.js";
import type { SqliteAuditLog } from "../../src/store/sqlite-audit-log.js";
import type { Tool } from "../../src/tools/index.js";
import { defineTool } from "../../src/tools/index.js";
import { executorWith, openTempStore, rawThrowingTool, sleep, type TempStore } from "./support.js";

/**
 * 10,000 executions with random outcomes against a SQLite file, 32 in flight at a time.
 *
 * Memory: the test needs a full collection before each heap reading. Vitest's workers do not
 * run with --expose-gc, so the test turns the flag on at run time and takes `gc` from a new V8
 * context (a documented V8 behaviour: flags set before a context is created apply to it).
 * It then compares the heap after 2,000 executions with the heap after 10,000: what the
 * executor keeps is bounded (the last 1,000 finished executions for observe()), so growth per
 * execution must stay near zero; the slack allows 256 bytes per execution.
 */
const TOTAL = 10_000;
const WARM = 2_000;
const IN_FLIGHT = 32;
const GROWTH_BYTES_PER_EXECUTION = 256;

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A small seeded PRNG (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A tool made with defineTool (MockTool would record every call's parameters). */
function tool(id: string, execute: (signal: AbortSignal) => unknown): Tool {
  return defineTool({
    id,
    name: id,
    description: id,
    inputSchema: JsonSchema.empty(),
    execute: (_input, context) => execute(context.signal),
  });
}

function tools(): Tool[] {
  return [
    tool("ok", () => ToolResult.succeeded()),
    tool("ok-later", async () => {
      await sleep(1);
      return ToolResult.succeeded();
    }),
    tool("fails", () => ToolResult.failed("Test error")),
    tool("throws", () => {
      throw new Error("Test exception");
    }),
    rawThrowingTool("raw-throw", "Raw throw", "raw failure"),
    tool(
      "slow",
      (signal) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 60_000);
          signal.addEventListener(
            "abort",
            () => {
              clearTimeout(timer);
              reject(signal.reason);
            },
            { once: true },
          );
        }),
    ),
  ];
}

type Kind = "ok" | "ok-later" | "fails" | "throws" | "raw-throw" | "timeout" | "cancel" | "abort";

const expected: Record<Kind, ToolExecutionStatus> = {
  ok: ToolExecutionStatus.Completed,
  "ok-later": ToolExecutionStatus.Completed,
  fails: ToolExecutionStatus.Failed,
  throws: ToolExecutionStatus.Failed,
  "raw-throw": ToolExecutionStatus.Failed,
  timeout: ToolExecutionStatus.Timeout,
  cancel: ToolExecutionStatus.Cancelled,
  abort: ToolExecutionStatus.Cancelled,
};
const kinds = Object.keys(expected) as Kind[];

let temp: TempStore;
beforeAll(async () => {
  temp = await openTempStore();
});
afterAll(async () => {
  await temp.dispose();
});

/**
 * What the test keeps per execution: one byte for its kind and one for its status code, so the
 * test's own bookkeeping does not show up as heap growth.
 */
interface Tally {
  readonly kinds: Uint8Array;
  readonly statuses: Uint8Array;
  readonly controllers: AbortController[];
  done: number;
}

const statusList = Object.values(ToolExecutionStatus);
const statusCode = (status: ToolExecutionStatus): number => statusList.indexOf(status) + 1;

async function runOne(executor: ToolExecutor, kind: Kind, index: number, tally: Tally) {
  const executionId = `rel-${index}`;
  switch (kind) {
    case "timeout":
      return executor.execute({ toolName: "slow" }, { executionId, timeoutMs: 1 + (index % 3) });
    case "cancel": {
      const task = executor.execute({ toolName: "slow" }, { executionId });
      setImmediate(() => executor.cancel(executionId));
      return task;
    }
    case "abort": {
      const controller = new AbortController();
      if (tally.controllers.length < 500) tally.controllers.push(controller);
      const task = executor.execute({ toolName: "slow" }, { executionId }, controller.signal);
      setTimeout(() => controller.abort(), index % 2);
      return task;
    }
    default:
      return executor.execute({ toolName: kind }, { executionId });
  }
}

async function runMany(
  executor: ToolExecutor,
  from: number,
  to: number,
  next: () => number,
  tally: Tally,
): Promise<void> {
  let index = from;
  const worker = async () => {
    while (index < to) {
      const i = index++;
      const kind = Math.floor(next() * kinds.length);
      const result = await runOne(executor, kinds[kind]!, i, tally);
      tally.kinds[i] = kind;
      tally.statuses[i] = statusCode(result.status);
      tally.done++;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
}

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

function timeouts(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}

describe("ToolExecutor reliability", () => {
  it("audits 10,000 random executions once each with their final status, leaves no timer or listener, and does not grow", async () => {
    const executor = executorWith(tools(), {
      audit: temp.store.audit,
      options: { maxConcurrentExecutions: IN_FLIGHT },
    });
    const busListeners = executor.events.listenerCount("executionEvent");
    const timersBefore = timeouts();
    const next = random(20261125);
    const tally: Tally = {
      kinds: new Uint8Array(TOTAL),
      statuses: new Uint8Array(TOTAL),
      controllers: [],
      done: 0,
    };

    await runMany(executor, 0, WARM, next, tally);
    await sleep(5);
    const heapWarm = heapAfterGc();
    await runMany(executor, WARM, TOTAL, next, tally);
    await sleep(5);
    const heapEnd = heapAfterGc();

    // Every execution ended with the status its kind calls for.
    expect(tally.done).toBe(TOTAL);
    const wrong: string[] = [];
    const counts = new Map<string, number>();
    for (let i = 0; i < TOTAL; i++) {
      const kind = kinds[tally.kinds[i]!]!;
      const status = statusList[tally.statuses[i]! - 1]!;
      if (status !== expected[kind]) wrong.push(`${i} ${kind}: ${status}`);
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
    expect(wrong).toEqual([]);
    expect(counts.size).toBe(4);

    // Exactly one audit row per execution, with its final status (once the rows written ahead to
    // the journal are inserted, as any read through the store does).
    (temp.store.audit as SqliteAuditLog).insertBehind();
    const db = new Database(temp.path, { readonly: true });
    const table = sqliteTableName("agent_tools", TOOL_EXECUTIONS_TABLE);
    const totals = db
      .prepare(`SELECT COUNT(*) AS rows_, COUNT(DISTINCT execution_id) AS ids FROM "${table}"`)
      .get() as { rows_: number; ids: number };
    const byStatus = db
      .prepare(`SELECT status, COUNT(*) AS n FROM "${table}" GROUP BY status`)
      .all() as { status: number; n: number }[];
    const rows = db.prepare(`SELECT execution_id, status FROM "${table}"`).all() as {
      execution_id: string;
      status: number;
    }[];
    db.close();
    expect(totals).toEqual({ rows_: TOTAL, ids: TOTAL });
    expect(new Map(byStatus.map((s) => [auditStatusFromCode(s.status) as string, s.n]))).toEqual(
      counts,
    );
    const mismatched = rows.filter((row) => {
      const index = Number(row.execution_id.slice("rel-".length));
      return statusList[tally.statuses[index]! - 1] !== auditStatusFromCode(row.status);
    });
    expect(mismatched).toEqual([]);

    // Nothing left behind.
    expect(timeouts()).toBeLessThanOrEqual(timersBefore);
    expect(tally.controllers.every((c) => getEventListeners(c.signal, "abort").length === 0)).toBe(
      true,
    );
    expect(executor.events.listenerCount("executionEvent")).toBe(busListeners);
    expect(executor.isExecuting(`rel-${TOTAL - 1}`)).toBe(false);

    // Memory does not grow with the count.
    const growthPerExecution = (heapEnd - heapWarm) / (TOTAL - WARM);
    expect(growthPerExecution).toBeLessThan(GROWTH_BYTES_PER_EXECUTION);
  }, 90_000);
});
