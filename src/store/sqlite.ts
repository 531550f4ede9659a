/**
 * `aintern/store/sqlite`: the embedded store (better-sqlite3). `openStore` also opens a
 * `postgres://` URL, loading the optional `pg` driver only then.
 *
 * @packageDocumentation
 */

export { DEFAULT_QUICK_CHECK_MAX_BYTES } from "./check-sqlite-integrity.js";
export { InvalidAuditQueryError } from "./invalid-audit-query-error.js";
export { InvalidAuditRecordError } from "./invalid-audit-record-error.js";
export { InvalidPermissionGrantError } from "./invalid-permission-grant-error.js";
export { InvalidStoreOptionsError } from "./invalid-store-options-error.js";
export { ACCEPTED_STORE_URLS, InvalidStoreUrlError } from "./invalid-store-url-error.js";
export { InvalidToolCallError } from "./invalid-tool-call-error.js";
export { JournalWriteError } from "./journal-write-error.js";
export { MissingDriverError } from "./load-pg.js";
export { openSqliteStore, type SqliteDatabaseLike } from "./open-sqlite-store.js";
export { openStore } from "./open-store.js";
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
