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
