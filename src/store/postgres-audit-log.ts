import type { Kysely } from "kysely";
import type pg from "pg";
import { ToolErrorCode } from "../core/index.js";
import { AuditLogBase, type InflightSlot } from "./audit-log-base.js";
import { AuditReader } from "./audit-reader.js";
import {
  AUDIT_COLUMNS,
  type AuditRowValues,
  INTERRUPTED_MESSAGE,
  type InflightExecution,
} from "./audit-row.js";
import { AuditStatus, auditStatusCode } from "./audit-status.js";
import { GroupCommit } from "./group-commit.js";
import { LEASE_LOCK_CLASS, type PostgresLease } from "./postgres-lease.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { TOOL_EXECUTIONS_INFLIGHT_TABLE, TOOL_EXECUTIONS_TABLE } from "./table-names.js";

/** What a PostgreSQL audit log is built from. */
export interface PostgresAuditLogConfig {
  readonly pool: pg.Pool;
  /** Kysely over the same pool, already `withSchema(schema)`. */
  readonly kysely: Kysely<StoreTables>;
  readonly schema: string;
  readonly lease: PostgresLease;
  readonly state: StoreState;
}

const AUDIT_COLUMN_TYPES = [
  "uuid",
  "text",
  "text",
  "text",
  "int",
  "text",
  "text",
  "timestamptz",
  "timestamptz",
  "bigint",
  "bigint",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "boolean",
  "boolean",
  "boolean",
];

const INFLIGHT_COLUMNS = [
  "id",
  "execution_id",
  "tool_name",
  "started_at",
  "parameters_json",
  "batch_id",
  "user_id",
  "agent_id",
  "conversation_id",
  "sandbox_id",
  "metadata_json",
];
const INFLIGHT_COLUMN_TYPES = ["uuid", "text", "text", "timestamptz", ...Array(7).fill("text")];

function unnest(types: readonly string[], firstParameter: number): string {
  return types.map((type, index) => `$${index + firstParameter}::${type}[]`).join(", ");
}

/**
 * The audit log over PostgreSQL. Starts are rows of an UNLOGGED `tool_executions_inflight`
 * table (no WAL: they survive this process being killed, not a crash of the server); a
 * completion deletes that row and inserts the audit row in one statement. Both are group
 * committed: while one statement is running, the next batch gathers, and a batch is one
 * `unnest` insert whatever its size. Reads go through Kysely.
 */
export class PostgresAuditLog extends AuditLogBase {
  readonly #pool: pg.Pool;
  readonly #lease: PostgresLease;
  readonly #starts: GroupCommit<InflightExecution>;
  readonly #completeSql: string;
  readonly #startSql: string;
  readonly #recoverSql: string;
  readonly #statementPrefix: string;

  constructor(config: PostgresAuditLogConfig) {
    super(config.state, new AuditReader(config.kysely, (date) => date));
    this.#pool = config.pool;
    this.#lease = config.lease;
    this.#starts = new GroupCommit((executions) => this.#commitStarts(executions));
    const table = `"${config.schema}"."${TOOL_EXECUTIONS_TABLE}"`;
    const inflight = `"${config.schema}"."${TOOL_EXECUTIONS_INFLIGHT_TABLE}"`;
    const updates = AUDIT_COLUMNS.slice(1)
      .map((column) => `${column} = EXCLUDED.${column}`)
      .join(", ");
    // The upsert lets the real outcome replace an `interrupted` row written by another store
    // that saw this store's lease lost.
    this.#completeSql = `WITH finished AS (DELETE FROM ${inflight} WHERE id = ANY($1::uuid[])) INSERT INTO ${table} (${AUDIT_COLUMNS.join(", ")}) SELECT * FROM unnest(${unnest(AUDIT_COLUMN_TYPES, 1)}) ON CONFLICT (id) DO UPDATE SET ${updates}`;
    this.#startSql = `INSERT INTO ${inflight} (owner_key, ${INFLIGHT_COLUMNS.join(", ")}) SELECT $1::int, * FROM unnest(${unnest(INFLIGHT_COLUMN_TYPES, 2)})`;
    this.#recoverSql = `WITH dead AS (SELECT owners.owner_key FROM (SELECT DISTINCT owner_key FROM ${inflight}) owners WHERE pg_try_advisory_xact_lock($1::int, owners.owner_key)), moved AS (DELETE FROM ${inflight} rows USING dead WHERE rows.owner_key = dead.owner_key RETURNING rows.*) INSERT INTO ${table} (id, execution_id, tool_name, parameters_json, status, error_message, error_code, started_at, completed_at, duration_ms, sandbox_id, agent_id, user_id, batch_id, metadata_json, conversation_id, was_approved, timed_out, was_cancelled) SELECT id, execution_id, tool_name, parameters_json, $2::int, $3::text, $4::text, started_at, now(), GREATEST(0, floor(extract(epoch FROM now() - started_at) * 1000))::bigint, sandbox_id, agent_id, user_id, batch_id, metadata_json, conversation_id, false, false, false FROM moved ON CONFLICT (id) DO NOTHING`;
    this.#statementPrefix = `aintern_${config.schema}`;
  }

  protected recordStart(slot: InflightSlot): Promise<void> {
    return this.#starts.add(slot.execution);
  }

  protected async commitRows(rows: AuditRowValues[]): Promise<void> {
    const columns: unknown[][] = AUDIT_COLUMNS.map(() => new Array(rows.length));
    rows.forEach((row, index) => {
      const values = postgresRowValues(row);
      for (let column = 0; column < values.length; column++) {
        (columns[column] as unknown[])[index] = values[column];
      }
    });
    await this.#pool.query({
      name: `${this.#statementPrefix}_complete`,
      text: this.#completeSql,
      values: columns,
    });
    this.settle(rows);
  }

  protected async recover(): Promise<number> {
    const result = await this.#pool.query(this.#recoverSql, [
      LEASE_LOCK_CLASS,
      auditStatusCode(AuditStatus.Interrupted),
      INTERRUPTED_MESSAGE,
      ToolErrorCode.Interrupted,
    ]);
    return result.rowCount ?? 0;
  }

  protected async release(): Promise<void> {
    await this.#starts.drain();
  }

  async #commitStarts(executions: InflightExecution[]): Promise<void> {
    const columns: unknown[][] = INFLIGHT_COLUMNS.map(() => new Array(executions.length));
    executions.forEach((execution, index) => {
      const values = [
        execution.id,
        execution.executionId,
        execution.toolName,
        execution.startedAt,
        execution.parametersJson,
        execution.batchId,
        execution.userId,
        execution.agentId,
        execution.conversationId,
        execution.sandboxId,
        execution.metadataJson,
      ];
      for (let column = 0; column < values.length; column++) {
        (columns[column] as unknown[])[index] = values[column];
      }
    });
    await this.#pool.query({
      name: `${this.#statementPrefix}_begin`,
      text: this.#startSql,
      values: [this.#lease.key, ...columns],
    });
  }
}

function postgresRowValues(row: AuditRowValues): unknown[] {
  return [
    row.id,
    row.executionId,
    row.toolName,
    row.parametersJson,
    row.status,
    row.errorMessage,
    row.errorCode,
    row.startedAt,
    row.completedAt,
    row.durationMs,
    row.outputSizeBytes,
    row.sandboxId,
    row.agentId,
    row.userId,
    row.batchId,
    row.metadataJson,
    row.conversationId,
    row.resultSummary,
    row.wasApproved,
    row.timedOut,
    row.wasCancelled,
  ];
}
