/**
 * `aintern/store/postgres`: the store on PostgreSQL. Needs the `pg` package (an optional peer
 * dependency): importing this entry without it fails with an error that says what to install.
 *
 * @packageDocumentation
 */
import { loadPg } from "./load-pg.js";

await loadPg();

export { InvalidAuditQueryError } from "./invalid-audit-query-error.js";
export { InvalidAuditRecordError } from "./invalid-audit-record-error.js";
export { InvalidPermissionGrantError } from "./invalid-permission-grant-error.js";
export { InvalidStoreOptionsError } from "./invalid-store-options-error.js";
export { ACCEPTED_STORE_URLS, InvalidStoreUrlError } from "./invalid-store-url-error.js";
export { InvalidToolCallError } from "./invalid-tool-call-error.js";
export { MissingDriverError } from "./load-pg.js";
export {
  openPostgresStore,
  type PostgresPoolClientLike,
  type PostgresPoolLike,
} from "./open-postgres-store.js";
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
