import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AUDIT_COLUMNS } from "../../src/store/audit-row.js";
import { openStore, type Store } from "../../src/store/index.js";
import type { SqliteAuditLog } from "../../src/store/sqlite-audit-log.js";

const here = dirname(fileURLToPath(import.meta.url));

/** Review (s5): what a kill -9 right after `complete` resolves would find on disk. */
/** Runs `fixtures/<name>` under tsx with `args` and waits for it to end (a minute at most). */
function runFixture(name: string, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", join(here, "fixtures", name), ...args], {
    cwd: join(here, "..", ".."),
    encoding: "utf8",
    timeout: 60_000,
  });
}

/** The executions of `ids` with neither a row in `database` nor a done line in `journal`. */
function notOnDisk(database: string, journal: string, ids: readonly string[]): string[] {
  const text = readFileSync(journal, "utf8");
  const raw = new Database(database, { readonly: true });
  const rows = raw.prepare("SELECT execution_id AS id FROM agent_tools_tool_executions").all();
  raw.close();
  const inTable = new Set((rows as { id: string }[]).map((r) => r.id));
  return ids.filter((id) => !inTable.has(id) && !hasDone(text, id));
}

describe("SqliteAuditLog write-behind", () => {
  let folder: string;
  let store: Store;
  let database: string;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), "aintern-write-behind-"));
    database = join(folder, "a.db");
    store = await openStore(`sqlite:${database}`);
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("keeps every resolved complete's done line (or row) on disk when a 256-row insert compacts the journal", async () => {
    const audit = store.audit as SqliteAuditLog;
    const journal = audit.journalPath as string;
    const count = 300;
    const big = "x".repeat(15_000);
    const startedAt = new Date();
    // 300 starts of 15 KB: the journal passes 4 MiB (compaction size).
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        audit.begin({ executionId: `e-${i}`, toolName: "t", startedAt, parameters: { big } }),
      ),
    );
    // All finish in one tick: one journal write of 300 done lines; the 256th row's callback
    // inserts 256 rows at once and tidies the journal while 44 callbacks have not run yet.
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        audit.complete({
          executionId: `e-${i}`,
          toolName: "t",
          status: "completed",
          startedAt,
          completedAt: new Date(),
        }),
      ),
    );
    // Every complete has resolved ("durable"). What would a kill -9 now leave?
    expect(
      notOnDisk(
        database,
        journal,
        Array.from({ length: count }, (_, i) => `e-${i}`),
      ),
    ).toEqual([]);
  });

  it("keeps every resolved complete's done line (or row) on disk when a 256-row insert empties the journal (completes without begin)", async () => {
    const audit = store.audit as SqliteAuditLog;
    const count = 300;
    const startedAt = new Date();
    // 300 done lines of about 300 bytes in one write: the journal passes 64 KiB, and with nothing
    // in flight the 256th row's insert empties it while 44 rows still wait for their callbacks.
    await Promise.all(
      Array.from({ length: count }, (_, i) =>
        audit.complete({
          executionId: `nb-${i}`,
          toolName: "t",
          status: "completed",
          startedAt,
          completedAt: new Date(),
          parameters: { pad: "y".repeat(200) },
        }),
      ),
    );
    const ids = Array.from({ length: count }, (_, i) => `nb-${i}`);
    expect(notOnDisk(database, audit.journalPath as string, ids)).toEqual([]);
  });

  it("records every execution whose complete resolved as completed after a kill -9 (journal compacted by a 256-row insert)", async () => {
    const crashed = join(folder, "crash.db");
    const child = runFixture("write-behind-compact-child.ts", `sqlite:${crashed}`);
    expect(child.signal, child.stderr).toBe("SIGKILL");
    const reopened = await openStore(`sqlite:${crashed}`);
    try {
      const interrupted = await reopened.audit.count({ status: "interrupted" });
      const completed = await reopened.audit.count({ status: "completed" });
      expect({ completed, interrupted }).toEqual({ completed: 300, interrupted: 0 });
    } finally {
      await reopened.close();
    }
  });

  it("recovers a dead process's finished row into the table of its own schema, not of whichever store opens the file next", async () => {
    const shared = join(folder, "shared.db");
    const child = runFixture("write-behind-schema-child.ts", `sqlite:${shared}`, "alpha");
    expect(child.signal, child.stderr).toBe("SIGKILL");
    // Another program using the same file with its own prefix opens first.
    const beta = await openStore(`sqlite:${shared}`, { schema: "beta" });
    const inBeta = await beta.audit.count({ executionId: "of-alpha" });
    await beta.close();
    const alpha = await openStore(`sqlite:${shared}`, { schema: "alpha" });
    const inAlpha = await alpha.audit.count({ executionId: "of-alpha" });
    await alpha.close();
    expect({ inAlpha, inBeta }).toEqual({ inAlpha: 1, inBeta: 0 });
  });

  it("checks a done line's values on recovery as complete() checks them (a journal anyone could have dropped beside the database)", async () => {
    const column = (name: string): number => (AUDIT_COLUMNS as readonly string[]).indexOf(name);
    const audit = store.audit as SqliteAuditLog;
    const startedAt = new Date();
    await audit.complete({
      executionId: "genuine",
      toolName: "t",
      status: "completed",
      startedAt,
      completedAt: new Date(),
    });
    const line = readFileSync(audit.journalPath as string, "utf8")
      .split("\n")
      .find((l) => l.startsWith('{"done":')) as string;
    const { done: values, c: signature } = JSON.parse(line) as {
      done: (string | number | null)[];
      c: string;
    };
    values[column("id")] = "0190aaaa-0000-7000-8000-000000000001";
    values[column("execution_id")] = "forged-1";
    // Values toAuditRow never lets through: control characters (a terminal escape) and a time
    // that is no time (aintern audit's table calls toISOString on it).
    values[column("tool_name")] = "\u001b]0;pwned\u0007shell";
    const escaped = [...values];
    escaped[column("id")] = "0190aaaa-0000-7000-8000-000000000002";
    escaped[column("execution_id")] = "forged-2";
    values[column("started_at")] = "garbage";
    // pid 4194305 is above Linux's pid_max: "dead". The lines carry this version's signature.
    const doneLine = (v: unknown[]): string => `{"done":${JSON.stringify(v)},"c":"${signature}"}\n`;
    writeFileSync(`${database}-inflight.4194305.abcdef`, doneLine(values) + doneLine(escaped));
    await store.close();
    store = await openStore(`sqlite:${database}`);
    const forged = await store.audit.get("forged-1");
    // Either not taken, or taken only as toAuditRow would have written it.
    expect(
      forged === undefined ||
        (!Number.isNaN(forged.startedAt.getTime()) && !forged.toolName.includes("\u001b")),
      JSON.stringify(forged),
    ).toBe(true);
    expect(() => forged?.startedAt.toISOString()).not.toThrow();
    // A row that can be one is taken, its text cleaned as complete() would.
    const cleaned = await store.audit.get("forged-2");
    expect(cleaned?.toolName).toBe("\uFFFD]0;pwned\uFFFDshell");
  });

  it("leaves an execution running in this thread alone when a store is opened on the same file in a worker thread", async () => {
    const startedAt = new Date();
    await store.audit.begin({ executionId: "running-here", toolName: "t", startedAt });
    const fixture = join(here, "fixtures", "write-behind-worker-open.ts");
    const code = `const { register } = await import("tsx/esm/api"); register(); await import(${JSON.stringify(fixture)});`;
    const worker = new Worker(code, { eval: true, workerData: database });
    await new Promise((resolve, reject) => {
      worker.on("error", reject);
      worker.on("exit", resolve);
    });
    const whileRunning = (await store.audit.get("running-here"))?.status;
    await store.audit.complete({
      executionId: "running-here",
      toolName: "t",
      status: "completed",
      startedAt,
      completedAt: new Date(),
    });
    const finished = (await store.audit.get("running-here"))?.status;
    expect({ whileRunning, finished }).toEqual({ whileRunning: undefined, finished: "completed" });
  });

  it("inserts a row whose first insert met a busy database (another process writing) once the lock is free, not only after a restart", async () => {
    await store.close();
    store = await openStore(`sqlite:${database}`, { busyTimeoutMs: 20 });
    const other = new Database(database);
    other.exec("BEGIN IMMEDIATE"); // another process's write transaction
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      const startedAt = new Date();
      await store.audit.complete({
        executionId: "during-lock",
        toolName: "t",
        status: "completed",
        startedAt,
        completedAt: new Date(),
      });
      await new Promise((resolve) => setTimeout(resolve, 150)); // the write-behind insert runs
      other.exec("COMMIT");
      await store.audit.complete({
        executionId: "after-lock",
        toolName: "t",
        status: "completed",
        startedAt,
        completedAt: new Date(),
      });
      await new Promise((resolve) => setTimeout(resolve, 150));
      const during = await store.audit.count({ executionId: "during-lock" });
      const after = await store.audit.count({ executionId: "after-lock" });
      expect({ during, after, warnings: warnings.map((w) => w.message) }).toEqual({
        during: 1,
        after: 1,
        warnings: [],
      });
    } finally {
      process.off("warning", onWarning);
      other.close();
    }
  });
});

function hasDone(text: string, executionId: string): boolean {
  return text
    .split("\n")
    .some((line) => line.startsWith('{"done":') && line.includes(`"${executionId}"`));
}

describe("SqliteAuditLog write-behind, a batch with a refused row", () => {
  it("keeps the journal lines of rows still to be tried while the batch's other rows go in one by one", async () => {
    const folder = mkdtempSync(join(tmpdir(), "aintern-write-behind-refused-"));
    const database = join(folder, "a.db");
    let store = await openStore(`sqlite:${database}`);
    const admin = new Database(database);
    admin.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON agent_tools_tool_executions
       WHEN NEW.tool_name = 'refused' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    const onWarning = (): void => undefined;
    process.on("warning", onWarning);
    try {
      // Nothing in flight and a journal past 64 KiB: a tidy with no live line would empty it.
      const startedAt = new Date();
      await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          store.audit.complete({
            executionId: `r-${i}`,
            toolName: i === 119 ? "refused" : "t",
            status: "completed",
            startedAt,
            completedAt: new Date(),
            parameters: { pad: "p".repeat(800) },
          }),
        ),
      );
      // The batch fails on the last row; the others go in one by one, the last is set aside.
      expect(await store.audit.count()).toBe(119);
      admin.exec("DROP TRIGGER refuse");
      await store.close();
      store = await openStore(`sqlite:${database}`);
      expect(await store.audit.count({ executionId: "r-119" })).toBe(1);
    } finally {
      process.off("warning", onWarning);
      admin.close();
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
