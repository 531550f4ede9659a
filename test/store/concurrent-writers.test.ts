// Several writers on one database at once: processes sharing a store (an agent, `aintern mcp`,
// the console), and stores of one process on one SQLite file. A write that loses a race waits
// for its turn; it never fails with "database is locked".

import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { PendingApprovalStatus } from "../../src/console/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { openSqliteStore, openStore, type Store } from "../../src/store/index.js";
import { connectionTurnKey } from "../../src/store/sqlite-file-turn.js";
import { DEFAULT_BUSY_TIMEOUT_MS } from "../../src/store/store-config.js";
import { pendingCall } from "./pending-call.js";
import { postgresTarget, storeTargets, useStoreTarget } from "./store-targets.js";

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const PROCESSES = 4;
const CALLS = 60;

/** Runs concurrent-writer-child.ts in `PROCESSES` processes at once; returns their last lines. */
async function runWriters(url: string, schema: string): Promise<unknown[]> {
  const outputs = await Promise.all(
    Array.from({ length: PROCESSES }, (_, p) =>
      run(
        process.execPath,
        [
          "--import",
          "tsx",
          join(here, "fixtures", "concurrent-writer-child.ts"),
          url,
          schema,
          `p${p}`,
          String(CALLS),
        ],
        { cwd: join(here, "..", "..") },
      ),
    ),
  );
  return outputs.map(({ stdout }) => JSON.parse(stdout.trim().split("\n").at(-1)!));
}

/**
 * Less than a write stuck behind another's lock takes: it waits out the busy timeout, then fails.
 * A step that took less waited for no lock held across an await.
 */
const NO_BUSY_WAIT_MS = DEFAULT_BUSY_TIMEOUT_MS * 0.4;

/** Checks that what began at `began` waited out no busy timeout. */
function expectNoBusyWait(began: number): void {
  expect(Date.now() - began).toBeLessThan(NO_BUSY_WAIT_MS);
}

/** Lets `count` microtasks run: a step begun that much later meets another's transaction elsewhere. */
async function microtasks(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await Promise.resolve();
}

/** Records execution `executionId` as completed in `store`'s audit log. */
/** The store module loaded a second time: another copy of the library in this process. */
async function secondCopy(): Promise<typeof import("../../src/store/index.js")> {
  vi.resetModules();
  const copy: typeof import("../../src/store/index.js") = await import("../../src/store/index.js");
  expect(copy.openStore).not.toBe(openStore);
  return copy;
}

function complete(store: Store, executionId: string): Promise<void> {
  const at = new Date();
  return store.audit.complete({
    executionId,
    toolName: "file-write",
    status: "completed",
    startedAt: at,
    completedAt: at,
  });
}

const allDone = {
  failures: [],
  done: { opened: CALLS, decided: CALLS, claimed: CALLS, finished: CALLS },
};

/**
 * Opens `count` pending approvals at once, through `stores` in turn, and checks that none waited
 * out busy_timeout (5 s) and that all were stored.
 */
async function openEachInTurn(stores: readonly Store[], count: number): Promise<void> {
  const began = Date.now();
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      stores[i % stores.length]!.approvals.open(pendingCall(`${i}`)),
    ),
  );
  expectNoBusyWait(began);
  expect(await stores[0]!.approvals.list()).toHaveLength(count);
}

describe.each(storeTargets)("several writers on one database, on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it(`loses no write when ${PROCESSES} processes open, decide and finish ${CALLS} calls each at once`, {
    timeout: 120_000,
  }, async () => {
    const place = target.place();
    await (await place.open()).close();
    for (const output of await runWriters(place.url, place.schema)) expect(output).toEqual(allDone);
    const store = await place.open();
    const rows = await store.approvals.list({ limit: 1000 });
    expect(rows).toHaveLength(PROCESSES * CALLS);
    expect(rows.filter((r) => r.status === PendingApprovalStatus.Approved)).toHaveLength(
      (PROCESSES * CALLS) / 2,
    );
    expect(await store.executions.list()).toEqual([]);
  });

  it("opens three stores of one process on one new database at once", async () => {
    const place = target.place();
    // Each migrates (or finds the tables made) in turn: none waits out busy_timeout and fails.
    const stores = await Promise.all([place.open(), place.open(), place.open()]);
    await stores[0]!.permissions.add({
      id: "g-1",
      toolId: "file-write",
      scope: "tool",
      maxRiskLevel: RiskLevel.Medium,
      createdAt: new Date(),
    });
    expect(await stores[2]!.permissions.list()).toHaveLength(1);
  });

  it("reads the audit log without waiting out busy_timeout while a transaction of the store is open", async () => {
    const store = await target.place().open();
    // The read inserts the rows waiting in the journal first (SQLite: by the insert thread, and
    // it waits for the thread). Begun while approvals.open held the write lock across an await,
    // that wait blocked the event loop the transaction needed to commit, until busy_timeout
    // (5 s), and the read missed the rows. Each k starts the read k microtasks later.
    for (let k = 0; k < 40; k++) {
      await complete(store, `e-${k}`);
      const began = Date.now();
      const opening = store.approvals.open(pendingCall(`${k}`));
      await microtasks(k);
      expect(await store.audit.count()).toBe(k + 1);
      await opening;
      expectNoBusyWait(began);
    }
  });

  it("loses no write when two stores of one process use the same database at once", async () => {
    const place = target.place();
    const [agent, consoleSide] = [await place.open(), await place.open()];
    const work = Array.from({ length: CALLS }, async (_, i) => {
      const [mine, theirs] = i % 2 === 0 ? [agent, consoleSide] : [consoleSide, agent];
      const row = await mine.approvals.open(pendingCall(`${i}`));
      const decided = await theirs.approvals.decide(row.id, { approved: true }, "ada");
      expect(decided.ok).toBe(true);
      expect(await mine.approvals.claim(row.id)).toBe(true);
    });
    await Promise.all(work);
    const rows = await agent.approvals.list({ status: PendingApprovalStatus.Approved });
    expect(rows).toHaveLength(CALLS);
    expect(rows.every((r) => r.appliedAt !== undefined)).toBe(true);
  });
});

/**
 * Runs `work` in a new folder for a database file. What `work` passes to `closing` is closed when
 * it ends, last first, and the folder is then removed.
 */
async function inNewFolder(
  work: (folder: string, closing: <T extends Closable>(it: T) => T) => Promise<void>,
): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), "aintern-writers-"));
  const opened: Closable[] = [];
  try {
    await work(folder, (it) => {
      opened.push(it);
      return it;
    });
  } finally {
    for (const it of opened.reverse()) await it.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

interface Closable {
  close(): unknown;
}

describe("stores of one process on one SQLite file", () => {
  it("closes a store with no insert thread without waiting out another store's transaction", () =>
    inNewFolder(async (folder, closing) => {
      const file = join(folder, "audit.db");
      const agent = closing(await openStore(`sqlite:${file}`));
      // Closing inserts the rows still waiting in the journal, on this thread for a database
      // passed in: in the middle of the other store's approvals.open it waited for that store's
      // lock, blocking the thread the other store needed to commit, for busy_timeout.
      for (let k = 0; k < 12; k++) {
        const database = new Database(file);
        const passed = await openSqliteStore(database);
        await complete(passed, `e-${k}`);
        const began = Date.now();
        const opening = agent.approvals.open(pendingCall(`${k}`));
        await microtasks(k);
        await passed.close();
        await opening;
        database.close();
        expectNoBusyWait(began);
      }
      expect(await agent.audit.count()).toBe(12);
    }));

  it("take turns with the stores of another copy of the library", () =>
    inNewFolder(async (folder, closing) => {
      const file = join(folder, "audit.db");
      const agent = closing(await openStore(`sqlite:${file}`));
      // A second copy (two versions in one program, a bundle beside the package): its turns were
      // its own, and the two copies' stores deadlocked as two stores of one copy did before turns.
      const copy = await secondCopy();
      const consoleSide = closing(await copy.openStore(`sqlite:${file}`));
      await openEachInTurn([agent, consoleSide], 10);
    }));

  it("see the rows another copy of the library made durable and has not inserted yet", () =>
    inNewFolder(async (folder, closing) => {
      const file = join(folder, "audit.db");
      const agent = closing(await openStore(`sqlite:${file}`));
      const copy = await secondCopy();
      const consoleSide = closing(await copy.openStore(`sqlite:${file}`));
      // The row waits in the agent's journal for its write-behind insert (20 ms): the console's
      // read, through the other copy, inserts it first, as a read through this copy's stores does.
      await complete(agent, "e-behind");
      expect(await consoleSide.audit.count()).toBe(1);
      expect((await consoleSide.audit.get("e-behind"))?.status).toBe("completed");
    }));

  it("take turns when they reach the file by different paths", () =>
    inNewFolder(async (folder, closing) => {
      mkdirSync(join(folder, "real"));
      // One file, two spellings (as macOS's /tmp and /private/tmp): the stores took turns by the
      // path they were given, so each waited for the other's lock blocking the thread the other
      // needed, and most opens failed with "database is locked" after busy_timeout.
      symlinkSync(join(folder, "real"), join(folder, "link"), "junction");
      const agent = closing(await openStore(`sqlite:${join(folder, "real", "audit.db")}`));
      const consoleSide = closing(await openStore(`sqlite:${join(folder, "link", "audit.db")}`));
      await openEachInTurn([agent, consoleSide], 20);
    }));

  it("inserts a full write-behind batch on this thread without waiting out another store's transaction", () =>
    inNewFolder(async (folder, closing) => {
      const file = join(folder, "audit.db");
      const agent = closing(await openStore(`sqlite:${file}`));
      // A database passed in has no insert thread: its rows are inserted on this thread, at once
      // when 256 wait. In the middle of the other store's approvals.open (a microtask away), that
      // insert waited for the other store's write lock, blocking the thread it needed to commit.
      const database = closing(new Database(file));
      const passed = closing(await openSqliteStore(database));
      for (let k = 0; k < 12; k++) {
        const began = Date.now();
        const opening = agent.approvals.open(pendingCall(`${k}`));
        await microtasks(k);
        await Promise.all(Array.from({ length: 300 }, (_, j) => complete(passed, `e-${k}-${j}`)));
        await opening;
        expectNoBusyWait(began);
      }
      expect(await passed.audit.count()).toBe(12 * 300);
    }));
});

describe("stores given one in-memory Database", () => {
  it("take turns on it: one store's transaction never has another's statements run inside it", async () => {
    const database = new Database(":memory:");
    try {
      // An in-memory database took no turns: of 20 opens at once on two stores, most failed
      // with "cannot start a transaction within a transaction".
      const agent = await openSqliteStore(database);
      const consoleSide = await openSqliteStore(database);
      const copy = await secondCopy();
      const third = await copy.openSqliteStore(database);
      await openEachInTurn([agent, consoleSide, third], 30);
      // Audit rows and approvals at once, on all three.
      await Promise.all(
        Array.from({ length: 10 }, async (_, k) => {
          await complete(k % 2 === 0 ? agent : consoleSide, `e-${k}`);
          await third.approvals.open(pendingCall(`audit-${k}`));
        }),
      );
      expect(await third.audit.count()).toBe(10);
      for (const store of [third, consoleSide, agent]) await store.close();
    } finally {
      database.close();
    }
  });

  it("commit an audit row in its own turn, never inside a transaction that then rolls back", async () => {
    const database = new Database(":memory:");
    try {
      const store = await openSqliteStore(database);
      // Each doomed approval's insert fails after its transaction began (and read): the
      // transaction rolls back. An audit row committed on the connection meanwhile, without
      // turns, was inside that transaction and was lost with it.
      database.exec(
        "CREATE TRIGGER refuse_doomed BEFORE INSERT ON agent_tools_pending_approvals " +
          "WHEN NEW.call_key LIKE 'call-doomed-%' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END",
      );
      for (let k = 0; k < 12; k++) {
        const opening = store.approvals.open(pendingCall(`doomed-${k}`));
        await microtasks(k);
        const completing = complete(store, `e-${k}`);
        await expect(opening).rejects.toThrow(/refused by the test/);
        await completing;
      }
      expect(await store.audit.count()).toBe(12);
      await store.close();
    } finally {
      database.close();
    }
  });

  it("give each in-memory connection a turn key of its own, the same in every copy of the library", async () => {
    const [a, b] = [new Database(":memory:"), new Database(":memory:")];
    try {
      vi.resetModules();
      const copy: typeof import("../../src/store/sqlite-file-turn.js") = await import(
        "../../src/store/sqlite-file-turn.js"
      );
      expect(copy.connectionTurnKey).not.toBe(connectionTurnKey);
      expect(connectionTurnKey(a)).toBe(connectionTurnKey(a));
      expect(copy.connectionTurnKey(a)).toBe(connectionTurnKey(a));
      expect(connectionTurnKey(b)).not.toBe(connectionTurnKey(a));
      expect(connectionTurnKey(a)).toMatch(/^memory:\d+$/);
    } finally {
      a.close();
      b.close();
    }
  });
});

describe("a row the journal cannot take, beside another store's transaction", () => {
  it("is committed in the file's turn, without waiting out the other store's lock", () =>
    inNewFolder(async (folder, closing) => {
      const file = join(folder, "audit.db");
      const agent = closing(await openStore(`sqlite:${file}`));
      const worker = closing(await openStore(`sqlite:${file}`));
      // A journal that refuses its lines (a full disk, a file-size limit): the row is committed
      // directly, on this thread. In the middle of the other store's approvals.open it waited for
      // that store's lock, blocking the thread the other store needed to commit, for busy_timeout,
      // and then failed: the row reached neither the table nor the journal.
      // The journal class the stores use (imported now: the opener is loaded when first used, and
      // another test of this file reset the module registry).
      const { InflightJournal } = await import("../../src/store/inflight-journal.js");
      const refuse = vi.spyOn(InflightJournal.prototype, "write").mockImplementation(() => {
        throw Object.assign(new Error("ENOSPC: no space left on device, write"), {
          code: "ENOSPC",
        });
      });
      try {
        for (let k = 0; k < 8; k++) {
          const began = Date.now();
          const opening = agent.approvals.open(pendingCall(`${k}`));
          await microtasks(k);
          await complete(worker, `e-${k}`);
          await opening;
          expectNoBusyWait(began);
        }
        expect(refuse).toHaveBeenCalled();
        expect(await agent.audit.count()).toBe(8);
      } finally {
        refuse.mockRestore();
      }
    }));
});

describe("several writers on a PostgreSQL database whose default isolation is serializable", () => {
  const target = useStoreTarget(postgresTarget);

  it(`loses no write when ${PROCESSES} processes open, decide and finish ${CALLS} calls each at once`, {
    timeout: 120_000,
  }, async () => {
    const place = target.place();
    await (await place.open()).close();
    // As a database, a role or the connection string may set it. The store's statements are
    // written for READ COMMITTED: under SERIALIZABLE most writes of processes writing at once
    // failed with 40001 "could not serialize access" (their max() + 1 counters read every row).
    const url = new URL(place.url);
    url.searchParams.set("options", "-c default_transaction_isolation=serializable");
    for (const output of await runWriters(url.toString(), place.schema)) {
      expect(output).toEqual(allDone);
    }
  });
});
