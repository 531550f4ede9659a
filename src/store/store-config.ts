import { InvalidStoreOptionsError } from "./invalid-store-options-error.js";
import { DEFAULT_STORE_SCHEMA, isValidStoreSchema } from "./table-names.js";

/** Settings for `openStore`, `openSqliteStore` and `openPostgresStore`. */
export interface StoreConfig {
  /**
   * PostgreSQL schema holding the tables (created if missing), or the SQLite table prefix:
   * `agent_tools` (the default) gives `agent_tools.tool_executions` in PostgreSQL and
   * `agent_tools_tool_executions` in SQLite. A plain identifier of at most 40 characters.
   */
  readonly schema?: string;
  /**
   * PostgreSQL: the most pooled connections (default 10; any size works). Beside them the store
   * holds its lease on a connection of its own, and another while anyone watches the console.
   */
  readonly poolSize?: number;
  /** PostgreSQL: the `application_name` the connections report (default `"aintern"`). */
  readonly applicationName?: string;
  /**
   * PostgreSQL: how long to wait for a connection (TCP, TLS and login), in ms (default 10000).
   * A server that accepts and never answers makes opening fail after it, naming host and port.
   */
  readonly connectTimeoutMs?: number;
  /**
   * PostgreSQL: the server-side limit on one statement, in ms (`statement_timeout`, default
   * 60000; 0 for none).
   */
  readonly statementTimeoutMs?: number;
  /** SQLite: how long a write waits for another process's lock, in ms (default 5000). */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite: the largest file, in bytes, checked with `PRAGMA quick_check` on open (default
   * 128 MiB; 0 skips it). A damaged database is refused with an error saying how to recover
   * it; a larger file gets only the cheap checks (header and schema).
   */
  readonly quickCheckMaxBytes?: number;
}

/** Default PostgreSQL pool size. */
export const DEFAULT_POOL_SIZE = 10;
/** Default SQLite busy timeout. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Checks a {@link StoreConfig} and returns its schema; throws InvalidStoreOptionsError. */
export function checkStoreConfig(config: StoreConfig): string {
  const schema = config.schema ?? DEFAULT_STORE_SCHEMA;
  if (typeof schema !== "string" || !isValidStoreSchema(schema)) {
    throw new InvalidStoreOptionsError(
      "schema",
      `Store schema "${String(schema)}" is not a plain identifier (letters, digits, _; at most 40 characters, not starting with a digit).`,
    );
  }
  checkPositiveInteger("poolSize", config.poolSize);
  checkPositiveInteger("busyTimeoutMs", config.busyTimeoutMs, true);
  checkPositiveInteger("quickCheckMaxBytes", config.quickCheckMaxBytes, true);
  checkPositiveInteger("connectTimeoutMs", config.connectTimeoutMs);
  checkPositiveInteger("statementTimeoutMs", config.statementTimeoutMs, true);
  return schema;
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
