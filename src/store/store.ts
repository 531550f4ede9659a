import type { AuditLog } from "./audit-log.js";

/** The databases a store runs on. */
export type StoreDialect = "sqlite" | "postgres";

/**
 * An open store: the persistent parts of aintern sharing one database connection (SQLite) or
 * pool (PostgreSQL). Made by `openStore`; it grows a part per concern (the audit log now,
 * remembered permissions and call lifecycles later), each migrated by the same `openStore`.
 *
 * Every part throws `StoreClosedError` once `close()` has been called.
 */
export interface Store {
  readonly dialect: StoreDialect;
  /** The PostgreSQL schema, or the SQLite table prefix (`<schema>_<table>`). */
  readonly schema: string;
  /** The audit trail of tool executions. */
  readonly audit: AuditLog;
  /** Whether `close()` has been called. */
  readonly closed: boolean;
  /**
   * Waits for pending audit rows to be committed, then closes the database. Executions begun
   * and not completed stay as evidence and become `interrupted` rows on the next open.
   * Calling it again does nothing.
   */
  close(): Promise<void>;
}
