import type { Kysely, Migration } from "kysely";
import {
  PENDING_APPROVALS_TABLE,
  RUNNING_EXECUTIONS_TABLE,
  STORE_TABLES,
  storeIndexName,
} from "./table-names.js";
import { TablePrefixPlugin } from "./table-prefix-plugin.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations address tables that no type describes yet.
type AnyKysely = Kysely<any>;

interface Target {
  readonly dialect: "sqlite" | "postgres";
  readonly schema: string;
}

/**
 * Issue 14 (the console): `pending_approvals`, one row per call waiting for a person, unique by
 * call key and argument hash; and `running_executions`, one row per execution in flight with its
 * progress and a cancel request. Both carry `changed_seq`, raised on every change and indexed,
 * which is what SQLite processes poll to learn of another process's change (PostgreSQL also gets
 * a NOTIFY). Times and JSON as in the other tables.
 */
export const createConsoleTables: (target: Target) => Migration = (target) => ({
  async up(db: AnyKysely) {
    const pg = target.dialect === "postgres";
    const time = pg ? "timestamptz" : "text";
    const big = pg ? "bigint" : "integer";
    const schema = (
      pg
        ? db.withSchema(target.schema)
        : db.withPlugin(new TablePrefixPlugin(target.schema, STORE_TABLES))
    ).schema;
    const index = (table: string, name: string) =>
      storeIndexName(target.dialect, target.schema, table, name);

    await schema
      .createTable(PENDING_APPROVALS_TABLE)
      .addColumn("id", "text", (c) => c.primaryKey().notNull())
      .addColumn("call_key", "text", (c) => c.notNull())
      .addColumn("request_id", "text", (c) => c.notNull())
      .addColumn("arguments_hash", "text", (c) => c.notNull())
      .addColumn("session_id", "text")
      .addColumn("tool_id", "text", (c) => c.notNull())
      .addColumn("risk_level", "integer", (c) => c.notNull())
      .addColumn("request_json", "text", (c) => c.notNull())
      .addColumn("status", "text", (c) => c.notNull())
      .addColumn("decision_json", "text")
      .addColumn("decided_by", "text")
      .addColumn("decided_at", time)
      .addColumn("created_at", time, (c) => c.notNull())
      .addColumn("expires_at", time, (c) => c.notNull())
      .addColumn("applied_at", time)
      .addColumn("owner", "text")
      .addColumn("changed_seq", big, (c) => c.notNull())
      .execute();
    await schema
      .createIndex(index(PENDING_APPROVALS_TABLE, "call_key_arguments_hash"))
      .on(PENDING_APPROVALS_TABLE)
      .columns(["call_key", "arguments_hash"])
      .unique()
      .execute();
    for (const column of ["status", "changed_seq"]) {
      await schema
        .createIndex(index(PENDING_APPROVALS_TABLE, column))
        .on(PENDING_APPROVALS_TABLE)
        .column(column)
        .execute();
    }

    await schema
      .createTable(RUNNING_EXECUTIONS_TABLE)
      .addColumn("execution_id", "text", (c) => c.primaryKey().notNull())
      .addColumn("tool_id", "text", (c) => c.notNull())
      .addColumn("tool_name", "text", (c) => c.notNull())
      .addColumn("session_id", "text")
      .addColumn("call_id", "text")
      .addColumn("owner", "text", (c) => c.notNull())
      .addColumn("started_at", time, (c) => c.notNull())
      .addColumn("updated_at", time, (c) => c.notNull())
      .addColumn("percent", pg ? "double precision" : "real")
      .addColumn("message", "text")
      .addColumn("cancel_requested_at", time)
      .addColumn("cancel_requested_by", "text")
      .addColumn("finished_at", time)
      .addColumn("changed_seq", big, (c) => c.notNull())
      .execute();
    for (const column of ["changed_seq", "owner"]) {
      await schema
        .createIndex(index(RUNNING_EXECUTIONS_TABLE, column))
        .on(RUNNING_EXECUTIONS_TABLE)
        .column(column)
        .execute();
    }
  },
  async down(db: AnyKysely) {
    const pg = target.dialect === "postgres";
    const schema = (
      pg
        ? db.withSchema(target.schema)
        : db.withPlugin(new TablePrefixPlugin(target.schema, STORE_TABLES))
    ).schema;
    await schema.dropTable(RUNNING_EXECUTIONS_TABLE).execute();
    await schema.dropTable(PENDING_APPROVALS_TABLE).execute();
  },
});
