/**
 * Audit log cost per execution, SQLite (WAL, synchronous = NORMAL), on the store's own table
 * (spec 003's tool_executions with its five indexes, plus the outcome columns).
 *
 *   (a) floor: one prepared INSERT per execution, values converted as the store converts them
 *   (b) naive crash evidence: INSERT at begin + UPDATE at complete
 *   (c) this store: await begin (journal line) + await complete (group-committed insert), one at a time
 *   (d) this store: begin + complete with 64 executions in flight (throughput per execution)
 *   (e) this store: complete alone, no begin (what the journal adds is c - e)
 *   (f) in memory: (a) and the store's complete, where no disk hides the API's own cost
 *
 * Run: `npx tsx bench/audit.bench.ts` (or import and call `run()`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import type { AuditRecord, AuditStart } from "../src/execution/index.js";
import { toAuditRow } from "../src/store/audit-row.js";
import { openStore } from "../src/store/index.js";
import { migrateStore } from "../src/store/migrate-store.js";
import { sqliteInsertSql, sqliteRowValues } from "../src/store/sqlite-audit-log.js";

/** Per-execution costs in microseconds, and their ratios to the floor. */
export interface AuditBenchFigures {
  readonly executions: number;
  readonly floorUs: number;
  readonly naiveUs: number;
  readonly storeSequentialUs: number;
  readonly storeInflight64Us: number;
  readonly storeCompleteOnlyUs: number;
  /** In memory (no file I/O): a prepared insert, and the store's complete; the gap is API cost. */
  readonly memoryFloorUs: number;
  readonly memoryCompleteUs: number;
  readonly naiveRatio: number;
  readonly storeSequentialRatio: number;
  readonly storeInflight64Ratio: number;
}

const parameters = { path: "src/app.ts", encoding: "utf-8", maxLines: 200 };

function start(index: number): AuditStart {
  return {
    executionId: `exec-${index}`,
    toolName: "file-read",
    startedAt: new Date(),
    parameters,
    batchId: null,
    userId: "user-1",
  };
}

function record(begun: AuditStart): AuditRecord {
  return {
    executionId: begun.executionId,
    toolName: begun.toolName,
    status: "completed",
    startedAt: begun.startedAt,
    completedAt: new Date(),
    resultSummary: "Read 200 lines",
    wasApproved: true,
  };
}

async function migratedFile(folder: string, name: string): Promise<string> {
  const path = join(folder, name);
  const store = await openStore(`sqlite:${path}`);
  await store.close();
  return path;
}

function openRaw(path: string): Database.Database {
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  return db;
}

function microseconds(startNs: bigint, count: number): number {
  return Number(process.hrtime.bigint() - startNs) / 1000 / count;
}

async function floor(folder: string, count: number): Promise<number> {
  const db = openRaw(await migratedFile(folder, "floor.db"));
  const insert = db.prepare(sqliteInsertSql("agent_tools"));
  const t0 = process.hrtime.bigint();
  for (let index = 0; index < count; index++) {
    const s = start(index);
    const row = toAuditRow({ ...record(s), parameters }, crypto.randomUUID(), undefined);
    insert.run(sqliteRowValues(row));
  }
  const us = microseconds(t0, count);
  db.close();
  return us;
}

async function memoryFloor(count: number): Promise<number> {
  const db = new Database(":memory:");
  const kysely = new Kysely<unknown>({ dialect: new SqliteDialect({ database: db }) });
  await migrateStore(kysely, { dialect: "sqlite", schema: "agent_tools" }, db);
  const insert = db.prepare(sqliteInsertSql("agent_tools"));
  const t0 = process.hrtime.bigint();
  for (let index = 0; index < count; index++) {
    const s = start(index);
    const row = toAuditRow({ ...record(s), parameters }, crypto.randomUUID(), undefined);
    insert.run(sqliteRowValues(row));
  }
  const us = microseconds(t0, count);
  await kysely.destroy();
  return us;
}

async function memoryComplete(count: number): Promise<number> {
  const store = await openStore("sqlite::memory:");
  const t0 = process.hrtime.bigint();
  for (let index = 0; index < count; index++) {
    await store.audit.complete({ ...record(start(index)), parameters });
  }
  const us = microseconds(t0, count);
  await store.close();
  return us;
}

async function naive(folder: string, count: number): Promise<number> {
  const db = openRaw(await migratedFile(folder, "naive.db"));
  const insert = db.prepare(sqliteInsertSql("agent_tools"));
  const update = db.prepare(
    `UPDATE "agent_tools_tool_executions" SET status = ?, completed_at = ?, duration_ms = ?, result_summary = ?, error_message = ?, error_code = ?, was_approved = ? WHERE id = ?`,
  );
  const t0 = process.hrtime.bigint();
  for (let index = 0; index < count; index++) {
    const s = start(index);
    const id = crypto.randomUUID();
    const pending = toAuditRow(
      { ...s, status: "inProgress", completedAt: s.startedAt, durationMs: 0 },
      id,
      undefined,
    );
    insert.run(sqliteRowValues(pending));
    const done = toAuditRow(record(s), id, undefined);
    update.run(
      done.status,
      done.completedAt.toISOString(),
      done.durationMs,
      done.resultSummary,
      done.errorMessage,
      done.errorCode,
      done.wasApproved ? 1 : 0,
      id,
    );
  }
  const us = microseconds(t0, count);
  db.close();
  return us;
}

async function storeSequential(folder: string, count: number, withBegin: boolean): Promise<number> {
  const store = await openStore(`sqlite:${join(folder, withBegin ? "seq.db" : "only.db")}`);
  const t0 = process.hrtime.bigint();
  for (let index = 0; index < count; index++) {
    const s = start(index);
    if (withBegin) {
      await store.audit.begin(s);
      await store.audit.complete(record(s));
    } else {
      await store.audit.complete({ ...record(s), parameters });
    }
  }
  const us = microseconds(t0, count);
  await store.close();
  return us;
}

async function storeInflight(folder: string, count: number, inflight: number): Promise<number> {
  const store = await openStore(`sqlite:${join(folder, "inflight.db")}`);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const s = start(next++);
      await store.audit.begin(s);
      await store.audit.complete(record(s));
    }
  };
  const t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: inflight }, worker));
  const us = microseconds(t0, count);
  await store.close();
  return us;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/**
 * Runs every measure `rounds` times, interleaved and each on fresh database files, and returns
 * the median of each (this machine's file writes are noisy; interleaving spreads the noise).
 */
export async function run(executions = 4000, rounds = 5): Promise<AuditBenchFigures> {
  const folder = mkdtempSync(join(tmpdir(), "aintern-audit-bench-"));
  const samples = { floor: [] as number[], naive: [] as number[], sequential: [] as number[] };
  const more = { inflight: [] as number[], completeOnly: [] as number[] };
  const memory = { floor: [] as number[], complete: [] as number[] };
  try {
    // Warm up the JIT and the file system on a throwaway pass.
    const warm = mkdtempSync(join(folder, "warm-"));
    await floor(warm, 1000);
    await naive(warm, 1000);
    await storeSequential(warm, 1000, true);
    await storeInflight(warm, 1000, 64);
    rmSync(warm, { recursive: true, force: true });
    for (let round = 0; round < rounds; round++) {
      const at = mkdtempSync(join(folder, "round-"));
      const measures = [
        async () => samples.floor.push(await floor(at, executions)),
        async () => samples.naive.push(await naive(at, executions)),
        async () => samples.sequential.push(await storeSequential(at, executions, true)),
        async () => more.inflight.push(await storeInflight(at, executions, 64)),
        async () => more.completeOnly.push(await storeSequential(at, executions, false)),
        async () => memory.floor.push(await memoryFloor(executions * 5)),
        async () => memory.complete.push(await memoryComplete(executions * 5)),
      ];
      // Each round starts with a different measure, so no measure always runs first.
      for (let step = 0; step < measures.length; step++) {
        await measures[(round + step) % measures.length]?.();
      }
      rmSync(at, { recursive: true, force: true });
    }
    const floorUs = median(samples.floor);
    const naiveUs = median(samples.naive);
    const storeSequentialUs = median(samples.sequential);
    const storeInflight64Us = median(more.inflight);
    return {
      executions,
      floorUs: round(floorUs),
      naiveUs: round(naiveUs),
      storeSequentialUs: round(storeSequentialUs),
      storeInflight64Us: round(storeInflight64Us),
      storeCompleteOnlyUs: round(median(more.completeOnly)),
      memoryFloorUs: round(median(memory.floor)),
      memoryCompleteUs: round(median(memory.complete)),
      naiveRatio: round(naiveUs / floorUs),
      storeSequentialRatio: round(storeSequentialUs / floorUs),
      storeInflight64Ratio: round(storeInflight64Us / floorUs),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run(Number(process.env.AUDIT_BENCH_EXECUTIONS ?? 4000));
  console.log(
    `audit log, SQLite WAL + synchronous=NORMAL, ${figures.executions} executions, median of 5 rounds`,
  );
  console.log(`(a) floor, one prepared insert          ${figures.floorUs} µs`);
  console.log(
    `(b) naive insert + update               ${figures.naiveUs} µs  (${figures.naiveRatio}x floor)`,
  );
  console.log(
    `(c) begin + complete, sequential        ${figures.storeSequentialUs} µs  (${figures.storeSequentialRatio}x floor)`,
  );
  console.log(
    `(d) begin + complete, 64 in flight      ${figures.storeInflight64Us} µs  (${figures.storeInflight64Ratio}x floor)`,
  );
  console.log(`(e) complete only, sequential           ${figures.storeCompleteOnlyUs} µs`);
  console.log(
    `(f) in memory: insert ${figures.memoryFloorUs} µs, store complete ${figures.memoryCompleteUs} µs`,
  );
}
