/**
 * The store folder's face inside the package (tests and the CLI). Users import the dialect
 * entries instead, `aintern/store/sqlite` and `aintern/store/postgres`, which export only the
 * public parts.
 */
export { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from "./audit-reader.js";
export { DEFAULT_QUICK_CHECK_MAX_BYTES } from "./check-sqlite-integrity.js";
export { InvalidAuditQueryError } from "./invalid-audit-query-error.js";
export { InvalidAuditRecordError } from "./invalid-audit-record-error.js";
export { InvalidPermissionGrantError } from "./invalid-permission-grant-error.js";
export { InvalidStoreOptionsError } from "./invalid-store-options-error.js";
export {
  ACCEPTED_STORE_URLS,
  InvalidStoreUrlError,
  redactStoreUrl,
} from "./invalid-store-url-error.js";
export { InvalidToolCallError } from "./invalid-tool-call-error.js";
export { JournalWriteError } from "./journal-write-error.js";
export { MissingDriverError } from "./load-pg.js";
export {
  openPostgresStore,
  type PostgresPoolClientLike,
  type PostgresPoolLike,
} from "./open-postgres-store.js";
export { openSqliteStore, type SqliteDatabaseLike } from "./open-sqlite-store.js";
export { openStore } from "./open-store.js";
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_STATEMENT_TIMEOUT_MS,
} from "./postgres-connection.js";
export { RECOVERY_SKIPPED_WARNING } from "./report-recovery-skip.js";
export type { Store, StoreDialect } from "./store.js";
export { StoreClosedError } from "./store-closed-error.js";
export {
  DEFAULT_BUSY_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  type StoreConfig,
} from "./store-config.js";
export { StoreMigrationError } from "./store-migration-error.js";
export { StoreOpenError } from "./store-open-error.js";
export {
  DEFAULT_STORE_SCHEMA,
  sqliteTableName,
  storeIndexName,
  TOOL_CALLS_INDEXES,
  TOOL_CALLS_TABLE,
  TOOL_DEFINITIONS_TABLE,
  TOOL_EXECUTIONS_INDEXES,
  TOOL_EXECUTIONS_INFLIGHT_TABLE,
  TOOL_EXECUTIONS_TABLE,
  TOOL_PERMISSIONS_INDEXES,
  TOOL_PERMISSIONS_TABLE,
  toolExecutionsIndexName,
} from "./table-names.js";
