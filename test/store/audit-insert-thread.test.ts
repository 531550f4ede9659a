import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuditInsertThread, type InsertAnswer } from "../../src/store/audit-insert-thread.js";
import { openStore, type Store } from "../../src/store/index.js";

const here = dirname(fileURLToPath(import.meta.url));

let folder: string;
let database: string;

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), "aintern-insert-thread-"));
  database = join(folder, "a.db");
});

afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

function finished(executionId: string) {
  const startedAt = new Date();
  return {
    executionId,
    toolName: "t",
    status: "completed" as const,
    startedAt,
    completedAt: new Date(),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("SqliteAuditLog's insert thread", () => {
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it("keeps the store's thread free while an insert waits for another connection's lock", async () => {
    store = await openStore(`sqlite:${database}`, { busyTimeoutMs: 3_000 });
    const other = new Database(database);
    other.exec("BEGIN IMMEDIATE"); // another process's write transaction
    try {
      await store.audit.complete(finished("while-locked"));
      // The write-behind insert starts within these 60 ms and waits for the lock: on this
      // thread, it would hold the thread (and this timer) for the whole busy timeout.
      const asked = performance.now();
      await sleep(60);
      expect(performance.now() - asked).toBeLessThan(1_000);
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    expect(await store.audit.count({ executionId: "while-locked" })).toBe(1);
  });

  it("inserts the rows that finished while a batch was with the thread: at the next read, and without one", async () => {
    store = await openStore(`sqlite:${database}`);
    const raw = new Database(database, { readonly: true });
    try {
      const committed = () =>
        (
          raw.prepare("SELECT COUNT(*) AS n FROM agent_tools_tool_executions").get() as {
            n: number;
          }
        ).n;
      for (let i = 0; i < 5; i++) await store.audit.complete(finished(`first-${i}`));
      await sleep(25); // handed over; the thread is still starting
      for (let i = 0; i < 5; i++) await store.audit.complete(finished(`during-${i}`));
      expect(await store.audit.count()).toBe(10);
      for (let i = 0; i < 5; i++) await store.audit.complete(finished(`first-b-${i}`));
      await sleep(25);
      for (let i = 0; i < 5; i++) await store.audit.complete(finished(`during-b-${i}`));
      const until = Date.now() + 5_000;
      while (committed() < 20 && Date.now() < until) await sleep(10);
      expect(committed()).toBe(20);
    } finally {
      raw.close();
    }
  });

  it("inserts on the store's own connection when the thread cannot open the database", async () => {
    store = await openStore(`sqlite:${database}`);
    // The store's connection still has the file; a new connection cannot find it.
    unlinkSync(database);
    await store.audit.complete(finished("no-thread-1"));
    await store.audit.complete(finished("no-thread-2"));
    expect(await store.audit.count()).toBe(2);
  });

  it("loses and doubles nothing when the process exits with rows handed over and rows still waiting", async () => {
    const child = spawnSync(
      process.execPath,
      [
        "--import",
        "tsx",
        join(here, "fixtures", "exit-handed-over-child.ts"),
        `sqlite:${database}`,
      ],
      { cwd: join(here, "..", ".."), encoding: "utf8", timeout: 60_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    // Opening the store recovers what the exited process left in its journal.
    const reopened = await openStore(`sqlite:${database}`);
    await reopened.close();
    const raw = new Database(database, { readonly: true });
    const counts = raw
      .prepare(
        "SELECT COUNT(*) AS rows_, COUNT(DISTINCT execution_id) AS ids FROM agent_tools_tool_executions",
      )
      .get() as { rows_: number; ids: number };
    const statuses = raw
      .prepare("SELECT DISTINCT status FROM agent_tools_tool_executions")
      .all() as { status: number }[];
    raw.close();
    expect(statuses).toHaveLength(1); // every row is the completed one, none "interrupted"
    expect({ rows: counts.rows_, ids: counts.ids }).toEqual({ rows: 60, ids: 60 });
  });
});

describe("SqliteAuditLog's insert thread, in a process with nothing else to wait for", () => {
  it("resolves close and leaves no journal behind", () => {
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", join(here, "fixtures", "close-last-child.ts"), `sqlite:${database}`],
      { cwd: join(here, "..", ".."), encoding: "utf8", timeout: 60_000 },
    );
    expect({ status: child.status, stdout: child.stdout }, child.stderr).toEqual({
      status: 0,
      stdout: "CLOSED\n",
    });
    expect(readdirSync(folder).filter((name) => name.includes("-inflight."))).toEqual([]);
    const raw = new Database(database, { readonly: true });
    const row = raw.prepare("SELECT COUNT(*) AS n FROM agent_tools_tool_executions").get();
    raw.close();
    expect(row).toEqual({ n: 10 });
  });
});

describe("SqliteAuditLog's insert thread, while another connection holds the write lock", () => {
  it("keeps one batch with the thread: a read waits one busy timeout, not one per batch, and close returns", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    const store = await openStore(`sqlite:${database}`, { busyTimeoutMs: 300 });
    const other = new Database(database);
    other.exec("BEGIN IMMEDIATE");
    let readMs = 0;
    let closeMs = 0;
    try {
      for (let i = 0; i < 100; i++) {
        await store.audit.complete(finished(`locked-${i}`));
        await sleep(5);
      }
      let started = performance.now();
      await store.audit.count();
      readMs = performance.now() - started;
      started = performance.now();
      await store.close();
      closeMs = performance.now() - started;
    } finally {
      other.exec("COMMIT");
      other.close();
    }
    // Queued one behind another, each batch would have waited 300 ms: a read of seconds.
    expect({ read: readMs < 2_000, close: closeMs < 2_000 }).toEqual({ read: true, close: true });
    // The rows the lock held up wait in the closed store's journal; the next open inserts them,
    // and no read of another store tries them on the closed store's connection.
    const reopened = await openStore(`sqlite:${database}`);
    try {
      expect(await reopened.audit.count()).toBe(100);
    } finally {
      await reopened.close();
      await sleep(10); // warnings are emitted on the next tick
      process.off("warning", onWarning);
    }
    expect(warnings.map((w) => w.message)).toEqual([]);
  });
});

describe("AuditInsertThread", () => {
  let raw: Database.Database;
  const sql = "INSERT INTO t (id, name) VALUES (?, ?)";

  beforeEach(() => {
    raw = new Database(database);
    raw.pragma("journal_mode = WAL");
    raw.exec("CREATE TABLE t (id TEXT PRIMARY KEY, name TEXT NOT NULL)");
  });

  afterEach(() => {
    raw.close();
  });

  it("answers every batch once, in order, and settle() waits for the answers", async () => {
    const answers: InsertAnswer[] = [];
    const thread = new AuditInsertThread(database, sql, 1_000, (answer) => answers.push(answer));
    expect(thread.post(1, [["a", "x"]])).toBe(true);
    expect(
      thread.post(2, [
        ["b", "y"],
        ["c", "z"],
      ]),
    ).toBe(true);
    thread.settle();
    expect(answers).toEqual([
      { batch: 1, kind: "inserted" },
      { batch: 2, kind: "inserted" },
    ]);
    expect(thread.unanswered).toBe(0);
    expect(raw.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 3 });
    await thread.close();
    expect(thread.post(3, [["d", "w"]])).toBe(false);
  });

  it("tries each row of a batch that fails on its own, and names the ones refused", async () => {
    const answers: InsertAnswer[] = [];
    const thread = new AuditInsertThread(database, sql, 1_000, (answer) => answers.push(answer));
    thread.post(1, [
      ["a", "x"],
      ["b", null],
      ["c", "z"],
    ]);
    thread.settle();
    await thread.close();
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({
      batch: 1,
      kind: "refused",
      refused: [[1, expect.stringMatching(/NOT NULL/)]],
    });
    expect(raw.prepare("SELECT id FROM t ORDER BY id").all()).toEqual([{ id: "a" }, { id: "c" }]);
  });

  it("answers a batch it could not insert for a lock 'busy', without inserting any of it", async () => {
    raw.exec("BEGIN IMMEDIATE");
    const answers: InsertAnswer[] = [];
    const thread = new AuditInsertThread(database, sql, 20, (answer) => answers.push(answer));
    thread.post(1, [["a", "x"]]);
    thread.settle();
    raw.exec("COMMIT");
    await thread.close();
    expect(answers).toEqual([{ batch: 1, kind: "busy" }]);
    expect(raw.prepare("SELECT COUNT(*) AS n FROM t").get()).toEqual({ n: 0 });
  });

  it("answers 'unavailable' when it cannot open the database, and close() returns", async () => {
    const answers: InsertAnswer[] = [];
    const missing = join(folder, "missing.db");
    const thread = new AuditInsertThread(missing, sql, 1_000, (answer) => answers.push(answer));
    thread.post(1, [["a", "x"]]);
    thread.settle();
    await thread.close();
    expect(answers).toEqual([
      { batch: 1, kind: "unavailable", reason: expect.stringContaining("missing.db") },
    ]);
  });

  it("answers 'unavailable' at once when the thread cannot load better-sqlite3", async () => {
    const answers: InsertAnswer[] = [];
    const module = join(here, "fixtures", "sqlite-module-that-throws.cjs");
    const thread = new AuditInsertThread(database, sql, 60_000, (a) => answers.push(a), module);
    thread.post(1, [["a", "x"]]);
    const started = performance.now();
    thread.settle();
    expect(performance.now() - started).toBeLessThan(5_000);
    await thread.close();
    expect(answers).toEqual([
      { batch: 1, kind: "unavailable", reason: expect.stringContaining("cannot be loaded") },
    ]);
  });

  it("gives back, without waiting out its timeout, the batches of a thread that ended", async () => {
    const answers: InsertAnswer[] = [];
    const module = join(here, "fixtures", "sqlite-module-that-exits.cjs");
    const thread = new AuditInsertThread(database, sql, 60_000, (a) => answers.push(a), module);
    thread.post(1, [["a", "x"]]);
    const started = performance.now();
    thread.settle(); // its exit is an event of this loop, which settle blocks
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(answers).toEqual([{ batch: 1, kind: "unavailable", reason: expect.any(String) }]);
    expect(thread.post(2, [["b", "y"]])).toBe(false);
    await thread.close();
  });

  it("answers at close the batches handed over just before it", async () => {
    const answers: InsertAnswer[] = [];
    const thread = new AuditInsertThread(database, sql, 1_000, (answer) => answers.push(answer));
    for (let i = 1; i <= 20; i++) thread.post(i, [[`r${i}`, "x"]]);
    await thread.close();
    expect(answers.map((a) => a.batch)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(answers.every((a) => a.kind === "inserted")).toBe(true);
  });
});
