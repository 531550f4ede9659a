import type { Kysely } from "kysely";
import type {
  NewRunningExecution,
  RunningExecution,
  RunningExecutionStore,
} from "../console/index.js";
import { ConsoleTableStore } from "./console-table-store.js";
import { storableKey } from "./sql-pending-approval-store.js";
import { unstorableTextReason } from "./storable-text.js";
import type { RunningExecutionsTable, StoreTables } from "./store-tables.js";
import { fromStoredTime, toStoredTime } from "./stored-time.js";

/** How long an ended execution's row stays (so pollers see it end) before it is purged. */
const FINISHED_ROW_KEEP_MS = 60_000;

/**
 * `store.executions`: the `running_executions` table. A row is written when an execution starts,
 * updated with its progress, and marked finished when it ends; `list` drops the rows of
 * processes that are gone (their executions cannot be running).
 */
export class SqlRunningExecutionStore extends ConsoleTableStore implements RunningExecutionStore {
  async start(execution: NewRunningExecution): Promise<void> {
    this.state.check("executions.start");
    const started = toStoredTime(this.dialect, execution.startedAt);
    const row = {
      execution_id: storableKey(execution.executionId),
      tool_id: storableKey(execution.toolId),
      tool_name: storableKey(execution.toolName),
      session_id: execution.sessionId === undefined ? null : storableKey(execution.sessionId),
      call_id: execution.callId === undefined ? null : storableKey(execution.callId),
      owner: this.ownership.owner,
      started_at: started,
      updated_at: started,
      percent: null,
      message: null,
      cancel_requested_at: null,
      cancel_requested_by: null,
      finished_at: null,
    };
    await this.#write(async (db) => {
      const { execution_id: _id, ...changes } = row;
      await db
        .insertInto("running_executions")
        .values((eb) => ({ ...row, changed_seq: this.nextSeq(eb, "running_executions") }))
        .onConflict((c) =>
          c.column("execution_id").doUpdateSet((eb) => ({
            ...changes,
            changed_seq: this.nextSeq(eb, "running_executions"),
          })),
        )
        .execute();
    });
  }

  async progress(
    executionId: string,
    percent: number | undefined,
    message: string | undefined,
  ): Promise<void> {
    this.state.check("executions.progress");
    const clamped =
      percent === undefined || !Number.isFinite(percent)
        ? null
        : Math.max(0, Math.min(100, percent));
    await this.#write(async (db) => {
      await db
        .updateTable("running_executions")
        .set((eb) => ({
          percent: clamped,
          message: message === undefined ? null : storableKey(message.slice(0, 1000)),
          updated_at: toStoredTime(this.dialect, new Date()),
          changed_seq: this.nextSeq(eb, "running_executions"),
        }))
        .where("execution_id", "=", storableKey(executionId))
        .where("finished_at", "is", null)
        .execute();
    });
  }

  async finish(executionId: string): Promise<void> {
    this.state.check("executions.finish");
    const now = new Date();
    await this.#write(async (db) => {
      await db
        .updateTable("running_executions")
        .set((eb) => ({
          finished_at: toStoredTime(this.dialect, now),
          updated_at: toStoredTime(this.dialect, now),
          changed_seq: this.nextSeq(eb, "running_executions"),
        }))
        .where("execution_id", "=", storableKey(executionId))
        .execute();
      await db
        .deleteFrom("running_executions")
        .where(
          "finished_at",
          "<",
          toStoredTime(this.dialect, new Date(now.getTime() - FINISHED_ROW_KEEP_MS)),
        )
        .execute();
    });
  }

  async list(): Promise<RunningExecution[]> {
    this.state.check("executions.list");
    const rows = await this.db
      .selectFrom("running_executions")
      .selectAll()
      .where("finished_at", "is", null)
      .orderBy("started_at")
      .orderBy("execution_id")
      .execute();
    const owners = [...new Set(rows.map((r) => r.owner))];
    const gone =
      owners.length === 0
        ? new Set<string>()
        : await this.ownership.gone(owners).catch(() => new Set<string>());
    return rows.filter((r) => !gone.has(r.owner)).map(fromRow);
  }

  async get(executionId: string): Promise<RunningExecution | undefined> {
    this.state.check("executions.get");
    if (typeof executionId !== "string") return undefined;
    const row = await this.db
      .selectFrom("running_executions")
      .selectAll()
      .where("execution_id", "=", storableKey(executionId))
      .where("finished_at", "is", null)
      .executeTakeFirst();
    return row === undefined ? undefined : fromRow(row);
  }

  async requestCancel(executionId: string, requestedBy: string): Promise<boolean> {
    this.state.check("executions.requestCancel");
    if (typeof executionId !== "string" || unstorableTextReason(executionId) !== undefined) {
      return false;
    }
    let changed = false;
    await this.#write(async (db) => {
      const result = await db
        .updateTable("running_executions")
        .set((eb) => ({
          cancel_requested_at: toStoredTime(this.dialect, new Date()),
          cancel_requested_by: storableKey(requestedBy),
          changed_seq: this.nextSeq(eb, "running_executions"),
        }))
        .where("execution_id", "=", executionId)
        .where("finished_at", "is", null)
        .executeTakeFirst();
      changed = Number(result.numUpdatedRows) > 0;
    });
    return changed;
  }

  async cancelRequests(): Promise<string[]> {
    this.state.check("executions.cancelRequests");
    const rows = await this.db
      .selectFrom("running_executions")
      .select("execution_id")
      .where("owner", "=", this.ownership.owner)
      .where("finished_at", "is", null)
      .where("cancel_requested_at", "is not", null)
      .execute();
    return rows.map((r) => r.execution_id);
  }

  async #write(body: (db: Kysely<StoreTables>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await body(tx);
      await this.notify(tx, "executions");
    });
    this.feed.changed("executions");
  }
}

function fromRow(row: RunningExecutionsTable): RunningExecution {
  return {
    executionId: row.execution_id,
    toolId: row.tool_id,
    toolName: row.tool_name,
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
    ...(row.call_id === null ? {} : { callId: row.call_id }),
    owner: row.owner,
    startedAt: fromStoredTime(row.started_at),
    updatedAt: fromStoredTime(row.updated_at),
    ...(row.percent === null ? {} : { percent: Number(row.percent) }),
    ...(row.message === null ? {} : { message: row.message }),
    ...(row.cancel_requested_at === null
      ? {}
      : { cancelRequestedAt: fromStoredTime(row.cancel_requested_at) }),
    ...(row.cancel_requested_by === null ? {} : { cancelRequestedBy: row.cancel_requested_by }),
  };
}
