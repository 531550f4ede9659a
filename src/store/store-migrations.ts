import { type Kysely, type Migration, sql } from "kysely";
import { AUDIT_DECISION_COLUMNS } from "./audit-row.js";
import { createConsoleTables } from "./console-tables-migration.js";
import {
  MIGRATION_LOCK_TABLE,
  MIGRATION_TABLE,
  STORE_TABLES,
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
import { TablePrefixPlugin } from "./table-prefix-plugin.js";

/** Which database, and which schema (PostgreSQL) or table prefix (SQLite), migrations target. */
export interface MigrationTarget {
  readonly dialect: "sqlite" | "postgres";
  readonly schema: string;
}

// biome-ignore lint/suspicious/noExplicitAny: migrations address tables that no type describes yet.
type AnyKysely = Kysely<any>;

function scoped(db: AnyKysely, target: MigrationTarget): AnyKysely {
  return target.dialect === "postgres"
    ? db.withSchema(target.schema)
    : db.withPlugin(new TablePrefixPlugin(target.schema, STORE_TABLES));
}

/**
 * Spec 003 section 6, `Migration_20260204_003_CreateToolExecutions`: the audit table and its
 * five indexes. Where the spec's types do not fit both dialects:
 * - times are `timestamptz` in PostgreSQL and ISO-8601 UTC text in SQLite (which sorts in time
 *   order and stays readable in the sqlite3 shell);
 * - `execution_id`, `agent_id`, `user_id` and `batch_id` are text, not uuid: callers choose
 *   these ids (a provider's tool-call id, a user name), and an audit row must never be refused
 *   for the shape of an id (spec 003 section 8, "audit evasion"). `id` stays a uuid;
 * - JSON is text on both (the spec's `AsString(int.MaxValue)`): jsonb would reject `\u0000` and
 *   lone surrogates that JSON.stringify writes, and would reorder keys.
 */
const createToolExecutions: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    const pg = target.dialect === "postgres";
    const time = pg ? "timestamptz" : "text";
    const schema = scoped(db, target).schema;
    await schema
      .createTable(TOOL_EXECUTIONS_TABLE)
      .addColumn("id", pg ? "uuid" : "text", (column) =>
        pg ? column.primaryKey().defaultTo(sql`gen_random_uuid()`) : column.primaryKey().notNull(),
      )
      .addColumn("execution_id", "text", (column) => column.notNull())
      .addColumn("tool_name", "varchar(64)", (column) => column.notNull())
      .addColumn("parameters_json", "text")
      .addColumn("status", "integer", (column) => column.notNull())
      .addColumn("error_message", "varchar(1024)")
      .addColumn("error_code", "varchar(64)")
      .addColumn("started_at", time, (column) => column.notNull())
      .addColumn("completed_at", time, (column) => column.notNull())
      .addColumn("duration_ms", "bigint", (column) => column.notNull())
      .addColumn("output_size_bytes", "bigint")
      .addColumn("sandbox_id", "varchar(64)")
      .addColumn("agent_id", "text")
      .addColumn("user_id", "text")
      .addColumn("batch_id", "text")
      .addColumn("metadata_json", "text")
      .execute();
    for (const index of TOOL_EXECUTIONS_INDEXES) {
      await schema
        .createIndex(toolExecutionsIndexName(target.dialect, target.schema, index.column))
        .on(TOOL_EXECUTIONS_TABLE)
        .column(index.descending ? `${index.column} desc` : index.column)
        .execute();
    }
  },
  async down(db) {
    await scoped(db, target).schema.dropTable(TOOL_EXECUTIONS_TABLE).execute();
  },
});

/**
 * What the executor records beyond the spec's columns: the conversation, a result summary, and
 * the approval / timeout / cancellation flags of its execution result.
 */
const addOutcomeColumns: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    const schema = scoped(db, target).schema;
    const flag = target.dialect === "postgres" ? "boolean" : "integer";
    const no = target.dialect === "postgres" ? sql`false` : sql`0`;
    const columns: [string, "text" | "integer" | "boolean", boolean][] = [
      ["conversation_id", "text", false],
      ["result_summary", "text", false],
      ["was_approved", flag, true],
      ["timed_out", flag, true],
      ["was_cancelled", flag, true],
    ];
    // SQLite alters one column per statement; PostgreSQL takes them the same way.
    for (const [name, type, isFlag] of columns) {
      await schema
        .alterTable(TOOL_EXECUTIONS_TABLE)
        .addColumn(name, type, (column) => (isFlag ? column.notNull().defaultTo(no) : column))
        .execute();
    }
  },
  async down(db) {
    const schema = scoped(db, target).schema;
    for (const name of [
      "conversation_id",
      "result_summary",
      "was_approved",
      "timed_out",
      "was_cancelled",
    ]) {
      await schema.alterTable(TOOL_EXECUTIONS_TABLE).dropColumn(name).execute();
    }
  },
});

/**
 * PostgreSQL only: the in-flight table (SQLite keeps a journal file instead; the migration is
 * recorded there too, doing nothing, so both dialects list the same migrations). UNLOGGED: its
 * rows must survive the client process being killed, not a crash of the server, and skipping
 * the WAL keeps `begin` cheap.
 */
const createInflight: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    if (target.dialect !== "postgres") return;
    await scoped(db, target)
      .schema.createTable(TOOL_EXECUTIONS_INFLIGHT_TABLE)
      .modifyFront(sql`unlogged`)
      .addColumn("id", "uuid", (column) => column.primaryKey())
      .addColumn("owner_key", "integer", (column) => column.notNull())
      .addColumn("execution_id", "text", (column) => column.notNull())
      .addColumn("tool_name", "varchar(64)", (column) => column.notNull())
      .addColumn("started_at", "timestamptz", (column) => column.notNull())
      .addColumn("parameters_json", "text")
      .addColumn("batch_id", "text")
      .addColumn("user_id", "text")
      .addColumn("agent_id", "text")
      .addColumn("conversation_id", "text")
      .addColumn("sandbox_id", "varchar(64)")
      .addColumn("metadata_json", "text")
      .execute();
  },
  async down(db) {
    if (target.dialect !== "postgres") return;
    await scoped(db, target).schema.dropTable(TOOL_EXECUTIONS_INFLIGHT_TABLE).execute();
  },
});

/**
 * Remembered `tool`-scoped approvals (approvals issue). Times as in the audit table; `tool_key`
 * is the lowercased tool id that lookups compare, indexed.
 */
const createToolPermissions: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    const time = target.dialect === "postgres" ? "timestamptz" : "text";
    const schema = scoped(db, target).schema;
    await schema
      .createTable(TOOL_PERMISSIONS_TABLE)
      .addColumn("id", "text", (column) => column.primaryKey().notNull())
      .addColumn("tool_id", "text", (column) => column.notNull())
      .addColumn("tool_key", "text", (column) => column.notNull())
      .addColumn("scope", "text", (column) => column.notNull())
      .addColumn("session_id", "text")
      .addColumn("pattern", "text")
      .addColumn("pattern_kind", "text")
      .addColumn("max_risk_level", "integer", (column) => column.notNull())
      .addColumn("workspace_path", "text")
      .addColumn("created_at", time, (column) => column.notNull())
      .addColumn("expires_at", time)
      .addColumn("granted_by", "text")
      .execute();
    for (const column of TOOL_PERMISSIONS_INDEXES) {
      await schema
        .createIndex(storeIndexName(target.dialect, target.schema, TOOL_PERMISSIONS_TABLE, column))
        .on(TOOL_PERMISSIONS_TABLE)
        .column(column)
        .execute();
    }
  },
  async down(db) {
    await scoped(db, target).schema.dropTable(TOOL_PERMISSIONS_TABLE).execute();
  },
});

/**
 * The lifecycle record of each tool call (approvals issue), keyed by the provider's call id. The
 * record is JSON text (like the audit table's JSON); `status` repeats its status for filtering;
 * `owner` names the store that saved an `Executing` call, so that only calls of dead processes
 * are interrupted; `seq` is the save order (PostgreSQL: an identity column; SQLite: max + 1 under
 * the write lock).
 */
const createToolCalls: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    const pg = target.dialect === "postgres";
    const schema = scoped(db, target).schema;
    await schema
      .createTable(TOOL_CALLS_TABLE)
      .addColumn("call_id", "text", (column) => column.primaryKey().notNull())
      .addColumn("session_id", "text")
      .addColumn("status", "text", (column) => column.notNull())
      .addColumn("record_json", "text", (column) => column.notNull())
      .addColumn("updated_at", pg ? "timestamptz" : "text", (column) => column.notNull())
      .addColumn("owner", "text")
      .addColumn("seq", pg ? "bigint" : "integer", (column) =>
        pg ? column.notNull().generatedByDefaultAsIdentity() : column.notNull(),
      )
      .execute();
    for (const column of TOOL_CALLS_INDEXES) {
      await schema
        .createIndex(storeIndexName(target.dialect, target.schema, TOOL_CALLS_TABLE, column))
        .on(TOOL_CALLS_TABLE)
        .column(column)
        .execute();
    }
  },
  async down(db) {
    await scoped(db, target).schema.dropTable(TOOL_CALLS_TABLE).execute();
  },
});

/**
 * Issue 11, call identity: a stored call is keyed by (session id, call id), so a call id seen in
 * another session never answers this one. Calls stored without a session move to `"default"`,
 * the session of calls given none. PostgreSQL changes the key in place; SQLite cannot, so the
 * table is rebuilt (renamed, created anew, copied, dropped) inside the migration's transaction.
 */
const keyToolCallsBySession: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    if (target.dialect === "postgres") {
      const table = sql.table(`${target.schema}.${TOOL_CALLS_TABLE}`);
      await sql`UPDATE ${table} SET session_id = 'default' WHERE session_id IS NULL`.execute(db);
      await sql`ALTER TABLE ${table} ALTER COLUMN session_id SET NOT NULL`.execute(db);
      await setPostgresToolCallsKey(db, target, sql`(session_id, call_id)`);
      return;
    }
    await rebuildSqliteToolCalls(db, target, ["session_id", "call_id"]);
  },
  async down(db) {
    // Fails when two sessions hold the same call id: one key cannot hold both.
    if (target.dialect === "postgres") {
      const table = sql.table(`${target.schema}.${TOOL_CALLS_TABLE}`);
      await setPostgresToolCallsKey(db, target, sql`(call_id)`);
      await sql`ALTER TABLE ${table} ALTER COLUMN session_id DROP NOT NULL`.execute(db);
      return;
    }
    await rebuildSqliteToolCalls(db, target, ["call_id"]);
  },
});

async function setPostgresToolCallsKey(
  db: AnyKysely,
  target: MigrationTarget,
  columns: ReturnType<typeof sql>,
): Promise<void> {
  const table = sql.table(`${target.schema}.${TOOL_CALLS_TABLE}`);
  const key = sql.id(`${TOOL_CALLS_TABLE}_pkey`);
  await sql`ALTER TABLE ${table} DROP CONSTRAINT ${key}`.execute(db);
  await sql`ALTER TABLE ${table} ADD CONSTRAINT ${key} PRIMARY KEY ${columns}`.execute(db);
}

/**
 * SQLite cannot change a table's key: renames `tool_calls`, creates it anew with `key` (session
 * id required when it is part of the key), copies the rows and drops the old table.
 */
async function rebuildSqliteToolCalls(
  db: AnyKysely,
  target: MigrationTarget,
  key: readonly ("session_id" | "call_id")[],
): Promise<void> {
  const physical = sqliteTableName(target.schema, TOOL_CALLS_TABLE);
  const old = `${physical}_rebuild_old`;
  const bySession = key.includes("session_id");
  await sql`ALTER TABLE ${sql.id(physical)} RENAME TO ${sql.id(old)}`.execute(db);
  for (const column of TOOL_CALLS_INDEXES) {
    const name = storeIndexName("sqlite", target.schema, TOOL_CALLS_TABLE, column);
    await sql`DROP INDEX IF EXISTS ${sql.id(name)}`.execute(db);
  }
  const schema = scoped(db, target).schema;
  await schema
    .createTable(TOOL_CALLS_TABLE)
    .addColumn("call_id", "text", (column) => column.notNull())
    .addColumn("session_id", "text", (column) => (bySession ? column.notNull() : column))
    .addColumn("status", "text", (column) => column.notNull())
    .addColumn("record_json", "text", (column) => column.notNull())
    .addColumn("updated_at", "text", (column) => column.notNull())
    .addColumn("owner", "text")
    .addColumn("seq", "integer", (column) => column.notNull())
    .addPrimaryKeyConstraint(`${physical}_pkey`, [...key])
    .execute();
  const session = bySession ? sql`coalesce(session_id, 'default')` : sql`session_id`;
  await sql`INSERT INTO ${sql.id(physical)} (call_id, session_id, status, record_json, updated_at, owner, seq)
    SELECT call_id, ${session}, status, record_json, updated_at, owner, seq FROM ${sql.id(old)}`.execute(
    db,
  );
  await sql`DROP TABLE ${sql.id(old)}`.execute(db);
  for (const column of TOOL_CALLS_INDEXES) {
    await schema
      .createIndex(storeIndexName("sqlite", target.schema, TOOL_CALLS_TABLE, column))
      .on(TOOL_CALLS_TABLE)
      .column(column)
      .execute();
  }
}

/**
 * Issue 11, an audit that misses nothing: the decision columns of `tool_executions` (which call
 * of which session, approved / denied / invalid / cancelled, by whom, how widely, the grant, the
 * argument hashes), all text, and indexes on the session and the decision.
 */
const addDecisionColumns: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    const schema = scoped(db, target).schema;
    for (const column of AUDIT_DECISION_COLUMNS) {
      await schema.alterTable(TOOL_EXECUTIONS_TABLE).addColumn(column, "text").execute();
    }
    for (const column of ["session_id", "decision"]) {
      await schema
        .createIndex(toolExecutionsIndexName(target.dialect, target.schema, column))
        .on(TOOL_EXECUTIONS_TABLE)
        .column(column)
        .execute();
    }
  },
  async down(db) {
    const schema = scoped(db, target).schema;
    for (const column of ["session_id", "decision"]) {
      await schema
        .dropIndex(toolExecutionsIndexName(target.dialect, target.schema, column))
        .execute();
    }
    for (const column of AUDIT_DECISION_COLUMNS) {
      await schema.alterTable(TOOL_EXECUTIONS_TABLE).dropColumn(column).execute();
    }
  },
});

/**
 * Upstream tool definitions that survive the process: the last-seen fingerprint of each upstream
 * tool (a SHA-256 hex digest, never the schema itself), keyed by the lowercased tool id like
 * `tool_permissions.tool_key`. A gateway that finds a tool's definition changed since any process
 * on this store last saw it revokes the tool's remembered grants. Times as in the other tables.
 */
const createToolDefinitions: (target: MigrationTarget) => Migration = (target) => ({
  async up(db) {
    await scoped(db, target)
      .schema.createTable(TOOL_DEFINITIONS_TABLE)
      .addColumn("tool_key", "text", (column) => column.primaryKey().notNull())
      .addColumn("tool_id", "text", (column) => column.notNull())
      .addColumn("fingerprint", "text", (column) => column.notNull())
      .addColumn("recorded_at", target.dialect === "postgres" ? "timestamptz" : "text", (column) =>
        column.notNull(),
      )
      .execute();
  },
  async down(db) {
    await scoped(db, target).schema.dropTable(TOOL_DEFINITIONS_TABLE).execute();
  },
});

/**
 * Every migration of the store, by name; Kysely runs them in name order. New tables and columns
 * come as new migrations with later names; a published migration is never edited.
 */
export function storeMigrations(target: MigrationTarget): Record<string, Migration> {
  return {
    "2026_02_04_003_create_tool_executions": createToolExecutions(target),
    "2026_02_05_001_add_tool_executions_outcome_columns": addOutcomeColumns(target),
    "2026_02_05_002_create_tool_executions_inflight": createInflight(target),
    "2026_11_25_001_create_tool_permissions": createToolPermissions(target),
    "2026_11_25_002_create_tool_calls": createToolCalls(target),
    "2026_11_26_issue11_001_key_tool_calls_by_session": keyToolCallsBySession(target),
    "2026_11_26_issue11_002_add_tool_executions_decision_columns": addDecisionColumns(target),
    "2026_11_26_issue14_001_create_console_tables": createConsoleTables(target),
    "2026_11_27_001_create_tool_definitions": createToolDefinitions(target),
  };
}

/** Kysely's bookkeeping table names for a target (SQLite: prefixed like the store's tables). */
export function migrationTableNames(target: MigrationTarget): {
  readonly migrationTableName: string;
  readonly migrationLockTableName: string;
} {
  return target.dialect === "postgres"
    ? { migrationTableName: MIGRATION_TABLE, migrationLockTableName: MIGRATION_LOCK_TABLE }
    : {
        migrationTableName: sqliteTableName(target.schema, MIGRATION_TABLE),
        migrationLockTableName: sqliteTableName(target.schema, MIGRATION_LOCK_TABLE),
      };
}
