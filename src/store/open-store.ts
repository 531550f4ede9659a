import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { AuditLogBase } from "./audit-log-base.js";
import type { CallOwnership } from "./call-ownership.js";
import { InvalidStoreOptionsError } from "./invalid-store-options-error.js";
import { migrateStore } from "./migrate-store.js";
import { PostgresAuditLog } from "./postgres-audit-log.js";
import { postgresCallOwnership } from "./postgres-call-ownership.js";
import { PostgresLease } from "./postgres-lease.js";
import { SqlPermissionStore } from "./sql-permission-store.js";
import { SqlToolCallStore } from "./sql-tool-call-store.js";
import { SqliteAuditLog } from "./sqlite-audit-log.js";
import { sqliteCallOwnership } from "./sqlite-call-ownership.js";
import type { Store, StoreDialect } from "./store.js";
import { StoreOpenError } from "./store-open-error.js";
import { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { parseStoreUrl } from "./store-url.js";
import { DEFAULT_STORE_SCHEMA, isValidStoreSchema, STORE_TABLES } from "./table-names.js";
import { TablePrefixPlugin } from "./table-prefix-plugin.js";

/** Settings for {@link openStore}. */
export interface StoreConfig {
  /**
   * PostgreSQL schema holding the tables (created if missing), or the SQLite table prefix:
   * `agent_tools` (the default) gives `agent_tools.tool_executions` in PostgreSQL and
   * `agent_tools_tool_executions` in SQLite. A plain identifier of at most 40 characters.
   */
  readonly schema?: string;
  /** PostgreSQL: the most pooled connections (default 10; one more holds the store's lease). */
  readonly poolSize?: number;
  /** PostgreSQL: the `application_name` the connections report (default `"aintern"`). */
  readonly applicationName?: string;
  /** SQLite: how long a write waits for another process's lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
}

/** Default PostgreSQL pool size. */
export const DEFAULT_POOL_SIZE = 10;
/** Default SQLite busy timeout. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/**
 * Opens a store, migrates it to the latest schema, turns executions left in flight by dead
 * processes into `interrupted` audit rows, and then fails the calls those processes left
 * `Executing` (`calls.markInterrupted()`).
 *
 * @param url `sqlite:<file>` (relative or absolute; the folder is created), `sqlite::memory:`,
 *   or a `postgres://` / `postgresql://` connection string.
 * @throws InvalidStoreUrlError for any other URL; InvalidStoreOptionsError for a bad option;
 *   StoreOpenError when the database cannot be opened or reached; StoreMigrationError when a
 *   migration fails.
 *
 * @example
 * ```ts
 * const store = await openStore("sqlite:./.aintern/aintern.db");
 * const pgStore = await openStore("postgres://aintern@db/aintern", { poolSize: 20 });
 * ```
 */
export async function openStore(url: string, config: StoreConfig = {}): Promise<Store> {
  const location = parseStoreUrl(url);
  const schema = config.schema ?? DEFAULT_STORE_SCHEMA;
  if (typeof schema !== "string" || !isValidStoreSchema(schema)) {
    throw new InvalidStoreOptionsError(
      "schema",
      `Store schema "${String(schema)}" is not a plain identifier (letters, digits, _; at most 40 characters, not starting with a digit).`,
    );
  }
  checkPositiveInteger("poolSize", config.poolSize);
  checkPositiveInteger("busyTimeoutMs", config.busyTimeoutMs, true);
  return location.dialect === "sqlite"
    ? openSqlite(url, location.path, schema, config)
    : openPostgres(url, location.connectionString, schema, config);
}

function checkPositiveInteger(option: string, value: number | undefined, zeroOk = false): void {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < (zeroOk ? 0 : 1)) {
    throw new InvalidStoreOptionsError(
      option,
      `Store option ${option} must be a whole number${zeroOk ? " of at least 0" : " of at least 1"}, got ${String(value)}.`,
    );
  }
}

async function openSqlite(
  url: string,
  path: string,
  schema: string,
  config: StoreConfig,
): Promise<Store> {
  const memory = path === ":memory:";
  let database: Database.Database | undefined;
  try {
    if (!memory) mkdirSync(dirname(path), { recursive: true });
    database = new Database(path);
    database.pragma(`busy_timeout = ${config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS}`);
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = NORMAL");
  } catch (error) {
    database?.close();
    throw new StoreOpenError(url, error);
  }
  const kysely = new Kysely<StoreTables>({ dialect: new SqliteDialect({ database }) });
  try {
    await migrateStore(kysely, { dialect: "sqlite", schema }, database);
    const state = new StoreState();
    const tables = kysely.withPlugin(new TablePrefixPlugin(schema, STORE_TABLES));
    const audit = new SqliteAuditLog({
      database,
      kysely: tables,
      schema,
      databasePath: memory ? undefined : path,
      state,
    });
    await audit.recoverInterrupted();
    const parts = await openParts(tables, "sqlite", state, sqliteCallOwnership());
    return new OpenStore("sqlite", schema, state, audit, parts, async () => {
      await kysely.destroy();
    });
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
}

async function openPostgres(
  url: string,
  connectionString: string,
  schema: string,
  config: StoreConfig,
): Promise<Store> {
  const connection = {
    connectionString,
    application_name: config.applicationName ?? "aintern",
  };
  const pool = new pg.Pool({ ...connection, max: config.poolSize ?? DEFAULT_POOL_SIZE });
  // An idle pooled connection that breaks must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  const kysely = new Kysely<StoreTables>({ dialect: new PostgresDialect({ pool }) });
  let lease: PostgresLease | undefined;
  try {
    try {
      lease = await PostgresLease.acquire(connection);
    } catch (error) {
      throw new StoreOpenError(url, error);
    }
    await migrateStore(kysely, { dialect: "postgres", schema });
    const state = new StoreState();
    const tables = kysely.withSchema(schema);
    const audit = new PostgresAuditLog({ pool, kysely: tables, schema, lease, state });
    await audit.recoverInterrupted();
    const ownership = postgresCallOwnership(kysely, lease);
    const parts = await openParts(tables, "postgres", state, ownership);
    const held = lease;
    return new OpenStore("postgres", schema, state, audit, parts, async () => {
      await kysely.destroy();
      await held.release();
    });
  } catch (error) {
    await kysely.destroy();
    await lease?.release();
    throw error;
  }
}

/** The parts beside the audit log. */
interface StoreParts {
  readonly permissions: SqlPermissionStore;
  readonly calls: SqlToolCallStore;
}

/** Makes the permission and call stores and fails the calls that dead processes left executing. */
async function openParts(
  tables: Kysely<StoreTables>,
  dialect: StoreDialect,
  state: StoreState,
  ownership: CallOwnership,
): Promise<StoreParts> {
  const calls = new SqlToolCallStore({ db: tables, dialect, state, ownership });
  try {
    await calls.markInterrupted();
  } catch (error) {
    calls.close();
    throw error;
  }
  return { permissions: new SqlPermissionStore(tables, dialect, state), calls };
}

class OpenStore implements Store {
  readonly dialect: StoreDialect;
  readonly schema: string;
  readonly audit: AuditLogBase;
  readonly permissions: SqlPermissionStore;
  readonly calls: SqlToolCallStore;
  readonly #state: StoreState;
  readonly #shutdown: () => Promise<void>;
  #closing: Promise<void> | undefined;

  constructor(
    dialect: StoreDialect,
    schema: string,
    state: StoreState,
    audit: AuditLogBase,
    parts: StoreParts,
    shutdown: () => Promise<void>,
  ) {
    this.dialect = dialect;
    this.schema = schema;
    this.#state = state;
    this.audit = audit;
    this.permissions = parts.permissions;
    this.calls = parts.calls;
    this.#shutdown = shutdown;
  }

  get closed(): boolean {
    return this.#state.closed;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#state.markClosed();
    this.calls.close();
    try {
      await this.audit.close();
    } finally {
      await this.#shutdown();
    }
  }
}
