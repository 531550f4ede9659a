import { timeOrderedUuid } from "../core/index.js";
import type {
  AuditEntry,
  AuditFilter,
  AuditLog,
  AuditPage,
  AuditQuery,
  AuditRecord,
  AuditStart,
} from "../execution/audit-log.js";
import type { AuditReader } from "./audit-reader.js";
import {
  type AuditRowValues,
  cleanText,
  type InflightExecution,
  toAuditRow,
  toInflight,
} from "./audit-row.js";
import { GroupCommit } from "./group-commit.js";
import { InvalidAuditRecordError } from "./invalid-audit-record-error.js";
import { StoreClosedError } from "./store-closed-error.js";
import type { StoreState } from "./store-state.js";

const resolved = Promise.resolve();

/** An execution in flight, with the journal line that records it (SQLite). */
export interface InflightSlot {
  readonly execution: InflightExecution;
  line: string | undefined;
}

/**
 * What both dialects share: validation, the in-flight map (begin -> complete), group commit of
 * audit rows, and the read side. A dialect supplies how a start is made durable, how a batch of
 * rows is committed, and how dead executions are recovered.
 */
export abstract class AuditLogBase implements AuditLog {
  protected readonly inflight = new Map<string, InflightSlot>();
  protected readonly state: StoreState;
  readonly #reader: AuditReader;
  readonly #rows: GroupCommit<AuditRowValues>;

  constructor(state: StoreState, reader: AuditReader) {
    this.state = state;
    this.#reader = reader;
    // While other executions are in flight their rows come within the turn: one transaction
    // takes them all (64 in flight: about 60 rows a commit, not a few).
    this.#rows = new GroupCommit(
      (rows) => this.commitRows(rows),
      1000,
      () => this.inflight.size > this.#rows.pending,
    );
  }

  /** How many executions have begun and not completed. */
  get inflightCount(): number {
    return this.inflight.size;
  }

  begin(start: AuditStart): Promise<void> {
    if (this.state.closed) return Promise.reject(new StoreClosedError("audit.begin"));
    let slot: InflightSlot;
    try {
      slot = { execution: toInflight(start, timeOrderedUuid()), line: undefined };
    } catch (error) {
      return Promise.reject(error);
    }
    const { executionId } = slot.execution;
    if (this.inflight.has(executionId)) {
      return Promise.reject(
        new InvalidAuditRecordError(
          "executionId",
          `Execution '${executionId}' is already in flight; complete it before beginning it again.`,
          executionId,
        ),
      );
    }
    this.inflight.set(executionId, slot);
    try {
      const durable = this.recordStart(slot);
      if (durable === undefined) return resolved;
      return durable.catch((error: unknown) => {
        this.#forget(slot);
        throw error;
      });
    } catch (error) {
      this.#forget(slot);
      return Promise.reject(error);
    }
  }

  complete(record: AuditRecord): Promise<void> {
    if (this.state.closed) return Promise.reject(new StoreClosedError("audit.complete"));
    let row: AuditRowValues;
    try {
      const slot =
        typeof record.executionId === "string"
          ? this.inflight.get(cleanText(record.executionId))
          : undefined;
      row = toAuditRow(record, slot?.execution.id ?? timeOrderedUuid(), slot?.execution);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writeRow(row);
  }

  async get(executionId: string): Promise<AuditEntry | undefined> {
    this.state.check("audit.get");
    await this.beforeRead();
    return this.#reader.get(executionId);
  }

  async query(query?: AuditQuery): Promise<AuditPage> {
    this.state.check("audit.query");
    await this.beforeRead();
    return this.#reader.query(query);
  }

  async count(filter?: AuditFilter): Promise<number> {
    this.state.check("audit.count");
    await this.beforeRead();
    return this.#reader.count(filter);
  }

  async recoverInterrupted(): Promise<number> {
    this.state.check("audit.recoverInterrupted");
    return this.recover();
  }

  /** Waits for queued rows to be committed, then lets the dialect release what it holds. */
  async close(): Promise<void> {
    await this.#rows.drain();
    await this.release();
  }

  /**
   * Makes a completed execution's row durable; resolves once it is. By default the row is
   * committed (with the rows of other executions completing in the same turn: group commit).
   */
  protected writeRow(row: AuditRowValues): Promise<void> {
    return this.#rows.add(row);
  }

  /** Called before every read, so that a read sees every row this store has made durable. */
  protected beforeRead(): void | Promise<void> {}

  /**
   * Makes the start durable: returns `undefined` when it already is, else a promise that
   * resolves once it would survive a crash of this process.
   */
  protected abstract recordStart(slot: InflightSlot): Promise<void> | undefined;
  /** Commits `rows` in one transaction; throws if none was written. */
  protected abstract commitRows(rows: AuditRowValues[]): void | Promise<void>;
  /** Writes `interrupted` rows for dead executions; returns how many. */
  protected abstract recover(): Promise<number>;
  /** Releases files and connections the dialect holds (after the last commit). */
  protected abstract release(): Promise<void>;

  /** Drops committed executions from the in-flight map. */
  protected settle(rows: readonly AuditRowValues[]): void {
    for (const row of rows) {
      const slot = this.inflight.get(row.executionId);
      if (slot !== undefined && slot.execution.id === row.id) this.inflight.delete(row.executionId);
    }
  }

  #forget(slot: InflightSlot): void {
    if (this.inflight.get(slot.execution.executionId) === slot) {
      this.inflight.delete(slot.execution.executionId);
    }
  }
}
