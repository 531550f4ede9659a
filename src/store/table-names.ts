/**
 * Where the store's tables live.
 *
 * PostgreSQL keeps them in a schema (spec 003 section 6: `agent_tools.tool_executions`).
 * SQLite has no schemas, so a table is named `<schema>_<table>` in the database file:
 * `agent_tools.tool_executions` becomes `agent_tools_tool_executions`, and a store opened with
 * `{ schema: "audit" }` uses `audit_tool_executions`. The `schema` option means the same thing on
 * both dialects, so one name maps predictably onto the other.
 */
export const DEFAULT_STORE_SCHEMA = "agent_tools";

/** The audit table (spec 003 section 6), one row per finished execution. */
export const TOOL_EXECUTIONS_TABLE = "tool_executions";

/**
 * PostgreSQL only: executions that have started and not yet finished, one row each, so that a
 * process killed mid-execution leaves evidence. (SQLite uses a journal file beside the database.)
 */
export const TOOL_EXECUTIONS_INFLIGHT_TABLE = "tool_executions_inflight";

/**
 * Remembered `tool`-scoped approvals (approvals issue, `RememberForTool`), one row per grant.
 * Session grants are held in memory and never stored.
 */
export const TOOL_PERMISSIONS_TABLE = "tool_permissions";

/** The lifecycle record of each tool call, keyed by the provider's call id (approvals issue). */
export const TOOL_CALLS_TABLE = "tool_calls";

/** Calls waiting for a person in the console (issue 14), keyed by call and argument hash. */
export const PENDING_APPROVALS_TABLE = "pending_approvals";

/** Executions in flight, with their progress and cancel requests, for the console (issue 14). */
export const RUNNING_EXECUTIONS_TABLE = "running_executions";

/**
 * The last-seen definition of each upstream tool (a SHA-256 hex fingerprint), keyed like
 * `tool_permissions` by the lowercased tool id: a definition that changed between two processes
 * revokes the tool's remembered grants.
 */
export const TOOL_DEFINITIONS_TABLE = "tool_definitions";

/** Kysely's migration bookkeeping tables, kept beside the store's own. */
export const MIGRATION_TABLE = "kysely_migration";
/** Kysely's migration lock table. */
export const MIGRATION_LOCK_TABLE = "kysely_migration_lock";

/** Every logical table name the store owns (what a SQLite table prefix applies to). */
export const STORE_TABLES: readonly string[] = Object.freeze([
  TOOL_EXECUTIONS_TABLE,
  TOOL_EXECUTIONS_INFLIGHT_TABLE,
  TOOL_PERMISSIONS_TABLE,
  TOOL_CALLS_TABLE,
  PENDING_APPROVALS_TABLE,
  RUNNING_EXECUTIONS_TABLE,
  TOOL_DEFINITIONS_TABLE,
]);

/** The five indexed columns of the audit table, with the order the spec gives each index. */
export const TOOL_EXECUTIONS_INDEXES: readonly {
  readonly column: string;
  readonly descending: boolean;
}[] = Object.freeze([
  Object.freeze({ column: "execution_id", descending: false }),
  Object.freeze({ column: "tool_name", descending: false }),
  Object.freeze({ column: "started_at", descending: true }),
  Object.freeze({ column: "status", descending: false }),
  Object.freeze({ column: "batch_id", descending: false }),
]);

/**
 * The physical name of a store table in SQLite: `sqliteTableName("agent_tools",
 * "tool_executions")` is `"agent_tools_tool_executions"`.
 */
export function sqliteTableName(schema: string, table: string): string {
  return `${schema}_${table}`;
}

/**
 * The name of the index on `column` of a store table. PostgreSQL uses `IX_<table>_<column>`
 * (unique within the schema); SQLite index names are global to the file, so they carry the
 * physical table name (`IX_agent_tools_tool_calls_status`).
 */
export function storeIndexName(
  dialect: "sqlite" | "postgres",
  schema: string,
  table: string,
  column: string,
): string {
  const physical = dialect === "sqlite" ? sqliteTableName(schema, table) : table;
  return `IX_${physical}_${column}`;
}

/**
 * The name of the index on `column` of the audit table. PostgreSQL keeps the spec's name
 * (`IX_tool_executions_execution_id`, unique within the schema); SQLite index names are global
 * to the file, so they carry the physical table name (`IX_agent_tools_tool_executions_execution_id`).
 */
export function toolExecutionsIndexName(
  dialect: "sqlite" | "postgres",
  schema: string,
  column: string,
): string {
  return storeIndexName(dialect, schema, TOOL_EXECUTIONS_TABLE, column);
}

/**
 * The indexed columns of `tool_permissions`: `tool_key`, the lowercased tool id that lookups by
 * tool compare (tool ids match case-insensitively, as in `MemoryPermissionStore`).
 */
export const TOOL_PERMISSIONS_INDEXES: readonly string[] = Object.freeze(["tool_key"]);

/**
 * The indexed columns of `tool_calls`: the two filters of `calls.list`, and `seq`, the save
 * order that "newest first" follows.
 */
export const TOOL_CALLS_INDEXES: readonly string[] = Object.freeze(["status", "session_id", "seq"]);

const schemaPattern = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;

/** True for a schema name the store accepts: a plain identifier of at most 40 characters. */
export function isValidStoreSchema(schema: string): boolean {
  return schemaPattern.test(schema);
}
