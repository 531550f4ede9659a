import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { AuditStatus } from "../../src/execution/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { openPostgresStore } from "../../src/store/postgres.js";
import { pendingCall } from "./pending-call.js";
import { postgresUrl } from "./store-targets.js";

const admin = new pg.Pool({ connectionString: postgresUrl, max: 2 });
const schemas: string[] = [];

afterAll(async () => {
  for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

function freshName(prefix: string): string {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  schemas.push(name);
  return name;
}

/** The sessions the server has for `applicationName`, with what each last ran. */
async function sessions(applicationName: string): Promise<{ query: string }[]> {
  const { rows } = await admin.query<{ query: string }>(
    "SELECT query FROM pg_stat_activity WHERE application_name = $1",
    [applicationName],
  );
  return rows;
}

async function until(done: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await done()) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Watches `store` as the web console does, checks that the watch LISTENs, that every kind of
 * query of the store still goes through, and that a change made by `other` is heard.
 */
async function useWhileWatched(store: Store, other: Store, applicationName: string) {
  const heard: string[] = [];
  const stopApprovals = store.approvals.watch((change) => heard.push(change));
  const stopExecutions = store.executions.watch(() => undefined);
  try {
    // The feed's first look tells every watcher to read; then the LISTEN is up.
    await until(() => heard.length > 0);
    expect(heard.length).toBeGreaterThan(0);
    await until(async () =>
      (await sessions(applicationName)).some((s) => /^LISTEN/i.test(s.query)),
    );
    expect((await sessions(applicationName)).map((s) => s.query)).toContainEqual(
      expect.stringMatching(/^LISTEN/i),
    );

    // Writes and reads of every part, several at once.
    const opened = await Promise.all(
      ["a", "b", "c", "d"].map((n) => store.approvals.open(pendingCall(n))),
    );
    expect(opened).toHaveLength(4);
    const first = opened[0];
    if (first === undefined) throw new Error("no approval opened");
    const decided = await store.approvals.decide(first.id, { approved: true }, "alice");
    expect(decided.ok).toBe(true);
    expect(await store.approvals.list()).toHaveLength(4);
    await Promise.all(
      ["e1", "e2", "e3"].map(async (id) => {
        await store.audit.begin({ executionId: id, toolName: "file-read", startedAt: new Date() });
        await store.executions.start({
          executionId: id,
          toolId: "file-read",
          toolName: "Read File",
          startedAt: new Date(),
        });
        await store.executions.finish(id);
        await store.audit.complete({
          executionId: id,
          toolName: "file-read",
          status: AuditStatus.Completed,
          startedAt: new Date(),
          completedAt: new Date(),
        });
      }),
    );
    expect(await store.audit.count()).toBe(3);
    expect((await store.audit.get("e2"))?.status).toBe(AuditStatus.Completed);
    await store.calls.get("no-such-call");

    // Another store (another process) makes a change: the watcher hears of it.
    await until(() => heard.includes("approvals"));
    heard.length = 0;
    await other.approvals.open(pendingCall("other"));
    await until(() => heard.includes("approvals"));
    expect(heard).toContain("approvals");
  } finally {
    stopApprovals();
    stopExecutions();
  }
}

describe("a PostgreSQL store with a small pool", () => {
  it.each([1, 2])(
    "works with poolSize %i while watched, hears another store, and close() ends every connection",
    async (poolSize) => {
      const schema = freshName("aintern_pool");
      const applicationName = `${schema}_app`;
      const store = await openStore(postgresUrl, {
        schema,
        poolSize,
        applicationName,
        connectTimeoutMs: 2_000,
      });
      const other = await openStore(postgresUrl, { schema, applicationName: `${schema}_other` });
      try {
        await useWhileWatched(store, other, applicationName);
      } finally {
        await store.close();
        await other.close();
      }
      await until(async () => (await sessions(applicationName)).length === 0, 500);
      expect(await sessions(applicationName)).toEqual([]);
    },
    30_000,
  );

  it.each([1, 2])(
    "works with a pg.Pool of %i connections passed in while watched, and close() ends what it opened",
    async (max) => {
      const schema = freshName("aintern_pool");
      const applicationName = `${schema}_app`;
      const pool = new pg.Pool({
        connectionString: postgresUrl,
        max,
        application_name: applicationName,
        connectionTimeoutMillis: 2_000,
      });
      try {
        const store = await openPostgresStore(pool, { schema });
        const other = await openStore(postgresUrl, { schema, applicationName: `${schema}_other` });
        try {
          await useWhileWatched(store, other, applicationName);
          expect(pool.totalCount).toBeLessThanOrEqual(max);
        } finally {
          await store.close();
          await other.close();
        }
        // The pool stays the caller's: it still answers, and only its own connections remain.
        await pool.query("SELECT 1");
        await until(async () => (await sessions(applicationName)).length <= pool.totalCount, 500);
        expect((await sessions(applicationName)).length).toBeLessThanOrEqual(pool.totalCount);
      } finally {
        await pool.end();
      }
      await until(async () => (await sessions(applicationName)).length === 0, 500);
      expect(await sessions(applicationName)).toEqual([]);
    },
    30_000,
  );

  it("works with a pool-like object of 3 connections (no Client to copy), lending the lease and LISTEN from it", async () => {
    const schema = freshName("aintern_pool");
    const applicationName = `${schema}_app`;
    const pool = new pg.Pool({
      connectionString: postgresUrl,
      max: 3,
      application_name: applicationName,
      connectionTimeoutMillis: 2_000,
    });
    // Only the members PostgresPoolLike names: the store cannot make connections of its own.
    const poolLike = {
      connect: () => pool.connect(),
      query: (...args: never[]) => pool.query(...(args as unknown as [string])),
      end: () => pool.end(),
    };
    try {
      const store = await openPostgresStore(poolLike, { schema });
      const other = await openStore(postgresUrl, { schema, applicationName: `${schema}_other` });
      try {
        await useWhileWatched(store, other, applicationName);
        expect(pool.totalCount).toBeLessThanOrEqual(3);
      } finally {
        await store.close();
        await other.close();
      }
      // The lease and LISTEN connections were destroyed, not handed back.
      expect(pool.totalCount).toBeLessThanOrEqual(1);
    } finally {
      await pool.end();
    }
  }, 30_000);
});
