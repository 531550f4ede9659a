import { realpathSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { Kysely, SqliteDialect } from "kysely";
import { ensureDirectory } from "../core/ensure-directory.js";
import { assembleStore } from "./assemble-store.js";
import { checkSqliteIntegrity, DEFAULT_QUICK_CHECK_MAX_BYTES } from "./check-sqlite-integrity.js";
import { InvalidStoreOptionsError } from "./invalid-store-options-error.js";
import { migrateStore } from "./migrate-store.js";
import { SqliteAuditLog } from "./sqlite-audit-log.js";
import { sqliteCallOwnership } from "./sqlite-call-ownership.js";
import { connectionTurnKey, takeSqliteFileTurn } from "./sqlite-file-turn.js";
import { SqliteWriteDialect } from "./sqlite-write-dialect.js";
import type { Store } from "./store.js";
import { checkStoreConfig, DEFAULT_BUSY_TIMEOUT_MS, type StoreConfig } from "./store-config.js";
import { StoreOpenError } from "./store-open-error.js";
import { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { STORE_TABLES } from "./table-names.js";
import { TablePrefixPlugin } from "./table-prefix-plugin.js";

/**
 * The members of a better-sqlite3 `Database` the store uses: pass your own open database instead
 * of a file path. A structural type, so no particular copy of better-sqlite3 is required.
 */
export interface SqliteDatabaseLike {
  /** The file name the database was opened with (`":memory:"` or `""` for in-memory ones). */
  readonly name: string;
  readonly memory: boolean;
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(source: string): unknown;
  transaction(fn: (...args: never[]) => unknown): unknown;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  exec(source: string): unknown;
  close(): unknown;
}

/**
 * Opens the SQLite store: a database file (created with its folder when missing) or an open
 * better-sqlite3 `Database` you pass, migrates it, and recovers what dead processes left in
 * flight. The store sets `journal_mode = WAL`, `synchronous = NORMAL` and `busy_timeout` on the
 * connection. A database you pass stays yours: closing the store does not close it.
 *
 * @param target A file path (relative to the working directory, or absolute), `":memory:"`, or
 *   an open better-sqlite3 `Database`.
 * @throws InvalidStoreOptionsError for a bad option; StoreOpenError when the file cannot be
 *   opened; StoreMigrationError when a migration fails.
 *
 * @example
 * ```ts
 * import { openSqliteStore } from "aintern/store/sqlite";
 * const store = await openSqliteStore(".aintern/audit.db");
 * ```
 */
export async function openSqliteStore(
  target: string | SqliteDatabaseLike,
  config: StoreConfig = {},
): Promise<Store> {
  const schema = checkStoreConfig(config);
  const owned = typeof target === "string";
  if (!owned && (typeof target !== "object" || target === null || !target.open)) {
    throw new InvalidStoreOptionsError(
      "database",
      "openSqliteStore needs a file path or an open better-sqlite3 Database.",
    );
  }
  const label = owned ? `sqlite:${target}` : `sqlite:${target.name}`;
  let database: Database.Database | undefined;
  try {
    if (owned) {
      const path = target === ":memory:" ? target : resolve(target);
      if (path !== ":memory:") ensureDirectory(dirname(path));
      database = new Database(path);
    } else {
      database = target as unknown as Database.Database;
    }
    database.pragma(`busy_timeout = ${config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    if (!database.memory && database.name !== "") {
      checkSqliteIntegrity(
        database,
        database.name,
        config.quickCheckMaxBytes ?? DEFAULT_QUICK_CHECK_MAX_BYTES,
      );
    }
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = NORMAL");
  } catch (error) {
    if (owned) database?.close();
    throw new StoreOpenError(label, error);
  }
  const connection = database;
  const file = connection.memory || connection.name === "" ? undefined : resolve(connection.name);
  // Stores of this process take turns on the file, however they reach it: by its real path (a
  // folder through a symlink, macOS's /tmp and /private/tmp, are one file and one lock). Stores
  // given one in-memory connection take turns on that connection.
  const turn = file === undefined ? connectionTurnKey(connection) : realPathOf(file);
  const kysely = new Kysely<StoreTables>({
    dialect: new SqliteWriteDialect(
      {
        // A database the caller passed is closed by the caller, not by the store.
        database: owned
          ? connection
          : { prepare: (sql) => connection.prepare(sql), close: () => undefined },
      },
      turn,
    ),
  });
  // Stores of this process opening the file at once migrate and recover one after another: the
  // migration's transaction spans awaits, and a second store waiting for its lock would block
  // the event loop the first needs to commit.
  const endTurn = await takeSqliteFileTurn(turn);
  try {
    await migrateInTurn(connection, schema);
    const state = new StoreState();
    const tables = kysely.withPlugin(new TablePrefixPlugin(schema, STORE_TABLES));
    const audit = new SqliteAuditLog({
      database: connection,
      kysely: tables,
      schema,
      databasePath: file,
      fileTurn: turn,
      state,
      // A second connection is opened only to a file the store opened itself: a database passed
      // in may have been opened with options (a key, a build of SQLite) only its owner knows.
      insertThread: owned,
      busyTimeoutMs: config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
    });
    await audit.recoverInterrupted();
    endTurn();
    return await assembleStore({
      dialect: "sqlite",
      schema,
      tables,
      state,
      audit,
      ownership: sqliteCallOwnership(),
      shutdown: () => kysely.destroy(),
    });
  } catch (error) {
    endTurn();
    await kysely.destroy();
    throw error;
  }
}

/**
 * Migrates through a Kysely of its own on the same connection, one that takes no turns: the
 * caller holds the file's turn for the whole migration.
 */
async function migrateInTurn(connection: Database.Database, schema: string): Promise<void> {
  const migrating = new Kysely<StoreTables>({
    dialect: new SqliteDialect({
      database: { prepare: (sql) => connection.prepare(sql), close: () => undefined },
    }),
  });
  try {
    await migrateStore(migrating, { dialect: "sqlite", schema }, connection);
  } finally {
    await migrating.destroy();
  }
}

/** The file's real path (symlinks resolved), or the path itself when it cannot be read. */
function realPathOf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
