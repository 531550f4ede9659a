import { type Expression, type Kysely, sql } from "kysely";
import {
  defaultToolCallSessionId,
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

/**
 * The `owner` of a call marked interrupted: its owner's later save from `Executing` may still
 * replace it (the real outcome wins over the guess).
 */
const interruptedOwner = "!interrupted";

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
 * `store.calls`: each tool call's lifecycle record in the `tool_calls` table, keyed by (session
 * id, provider's call id) (the idempotency key), one Kysely body for both dialects.
 *
 * - `save` inserts or replaces (record, status) and makes the call the newest; with `expected`
 *   it is conditional: `null` inserts only when the key is free (of processes racing on a new
 *   call, one wins), a status updates only a record still in that status.
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

  async save(call: ToolCallSave): Promise<boolean> {
    this.#state.check("calls.save");
    const values = toToolCallValues(call);
    const executing = values.status === ToolCallStatus.Executing;
    const changes = {
      status: values.status,
      record_json: values.recordJson,
      updated_at: toStoredTime(this.#dialect, new Date()),
      owner: executing ? this.#ownership.owner : null,
    };
    const nextSeq = this.#nextSeq();
    const { expected } = values;
    if (expected === undefined || expected === null) {
      const insert = this.#db.insertInto("tool_calls").values({
        call_id: values.callId,
        session_id: values.sessionId,
        ...changes,
        ...(nextSeq === undefined ? {} : { seq: nextSeq }),
      });
      // A claim (expected null) is an insert that only one writer wins: the key decides.
      const result = await insert
        .onConflict((conflict) =>
          expected === null
            ? conflict.columns(["session_id", "call_id"]).doNothing()
            : conflict
                .columns(["session_id", "call_id"])
                .doUpdateSet({ ...changes, seq: nextSeq ?? sql`DEFAULT` }),
        )
        .executeTakeFirst();
      return expected === undefined || Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    }
    // Compare-and-set: moved forward only from the state the writer read. From Executing, a
    // record another process marked interrupted is replaced too: the owner's outcome is real.
    const result = await this.#db
      .updateTable("tool_calls")
      .set({ ...changes, seq: nextSeq ?? sql`DEFAULT` })
      .where("session_id", "=", values.sessionId)
      .where("call_id", "=", values.callId)
      .where((eb) =>
        expected === ToolCallStatus.Executing
          ? eb.or([
              eb("status", "=", expected),
              eb.and([
                eb("status", "=", ToolCallStatus.Failed),
                eb("owner", "=", interruptedOwner),
              ]),
            ])
          : eb("status", "=", expected),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async get(
    callId: string,
    sessionId: string = defaultToolCallSessionId,
  ): Promise<StoredToolCall | undefined> {
    this.#state.check("calls.get");
    // An id no call can have (PostgreSQL would refuse to compare it) matches none.
    if (typeof callId !== "string" || keyTextProblem(callId) !== undefined) return undefined;
    if (typeof sessionId !== "string" || keyTextProblem(sessionId) !== undefined) return undefined;
    const row = await this.#db
      .selectFrom("tool_calls")
      .select(["call_id", "session_id", "record_json", "updated_at"])
      .where("session_id", "=", sessionId)
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
      .select(["session_id", "call_id", "owner", "record_json", "seq"])
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
          owner: interruptedOwner,
          seq: nextSeq ?? sql`DEFAULT`,
        })
        .where("session_id", "=", row.session_id)
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
  async isExecutingElsewhere(
    callId: string,
    sessionId: string = defaultToolCallSessionId,
  ): Promise<boolean> {
    this.#state.check("calls.isExecutingElsewhere");
    if (typeof callId !== "string" || keyTextProblem(callId) !== undefined) return false;
    const row = await this.#db
      .selectFrom("tool_calls")
      .select(["owner", "status"])
      .where("session_id", "=", sessionId)
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
