import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openStore, type Store, type StoreConfig } from "../../src/store/index.js";

/** The PostgreSQL server the tests use; when it is not reachable the PostgreSQL tests fail. */
export const postgresUrl =
  process.env.AINTERN_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A fresh, empty place to open a store: its own SQLite file or its own PostgreSQL schema. */
export interface StorePlace {
  readonly url: string;
  readonly schema: string;
  open(config?: StoreConfig): Promise<Store>;
}

/** One dialect the same test bodies run against. */
export interface StoreTarget {
  readonly dialect: "sqlite" | "postgres";
  /** A new place; everything it creates is removed by {@link StoreTarget.cleanup}. */
  place(): StorePlace;
  /** Runs raw SQL on a place (for checking tables and indexes). */
  rawQuery(place: StorePlace, text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Closes the stores the tests left open and drops what the places created. */
  cleanup(): Promise<void>;
}

function track(stores: Store[], open: Promise<Store>): Promise<Store> {
  return open.then((store) => {
    stores.push(store);
    return store;
  });
}

/** SQLite: each place is a database file in a temporary folder. */
export function sqliteTarget(): StoreTarget {
  const folder = mkdtempSync(join(tmpdir(), "aintern-store-test-"));
  const stores: Store[] = [];
  let count = 0;
  return {
    dialect: "sqlite",
    place() {
      const url = `sqlite:${join(folder, `db-${++count}`, "audit.db")}`;
      return {
        url,
        schema: "agent_tools",
        open: (config) => track(stores, openStore(url, config)),
      };
    },
    async rawQuery(place, text, values = []) {
      const { default: Database } = await import("better-sqlite3");
      const db = new Database(place.url.slice("sqlite:".length), { readonly: true });
      try {
        return db.prepare(text).all(...values) as Record<string, unknown>[];
      } finally {
        db.close();
      }
    },
    async cleanup() {
      for (const store of stores) await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** PostgreSQL: each place is a schema of its own, dropped at cleanup. */
export function postgresTarget(): StoreTarget {
  const schemas: string[] = [];
  const stores: Store[] = [];
  const run = async (text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  return {
    dialect: "postgres",
    place() {
      const schema = `aintern_test_${randomBytes(6).toString("hex")}`;
      schemas.push(schema);
      return {
        url: postgresUrl,
        schema,
        open: (config) => track(stores, openStore(postgresUrl, { schema, ...config })),
      };
    },
    rawQuery: (_place, text, values) => run(text, values),
    async cleanup() {
      for (const store of stores) await store.close();
      for (const schema of schemas) await run(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    },
  };
}

/** Both dialects, for `describe.each`. */
export const storeTargets: readonly { readonly name: string; readonly make: () => StoreTarget }[] =
  [
    { name: "sqlite", make: sqliteTarget },
    { name: "postgres", make: postgresTarget },
  ];

/**
 * The target of one `describe.each(storeTargets)` block: made before the block's tests and
 * cleaned up after them. Call it in the block's body; use it only inside tests and hooks.
 */
export function useStoreTarget(make: () => StoreTarget): StoreTarget {
  let target: StoreTarget | undefined;
  const current = (): StoreTarget => {
    if (target === undefined) throw new Error("The store target is used outside a test.");
    return target;
  };
  beforeAll(() => {
    target = make();
  });
  afterAll(async () => {
    await target?.cleanup();
  });
  return {
    get dialect() {
      return current().dialect;
    },
    place: () => current().place(),
    rawQuery: (place, text, values) => current().rawQuery(place, text, values),
    cleanup: () => current().cleanup(),
  };
}
