import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { Kysely, Migrator, NO_MIGRATIONS, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  StoreMigrationError,
  sqliteTableName,
  TOOL_PERMISSIONS_TABLE,
} from "../../src/store/index.js";
import { isOthersDrop, retryingOthersDrops } from "../../src/store/migrate-store.js";
import { migrationTableNames, storeMigrations } from "../../src/store/store-migrations.js";
import {
  postgresUrl,
  type StorePlace,
  type StoreTarget,
  storeTargets,
  useStoreTarget,
} from "./store-targets.js";

describe.each(storeTargets)("store migrations on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("roll back to an empty database and up again", async () => {
    const place = target.place();
    const store = await place.open();
    await store.close();
    const dialect = target.dialect;
    const sqlite =
      dialect === "sqlite" ? new Database(place.url.slice("sqlite:".length)) : undefined;
    // biome-ignore lint/suspicious/noExplicitAny: the migrator works on untyped tables.
    const db = new Kysely<any>({
      dialect:
        sqlite !== undefined
          ? new SqliteDialect({ database: sqlite })
          : new PostgresDialect({ pool: new pg.Pool({ connectionString: postgresUrl, max: 1 }) }),
    });
    const targetInfo = { dialect, schema: place.schema } as const;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => storeMigrations(targetInfo) },
      ...migrationTableNames(targetInfo),
      ...(dialect === "postgres" ? { migrationTableSchema: place.schema } : {}),
    });
    // Other test files drop their schemas meanwhile, which Kysely's table listing can meet.
    const down = await retryingOthersDrops(() => migrator.migrateTo(NO_MIGRATIONS), place.schema);
    expect(down.error).toBeUndefined();
    const count = Object.keys(storeMigrations(targetInfo)).length;
    expect(down.results?.map((result) => result.direction)).toEqual(Array(count).fill("Down"));
    const tables =
      dialect === "sqlite"
        ? await db
            .selectFrom("sqlite_master")
            .select("name")
            .where("name", "like", "agent_tools_tool_%")
            .execute()
        : await db
            .selectFrom("information_schema.tables")
            .select("table_name as name")
            .where("table_schema", "=", place.schema)
            .where("table_name", "like", "tool_%")
            .execute();
    expect(tables).toEqual([]);
    const up = await retryingOthersDrops(() => migrator.migrateToLatest(), place.schema);
    expect(up.error).toBeUndefined();
    expect(up.results).toHaveLength(count);
    await db.destroy();
  });
});

/** The last migration of the version before upstream tool definitions were recorded. */
const beforeToolDefinitions = "2026_11_26_issue14_001_create_console_tables";

/**
 * Makes `place` a database as the version before tool definitions left it: its migrations up to
 * {@link beforeToolDefinitions}, and a remembered grant.
 */
async function previousVersionStore(place: StorePlace, dialect: "sqlite" | "postgres") {
  const path = place.url.slice("sqlite:".length);
  if (dialect === "sqlite") mkdirSync(dirname(path), { recursive: true });
  // biome-ignore lint/suspicious/noExplicitAny: the migrator works on untyped tables.
  const db = new Kysely<any>({
    dialect:
      dialect === "sqlite"
        ? new SqliteDialect({ database: new Database(path) })
        : new PostgresDialect({ pool: new pg.Pool({ connectionString: postgresUrl, max: 1 }) }),
  });
  const targetInfo = { dialect, schema: place.schema } as const;
  try {
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => storeMigrations(targetInfo) },
      ...migrationTableNames(targetInfo),
      ...(dialect === "postgres" ? { migrationTableSchema: place.schema } : {}),
    });
    const up = await retryingOthersDrops(
      () => migrator.migrateTo(beforeToolDefinitions),
      place.schema,
    );
    expect(up.error).toBeUndefined();
    expect(up.results?.at(-1)?.migrationName).toBe(beforeToolDefinitions);
    const permissions =
      dialect === "sqlite"
        ? db.insertInto(sqliteTableName(place.schema, TOOL_PERMISSIONS_TABLE))
        : db.withSchema(place.schema).insertInto(TOOL_PERMISSIONS_TABLE);
    await permissions
      .values({
        id: "old-grant",
        tool_id: "up1_echo",
        tool_key: "up1_echo",
        scope: "tool",
        max_risk_level: 3,
        created_at: dialect === "sqlite" ? new Date().toISOString() : new Date(),
      })
      .execute();
  } finally {
    await db.destroy();
  }
}

describe.each(storeTargets)("the tool definitions migration on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("upgrades a database the previous version made, keeping its grants; reopening applies nothing", async () => {
    const place = target.place();
    await previousVersionStore(place, target.dialect);
    const migrations = async () =>
      (target.dialect === "sqlite"
        ? await target.rawQuery(
            place,
            `SELECT name FROM "${sqliteTableName(place.schema, "kysely_migration")}" ORDER BY name`,
          )
        : await target.rawQuery(
            place,
            `SELECT name FROM "${place.schema}".kysely_migration ORDER BY name`,
          )
      ).map((row) => row.name);
    expect(await migrations()).not.toContain("2026_11_27_001_create_tool_definitions");

    const store = await place.open();
    expect((await store.permissions.list()).map((grant) => grant.id)).toEqual(["old-grant"]);
    expect(await store.toolDefinitions.get("up1_echo")).toBeUndefined();
    await store.toolDefinitions.set("up1_echo", "f".repeat(64));
    await store.close();
    const applied = await migrations();
    expect(applied.at(-1)).toBe("2026_11_27_001_create_tool_definitions");

    for (let round = 0; round < 2; round++) {
      const again = await place.open();
      expect(await again.toolDefinitions.get("up1_echo")).toBe("f".repeat(64));
      expect((await again.permissions.list()).map((grant) => grant.id)).toEqual(["old-grant"]);
      await again.close();
      expect(await migrations()).toEqual(applied);
    }
  });
});

describe("store migrations on a database they did not make", () => {
  it("fail with StoreMigrationError naming the migration", async () => {
    const target = storeTargets[0]?.make() as StoreTarget;
    const place = target.place();
    const store = await place.open({ schema: "scratch" });
    await store.close();
    const path = place.url.slice("sqlite:".length);
    const sqlite = new Database(path);
    sqlite.exec(`CREATE TABLE "agent_tools_tool_executions" (something TEXT)`);
    sqlite.close();
    const error = await place.open().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StoreMigrationError);
    expect(error).toMatchObject({
      code: "STORE_MIGRATION_FAILED",
      migrationName: "2026_02_04_003_create_tool_executions",
    });
    expect((error as Error).message).toMatch(/already exists/);
    // Nothing was half-applied: the whole run was one transaction, rolled back.
    const rows = await target.rawQuery(
      place,
      "SELECT name FROM sqlite_master WHERE name LIKE 'agent_tools_kysely%'",
    );
    expect(rows).toEqual([]);
    await target.cleanup();
  });

  it("wraps an error that names no migration", () => {
    const error = new StoreMigrationError(undefined, "lock table is gone");
    expect(error.message).toBe("Store migrations failed: lock table is gone");
  });
});

describe("a migration that meets another client's schema going away", () => {
  /** A migrator whose first `failures` runs meet `error`; the ones after succeed. */
  function migrator(failures: number, error: Error) {
    let runs = 0;
    return {
      runs: () => runs,
      migrate: async () => {
        runs++;
        return runs <= failures ? { error } : { results: [] };
      },
    };
  }
  const theirs = new Error('schema "theirs" does not exist');

  it("is retried after a wait that doubles, until the drops stop", async () => {
    const waits: number[] = [];
    const six = migrator(6, theirs);
    const result = await retryingOthersDrops(six.migrate, "mine", async (ms) => {
      waits.push(ms);
    });
    expect(result.error).toBeUndefined();
    expect(six.runs()).toBe(7);
    expect(waits).toEqual([10, 20, 40, 80, 160, 250]);
  });

  it("gives up after ten tries, and never retries a failure of its own schema", async () => {
    const waits: number[] = [];
    const record = async (ms: number) => {
      waits.push(ms);
    };
    const always = migrator(100, theirs);
    expect((await retryingOthersDrops(always.migrate, "mine", record)).error).toBe(theirs);
    expect(always.runs()).toBe(10);
    waits.length = 0;
    const mine = new Error('schema "mine" does not exist');
    const own = migrator(100, mine);
    expect((await retryingOthersDrops(own.migrate, "mine", record)).error).toBe(mine);
    expect(own.runs()).toBe(1);
    expect(waits).toEqual([]);
  });

  it("is retried for PostgreSQL's own errors of that kind, and not for a plain failure", async () => {
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query("CREATE TEMP TABLE going_away (a int)");
      // The error Kysely's table listing meets when a column of another schema's table goes.
      const vanished = await client
        .query("SELECT pg_get_serial_sequence($1, $2)", ["going_away", "started_at"])
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(isOthersDrop(vanished, "mine")).toBe(true);
      expect(isOthersDrop(new Error('schema "theirs" does not exist'), "mine")).toBe(true);
      expect(isOthersDrop(new Error('schema "mine" does not exist'), "mine")).toBe(false);
      // The real error of a table looked up by name after its schema was dropped.
      const gone = await client.query("SELECT 'theirs.tool_executions'::regclass").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isOthersDrop(gone, "mine")).toBe(true);
      expect(
        isOthersDrop(new Error('relation "mine.tool_executions" does not exist'), "mine"),
      ).toBe(false);
      const own = await client.query("SELECT no_such_column FROM going_away").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isOthersDrop(own, "mine")).toBe(false);
    } finally {
      await client.end();
    }
  });
});
