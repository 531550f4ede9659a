import { type Expression, type Kysely, sql } from "kysely";
import {
  interruptRecord,
  type StoredToolCall,
  type ToolCallFilter,
  type ToolCallLifecycleRecord,
  ToolCallStatus,
  type ToolCallStore,
} from "../calls/index.js";
import { keyTextProblem } from "../core/index.js";
import type { CallOwnership } from "./call-ownership.js";
import type { StoreDialect } from "./store.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { toStoredTime } from "./stored-time.js";
import {
  type ToolCallSave,
  toStoredToolCall,
  toToolCallQuery,
  toToolCallValues,
} from "./tool-call-row.js";

/** What a {@link SqlToolCallStore} is built from. */
export interface SqlToolCallStoreConfig {
  /** Kysely pointing at the store's tables (PostgreSQL `withSchema`, SQLite table prefix). */
  readonly db: Kysely<StoreTables>;
  readonly dialect: StoreDialect;
  readonly state: StoreState;
  /** This store's owner token and how to tell dead owners (see {@link CallOwnership}). */
  readonly ownership: CallOwnership;
}

/**
 * `store.calls`: each tool call's lifecycle record in the `tool_calls` table, keyed by the
 * provider's call id (the idempotency key), one Kysely body for both dialects.
 *
 * - `save` inserts or replaces (record, session, status) and makes the call the newest.
 * - `list` returns calls newest first (by save order, not by clock), filtered by status (one or
 *   several) and session, all of them unless a `limit` is given.
 * - `markInterrupted` fails, with `interruptRecord`, the `Executing` calls whose owning store is
 *   gone (its process died, or it was closed), never those of a live store: see
 *   {@link CallOwnership}. `openStore` runs it on open, after the audit log's recovery.
 *
 * Each call is checked and replaced on its own: a call the owning process saves after it was
 * seen as gone (a PostgreSQL lease lost while the process lives) keeps the real outcome.
 *
 * @example
 * ```ts
 * const store = await openStore("sqlite:./.aintern/aintern.db");
 * const processor = new ToolCallProcessor({ executor, approvalHandler, callStore: store.calls });
 * const pending = await store.calls.list({ status: ToolCallStatus.AwaitingApproval });
 * ```
 */
export class SqlToolCallStore implements ToolCallStore {
  readonly #db: Kysely<StoreTables>;
  readonly #dialect: StoreDialect;
  readonly #state: StoreState;
  readonly #ownership: CallOwnership;

  constructor(config: SqlToolCallStoreConfig) {
    this.#db = config.db;
    this.#dialect = config.dialect;
    this.#state = config.state;
    this.#ownership = config.ownership;
  }

  async save(call: ToolCallSave): Promise<void> {
    this.#state.check("calls.save");
    const values = toToolCallValues(call);
    const changes = {
      session_id: values.sessionId,
      status: values.status,
      record_json: values.recordJson,
      updated_at: toStoredTime(this.#dialect, new Date()),
      owner: values.status === ToolCallStatus.Executing ? this.#ownership.owner : null,
    };
    const nextSeq = this.#nextSeq();
    await this.#db
      .insertInto("tool_calls")
      .values({
        call_id: values.callId,
        ...changes,
        ...(nextSeq === undefined ? {} : { seq: nextSeq }),
      })
      .onConflict((conflict) =>
        conflict.column("call_id").doUpdateSet({ ...changes, seq: nextSeq ?? sql`DEFAULT` }),
      )
      .execute();
  }

  async get(callId: string): Promise<StoredToolCall | undefined> {
    this.#state.check("calls.get");
    // An id no call can have (PostgreSQL would refuse to compare it) matches none.
    if (typeof callId !== "string" || keyTextProblem(callId) !== undefined) return undefined;
    const row = await this.#db
      .selectFrom("tool_calls")
      .select(["call_id", "session_id", "record_json", "updated_at"])
      .where("call_id", "=", callId)
      .executeTakeFirst();
    return row === undefined ? undefined : toStoredToolCall(row);
  }

  async list(filter: ToolCallFilter = {}): Promise<StoredToolCall[]> {
    this.#state.check("calls.list");
    const { statuses, sessionId, limit } = toToolCallQuery(filter);
    if (statuses?.length === 0 || limit === 0) return [];
    if (sessionId !== undefined && keyTextProblem(sessionId) !== undefined) return [];
    let query = this.#db
      .selectFrom("tool_calls")
      .select(["call_id", "session_id", "record_json", "updated_at"])
      .orderBy("seq", "desc");
    if (statuses !== undefined) query = query.where("status", "in", statuses);
    if (sessionId !== undefined) query = query.where("session_id", "=", sessionId);
    if (limit !== undefined) query = query.limit(limit);
    const rows = await query.execute();
    return rows.map(toStoredToolCall);
  }

  async markInterrupted(): Promise<number> {
    this.#state.check("calls.markInterrupted");
    const executing = await this.#db
      .selectFrom("tool_calls")
      .select(["call_id", "owner", "record_json", "seq"])
      .where("status", "=", ToolCallStatus.Executing)
      .execute();
    if (executing.length === 0) return 0;
    const owners = [
      ...new Set(executing.flatMap((row) => (row.owner === null ? [] : [row.owner]))),
    ];
    const gone = await this.#ownership.gone(owners);
    const at = new Date();
    let interrupted = 0;
    for (const row of executing) {
      if (row.owner !== null && !gone.has(row.owner)) continue;
      let record: ToolCallLifecycleRecord;
      try {
        record = JSON.parse(row.record_json) as ToolCallLifecycleRecord;
      } catch {
        continue; // Not written by this store; nothing to fail it with.
      }
      const failed = interruptRecord(record, at);
      const nextSeq = this.#nextSeq();
      // Only if nobody saved the call since it was read (same seq): a late save wins.
      const result = await this.#db
        .updateTable("tool_calls")
        .set({
          status: failed.status,
          record_json: JSON.stringify(failed),
          updated_at: toStoredTime(this.#dialect, at),
          owner: null,
          seq: nextSeq ?? sql`DEFAULT`,
        })
        .where("call_id", "=", row.call_id)
        .where("seq", "=", row.seq)
        .executeTakeFirst();
      interrupted += Number(result.numUpdatedRows);
    }
    return interrupted;
  }

  /**
   * True when the call is `Executing` under another open store (another process, or another
   * `openStore` of this one) that can still finish it: it must be neither run again nor marked
   * interrupted.
   */
  async isExecutingElsewhere(callId: string): Promise<boolean> {
    this.#state.check("calls.isExecutingElsewhere");
    if (typeof callId !== "string" || keyTextProblem(callId) !== undefined) return false;
    const row = await this.#db
      .selectFrom("tool_calls")
      .select(["owner", "status"])
      .where("call_id", "=", callId)
      .executeTakeFirst();
    if (row === undefined || row.status !== ToolCallStatus.Executing) return false;
    const owner = row.owner;
    if (owner === null || owner === this.#ownership.owner) return false;
    return !(await this.#ownership.gone([owner])).has(owner);
  }

  /** Forgets this store's ownership: its `Executing` calls are interrupted on the next open. */
  close(): void {
    this.#ownership.release();
  }

  /**
   * The next save number. PostgreSQL: `undefined`, the identity column's `DEFAULT`. SQLite: one
   * more than the highest, computed inside the statement, which holds the database's write lock.
   */
  #nextSeq(): Expression<number> | undefined {
    if (this.#dialect === "postgres") return undefined;
    return this.#db
      .selectFrom("tool_calls")
      .select(sql<number>`coalesce(max(seq), 0) + 1`.as("next"))
      .$asScalar();
  }
}
