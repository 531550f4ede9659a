import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AuditStatus } from "../../src/execution/index.js";
import {
  InvalidStoreOptionsError,
  openPostgresStore,
  openSqliteStore,
} from "../../src/store/index.js";
import { postgresUrl } from "./store-targets.js";

const run = promisify(execFile);
const startedAt = new Date(Date.UTC(2026, 10, 26));

async function recordOne(store: Awaited<ReturnType<typeof openSqliteStore>>, id: string) {
  await store.audit.complete({
    executionId: id,
    toolName: "file-read",
    status: AuditStatus.Completed,
    startedAt,
    completedAt: startedAt,
  });
  return store.audit.query({ executionId: id });
}

describe("openSqliteStore", () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "aintern-sqlite-store-"));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it("opens a file path and creates its folder", async () => {
    const store = await openSqliteStore(join(folder, "nested", "audit.db"));
    const page = await recordOne(store, "exec-path");
    expect(page.entries.map((row) => row.executionId)).toEqual(["exec-path"]);
    await store.close();
  });

  it("uses a better-sqlite3 Database the caller opened, and leaves it open on close", async () => {
    const database = new Database(join(folder, "own.db"));
    const store = await openSqliteStore(database, { schema: "mine" });
    await recordOne(store, "exec-own");
    await store.close();
    expect(database.open).toBe(true);
    const rows = database.prepare("SELECT execution_id FROM mine_tool_executions").all();
    expect(rows).toEqual([{ execution_id: "exec-own" }]);
    database.close();
  });

  it("refuses a closed database or something that is not one, naming what it needs", async () => {
    const database = new Database(":memory:");
    database.close();
    await expect(openSqliteStore(database)).rejects.toBeInstanceOf(InvalidStoreOptionsError);
    await expect(openSqliteStore(42 as never)).rejects.toThrow(/file path or an open/);
  });
});

describe("openPostgresStore", () => {
  it("uses a pg.Pool the caller made, and leaves the pool open", async () => {
    const pool = new pg.Pool({ connectionString: postgresUrl, max: 4 });
    const schema = `pool_${process.pid}_${Date.now()}`;
    try {
      const store = await openPostgresStore(pool, { schema });
      await recordOne(store, "exec-pool");
      expect(pool.totalCount).toBeGreaterThanOrEqual(1);
      await store.close();
      const { rows } = await pool.query(`SELECT execution_id FROM ${schema}.tool_executions`);
      expect(rows).toEqual([{ execution_id: "exec-pool" }]);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
      await pool.end();
    }
  });

  it("refuses a SQLite URL, naming the opener to use instead", async () => {
    await expect(openPostgresStore("sqlite:./x.db")).rejects.toThrow(/openSqliteStore/);
  });
});

describe("drivers loaded only when used", () => {
  const hidePg = resolve("test/store/fixtures/hide-pg.mjs");

  async function runWithoutPg(code: string): Promise<{ stdout: string; stderr: string }> {
    return run(process.execPath, ["--import", hidePg, "--import", "tsx", "-e", code], {
      cwd: resolve("."),
    });
  }

  it("opens a SQLite store by URL on a machine without pg", async () => {
    const { stdout } = await runWithoutPg(`
      const { openStore } = await import("./src/store/sqlite.ts");
      const store = await openStore("sqlite::memory:");
      console.log(store.dialect);
      await store.close();
    `);
    expect(stdout.trim()).toBe("sqlite");
  });

  it("fails to import aintern/store/postgres without pg, naming the package to install", async () => {
    const error = await runWithoutPg(`await import("./src/store/postgres.ts");`).catch(
      (caught: { stderr: string }) => caught,
    );
    expect("stderr" in error ? error.stderr : "").toMatch(/needs the 'pg' package.*npm install pg/);
  });

  it("fails a postgres:// URL without pg with the same clear error", async () => {
    const { stdout } = await runWithoutPg(`
      const { openStore } = await import("./src/store/sqlite.ts");
      const error = await openStore("postgres://x@127.0.0.1/db").catch((e) => e);
      console.log(error.code, error.packageName);
    `);
    expect(stdout.trim()).toBe("MISSING_DRIVER pg");
  });
});
