import type { PermissionStore } from "../approval/index.js";
import type { ToolCallStore } from "../calls/index.js";
import type { PendingApprovalStore, RunningExecutionStore } from "../console/index.js";
import type { AuditLog } from "../execution/audit-log.js";
import type { ToolDefinitionStore } from "../mcp/tool-definition-store.js";

/** The databases a store runs on. */
export type StoreDialect = "sqlite" | "postgres";

/**
 * An open store: the persistent parts of aintern sharing one database connection (SQLite) or
 * pool (PostgreSQL). Made by `openStore`, which migrates every part: the audit log, remembered
 * permissions and call lifecycles.
 *
 * Every part throws `StoreClosedError` once `close()` has been called.
 */
export interface Store {
  readonly dialect: StoreDialect;
  /** The PostgreSQL schema, or the SQLite table prefix (`<schema>_<table>`). */
  readonly schema: string;
  /** The audit trail of tool executions. */
  readonly audit: AuditLog;
  /**
   * Remembered `tool`-scoped approvals (`tool_permissions`): pass it as the `store` of
   * `RememberedPermissions`. Keeps only `scope: "tool"` grants, never Critical ones.
   */
  readonly permissions: PermissionStore;
  /**
   * Each tool call's lifecycle record (`tool_calls`), keyed by the provider's call id: pass it to
   * the `ToolCallProcessor`. Calls left `Executing` by a process that died are failed as
   * interrupted on the next open; those of live stores on the same database are left alone.
   */
  readonly calls: ToolCallStore;
  /**
   * Calls waiting for a person in the console (`pending_approvals`, issue 14): pass it to a
   * `ConsoleApprovalHandler`; the console lists and decides them. Every process on the same
   * database sees the same rows.
   */
  readonly approvals: PendingApprovalStore;
  /** Executions in flight with their progress and cancel requests, for the console (issue 14). */
  readonly executions: RunningExecutionStore;
  /**
   * The last-seen definition of each upstream tool (`tool_definitions`, a fingerprint per tool
   * id): pass it as the `definitions` of `UpstreamToolSet`, so that a tool whose definition
   * changed since any process on this store last saw it has its remembered grants revoked.
   */
  readonly toolDefinitions: ToolDefinitionStore;
  /** Whether `close()` has been called. */
  readonly closed: boolean;
  /**
   * Waits for pending audit rows to be committed, then closes the database. Executions begun
   * and not completed stay as evidence and become `interrupted` rows on the next open; calls
   * saved as `Executing` become `Failed` (interrupted) the same way.
   * Calling it again does nothing.
   */
  close(): Promise<void>;
}
