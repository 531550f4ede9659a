import type { Kysely } from "kysely";
import type pg from "pg";
import { ToolErrorCode } from "../core/index.js";
import { AuditStatus, auditStatusCode } from "../execution/audit-status.js";
import { AuditLogBase, type InflightSlot } from "./audit-log-base.js";
import { AuditReader } from "./audit-reader.js";
import {
  AUDIT_COLUMNS,
  type AuditRowValues,
  auditRowValues,
  INTERRUPTED_MESSAGE,
  type InflightExecution,
  interruptedRow,
  salvageInflight,
} from "./audit-row.js";
import { GroupCommit } from "./group-commit.js";
import { LEASE_LOCK_CLASS, type PostgresLease } from "./postgres-lease.js";
import { reportRecoverySkip } from "./report-recovery-skip.js";
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
  // The decision columns (issue 11).
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
  "text",
];

/** Each column of the in-flight table after `owner_key`, with its type and execution field. */
const INFLIGHT_COLUMN_FIELDS: readonly (readonly [string, string, keyof InflightExecution])[] = [
  ["id", "uuid", "id"],
  ["execution_id", "text", "executionId"],
  ["tool_name", "text", "toolName"],
  ["started_at", "timestamptz", "startedAt"],
  ["parameters_json", "text", "parametersJson"],
  ["batch_id", "text", "batchId"],
  ["user_id", "text", "userId"],
  ["agent_id", "text", "agentId"],
  ["conversation_id", "text", "conversationId"],
  ["sandbox_id", "text", "sandboxId"],
  ["metadata_json", "text", "metadataJson"],
];
const INFLIGHT_COLUMNS = INFLIGHT_COLUMN_FIELDS.map(([column]) => column);
const INFLIGHT_COLUMN_TYPES = INFLIGHT_COLUMN_FIELDS.map(([, type]) => type);

/** One array per column (what `unnest` takes) from one row of `values` per item. */
function toColumns<T>(
  items: readonly T[],
  width: number,
  valuesOf: (item: T) => unknown[],
): unknown[][] {
  const columns: unknown[][] = Array.from({ length: width }, () => new Array(items.length));
  items.forEach((item, index) => {
    const values = valuesOf(item);
    for (let column = 0; column < width; column++) {
      (columns[column] as unknown[])[index] = values[column];
    }
  });
  return columns;
}

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
  readonly #inflightTable: string;
  readonly #deadRowsSql: string;
  readonly #insertOrIgnoreSql: string;

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
    // The owners whose lease is gone: their session advisory lock can be taken.
    const deadOwners = `SELECT owners.owner_key FROM (SELECT DISTINCT owner_key FROM ${inflight}) owners WHERE pg_try_advisory_xact_lock($1::int, owners.owner_key)`;
    this.#recoverSql = `WITH dead AS (${deadOwners}), moved AS (DELETE FROM ${inflight} rows USING dead WHERE rows.owner_key = dead.owner_key RETURNING rows.*) INSERT INTO ${table} (id, execution_id, tool_name, parameters_json, status, error_message, error_code, started_at, completed_at, duration_ms, sandbox_id, agent_id, user_id, batch_id, metadata_json, conversation_id, was_approved, timed_out, was_cancelled) SELECT id, execution_id, tool_name, parameters_json, $2::int, $3::text, $4::text, started_at, now(), GREATEST(0, floor(extract(epoch FROM now() - started_at) * 1000))::bigint, sandbox_id, agent_id, user_id, batch_id, metadata_json, conversation_id, false, false, false FROM moved ON CONFLICT (id) DO NOTHING`;
    this.#statementPrefix = `aintern_${config.schema}`;
    this.#inflightTable = inflight;
    this.#deadRowsSql = `SELECT rows.* FROM ${inflight} rows WHERE rows.owner_key IN (${deadOwners})`;
    const placeholders = AUDIT_COLUMNS.map((_, index) => `$${index + 1}`).join(", ");
    this.#insertOrIgnoreSql = `INSERT INTO ${table} (${AUDIT_COLUMNS.join(", ")}) VALUES (${placeholders}) ON CONFLICT (id) DO NOTHING`;
  }

  protected recordStart(slot: InflightSlot): Promise<void> {
    return this.#starts.add(slot.execution);
  }

  protected async commitRows(rows: AuditRowValues[]): Promise<void> {
    const columns = toColumns(rows, AUDIT_COLUMNS.length, auditRowValues);
    await this.#pool.query({
      name: `${this.#statementPrefix}_complete`,
      text: this.#completeSql,
      values: columns,
    });
    this.settle(rows);
  }

  protected async recover(): Promise<number> {
    // One connection for both tries: a failed statement's error reaches the client before its
    // transaction is rolled back, so another connection could still find the dead owners' locks
    // held (by that rollback) and recover nothing; this one's next statement runs after it.
    const client = await this.#pool.connect();
    try {
      try {
        const result = await client.query(this.#recoverSql, [
          LEASE_LOCK_CLASS,
          auditStatusCode(AuditStatus.Interrupted),
          INTERRUPTED_MESSAGE,
          ToolErrorCode.Interrupted,
        ]);
        return result.rowCount ?? 0;
      } catch {
        // One row the audit table refuses (a key let in before keys were checked, a damaged
        // row) fails the whole statement: go row by row, reporting and skipping what cannot be
        // written.
        return await this.#recoverRowByRow(client);
      }
    } finally {
      client.release();
    }
  }

  async #recoverRowByRow(client: pg.PoolClient): Promise<number> {
    let written = 0;
    try {
      await client.query("BEGIN");
      const { rows } = await client.query<Record<string, unknown>>(this.#deadRowsSql, [
        LEASE_LOCK_CLASS,
      ]);
      const foundAt = new Date();
      for (const row of rows) {
        const execution = salvageInflight(fromInflightRow(row));
        await client.query("SAVEPOINT aintern_recover_row");
        try {
          const inserted = await client.query(
            this.#insertOrIgnoreSql,
            auditRowValues(interruptedRow(execution, foundAt)),
          );
          await client.query(`DELETE FROM ${this.#inflightTable} WHERE id = $1`, [row.id]);
          await client.query("RELEASE SAVEPOINT aintern_recover_row");
          written += inserted.rowCount ?? 0;
        } catch (error) {
          await client.query("ROLLBACK TO SAVEPOINT aintern_recover_row");
          // Left in place: reported again on each open rather than lost.
          reportRecoverySkip(
            this.#inflightTable,
            `execution '${execution.executionId.slice(0, 80)}' (${String(error)})`,
          );
        }
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
    return written;
  }

  protected async release(): Promise<void> {
    await this.#starts.drain();
  }

  async #commitStarts(executions: InflightExecution[]): Promise<void> {
    const columns = toColumns(executions, INFLIGHT_COLUMN_FIELDS.length, (execution) =>
      INFLIGHT_COLUMN_FIELDS.map(([, , field]) => execution[field]),
    );
    await this.#pool.query({
      name: `${this.#statementPrefix}_begin`,
      text: this.#startSql,
      values: [this.#lease.key, ...columns],
    });
  }
}

/** An in-flight row as the driver returns it, back in its execution form. */
function fromInflightRow(row: Record<string, unknown>): InflightExecution {
  const text = (value: unknown): string | null =>
    value === null || value === undefined ? null : String(value);
  return {
    id: String(row.id),
    executionId: String(row.execution_id),
    toolName: String(row.tool_name),
    startedAt: row.started_at instanceof Date ? row.started_at : new Date(String(row.started_at)),
    parametersJson: text(row.parameters_json),
    batchId: text(row.batch_id),
    userId: text(row.user_id),
    agentId: text(row.agent_id),
    conversationId: text(row.conversation_id),
    sandboxId: text(row.sandbox_id),
    metadataJson: text(row.metadata_json),
  };
}
