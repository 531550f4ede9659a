import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import { AuditInsertThread, type InsertAnswer } from "./audit-insert-thread.js";
import { AuditLogBase, type InflightSlot } from "./audit-log-base.js";
import { AuditReader } from "./audit-reader.js";
import {
  AUDIT_COLUMNS,
  type AuditRowValues,
  auditRowValues,
  doneRowFrom,
  interruptedRow,
  salvageInflight,
} from "./audit-row.js";
import { GroupCommit } from "./group-commit.js";
import { InflightJournal } from "./inflight-journal.js";
import { reportRecoverySkip } from "./report-recovery-skip.js";
import { takeSqliteFileTurn } from "./sqlite-file-turn.js";
import { DEFAULT_BUSY_TIMEOUT_MS } from "./store-config.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { sqliteTableName, TOOL_EXECUTIONS_TABLE } from "./table-names.js";

/** What a SQLite audit log is built from. */
export interface SqliteAuditLogConfig {
  /** The open connection (WAL, synchronous = NORMAL), shared with Kysely. */
  readonly database: BetterSqlite3.Database;
  /** Kysely over the same connection, with the table prefix plugin applied. */
  readonly kysely: Kysely<StoreTables>;
  readonly schema: string;
  /** The database file; `undefined` for `sqlite::memory:` (no journal: nothing survives anyway). */
  readonly databasePath: string | undefined;
  /**
   * The key of the database's turn among this process's stores ({@link takeSqliteFileTurn}): its
   * real path, or an in-memory connection's key.
   */
  readonly fileTurn: string;
  readonly state: StoreState;
  /**
   * Whether rows are inserted by a thread with its own connection to `databasePath` (the store
   * opened the file itself), so that commits and checkpoints never hold up this thread; default
   * false: rows are inserted on `database`.
   */
  readonly insertThread?: boolean;
  /** The busy timeout of the insert thread's connection (`database`'s own, as the store set it). */
  readonly busyTimeoutMs?: number;
}

/** A value as better-sqlite3 binds it: ISO-8601 UTC text for a time, 0 / 1 for a flag. */
function toSqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return typeof value === "boolean" ? Number(value) : value;
}

/**
 * How long a finished row waits in the journal before it is inserted, with the rows that
 * finished meanwhile, in one transaction.
 */
export const WRITE_BEHIND_MS = 20;
/** Rows waiting past this many are inserted at once. */
const WRITE_BEHIND_MAX_ROWS = 256;

/** The code of the process warning for a row the table refused (it stays in the journal). */
export const AUDIT_INSERT_FAILED_WARNING = "AINTERN_AUDIT_INSERT_FAILED";

/** A finished row, durable in the journal, not yet in the table. */
interface BehindRow {
  readonly row: AuditRowValues;
  /** The row as the insert binds it (and as its done line holds it). */
  readonly values: unknown[];
  /** The done line, and the start line of its execution (both stay until the insert). */
  readonly lines: readonly string[];
}

/** A line for the journal; a done line carries the row it records. */
interface JournalLine {
  readonly line: string;
  readonly done: { row: AuditRowValues; values: unknown[]; line: string } | undefined;
}

/** What a write made at once resolves with. */
const writtenAlready: Promise<void> = Promise.resolve();

/** The longest wait between two inserts that met a busy database. */
const BUSY_RETRY_MAX_MS = 2_000;

/** The columns a done line's values are in, as its signature names them. */
const DONE_LINE_COLUMNS: readonly string[] = AUDIT_COLUMNS;

/** SQLITE_BUSY / SQLITE_LOCKED (and their extended codes): another connection holds a lock. */
function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(code);
}

/**
 * A log with rows waiting in its journal, as every copy of the library sees it: its file's turn
 * key and what inserts its rows. A plain object, not the log: another copy's class cannot read
 * the log's private fields.
 */
interface RowsBehind {
  readonly fileTurn: string;
  /** Inserts the rows waiting (in the file's turn: the caller holds it). */
  readonly insertBehind: () => void;
}

/**
 * Logs with rows waiting, registered under `Symbol.for` on `globalThis`: a read through any copy
 * of the library (two versions in one program, a bundle beside the package) sees the rows another
 * copy made durable, as a read through another store of the same copy does.
 */
function logsWithRowsBehind(): Set<RowsBehind> {
  const holder = globalThis as Record<symbol, unknown>;
  const key = Symbol.for("aintern.store.sqliteRowsBehind");
  const existing = holder[key];
  if (existing instanceof Set) return existing as Set<RowsBehind>;
  const created = new Set<RowsBehind>();
  holder[key] = created;
  return created;
}

const rowsBehindOfEveryCopy = logsWithRowsBehind();

/** This copy's logs with rows waiting, inserted when the process exits. */
const withRowsBehind = new Set<SqliteAuditLog>();
let exitHookInstalled = false;

/** The row as better-sqlite3 binds it. */
export function sqliteRowValues(row: AuditRowValues): unknown[] {
  return auditRowValues(row).map(toSqliteValue);
}

/** The INSERT statement for the audit table in SQLite (`verb` may add `OR IGNORE`). */
export function sqliteInsertSql(schema: string, verb = "INSERT"): string {
  const table = sqliteTableName(schema, TOOL_EXECUTIONS_TABLE);
  const placeholders = AUDIT_COLUMNS.map(() => "?").join(", ");
  return `${verb} INTO "${table}" (${AUDIT_COLUMNS.join(", ")}) VALUES (${placeholders})`;
}

/**
 * The embedded audit log. Reads go through Kysely; the hot path is a prepared better-sqlite3
 * statement, one autocommit insert for a lone row and one `db.transaction` for a group. Starts
 * go to an {@link InflightJournal} beside the database file.
 *
 * Finished rows are written ahead: `complete` appends the row to the journal (one `writeSync`,
 * durable against a crash of this process from then on, like a commit with `synchronous =
 * NORMAL`) and resolves; the row is inserted into the table within {@link WRITE_BEHIND_MS}, with
 * the rows that finished meanwhile, in one transaction. A commit per row costs a WAL frame per
 * b-tree it touches (the table and its eight indexes), most of a guarded call's audit cost. Every
 * read through this log inserts what waits first, and so do `close` and the process's exit; after
 * a crash, the next open inserts the journal's rows. A row the table refuses stays in the journal
 * for that recovery and is reported as a process warning ({@link AUDIT_INSERT_FAILED_WARNING}).
 * A row the journal cannot take (a full disk) is committed directly, as before.
 *
 * Commits run synchronously (in a microtask, the write-behind timer or a read) on the connection
 * Kysely also uses. Code sharing the connection must therefore not hold a Kysely transaction open
 * across an `await` (the audit insert would join it); use better-sqlite3's synchronous
 * `db.transaction` instead. A read inserts (and waits for the insert thread) in the file's turn,
 * after the store's own Kysely transactions of this process, which do span awaits.
 */
export class SqliteAuditLog extends AuditLogBase {
  readonly #database: BetterSqlite3.Database;
  readonly #databasePath: string | undefined;
  readonly #fileTurn: string;
  readonly #schema: string;
  readonly #journal: InflightJournal | undefined;
  readonly #insert: BetterSqlite3.Statement;
  readonly #insertOrIgnore: BetterSqlite3.Statement;
  /** This log in {@link logsWithRowsBehind} while it has rows waiting. */
  readonly #rowsBehind: RowsBehind;
  /** Inserts rows bound for SQLite (see {@link sqliteRowValues}) in one transaction. */
  readonly #insertMany: (rows: readonly unknown[][]) => void;
  /** Journal lines (starts, done rows) of one tick, written together. */
  readonly #starts: GroupCommit<JournalLine> | undefined;
  /** Rows durable in the journal, waiting for their insert. */
  #behind: BehindRow[] = [];
  /** Rows the table refused: kept live in the journal for the next open's recovery. */
  readonly #refused: BehindRow[] = [];
  /** The batch with the insert thread, not answered yet (it has one at a time). */
  #handedOver: { readonly number: number; readonly rows: BehindRow[] } | undefined;
  #lastBatch = 0;
  /** Closed: rows still waiting stay in the journal, for the next open. */
  #released = false;
  readonly #thread: AuditInsertThread | undefined;
  #insertTimer: NodeJS.Timeout | undefined;
  #insertQueued = false;
  /** Inserts that met a busy database in a row: the next try waits longer. */
  #busyRetries = 0;

  constructor(config: SqliteAuditLogConfig) {
    super(config.state, new AuditReader(config.kysely, (date) => date.toISOString()));
    this.#database = config.database;
    this.#databasePath = config.databasePath;
    this.#fileTurn = config.fileTurn;
    this.#rowsBehind = { fileTurn: config.fileTurn, insertBehind: () => this.insertBehind() };
    this.#schema = config.schema;
    const journal =
      config.databasePath === undefined
        ? undefined
        : new InflightJournal(config.databasePath, config.schema);
    this.#journal = journal;
    this.#starts =
      journal === undefined
        ? undefined
        : new GroupCommit<JournalLine>((lines) => {
            journal.write(lines.map((entry) => entry.line).join(""));
            // Before any waiter resumes: from here on the rows are the journal's live lines,
            // whatever runs next (an insert, a read, a tidy).
            for (const entry of lines) if (entry.done !== undefined) this.#wroteDone(entry.done);
          });
    this.#insert = config.database.prepare(sqliteInsertSql(config.schema));
    this.#insertOrIgnore = config.database.prepare(
      sqliteInsertSql(config.schema, "INSERT OR IGNORE"),
    );
    const insert = this.#insert;
    this.#insertMany = config.database.transaction((rows: readonly unknown[][]) => {
      for (const values of rows) insert.run(values);
    });
    this.#thread =
      config.insertThread === true && config.databasePath !== undefined && journal !== undefined
        ? new AuditInsertThread(
            config.databasePath,
            sqliteInsertSql(config.schema),
            config.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS,
            (answer) => this.#answered(answer),
          )
        : undefined;
  }

  /** The journal file of this store, when it has one (for diagnostics and tests). */
  get journalPath(): string | undefined {
    return this.#journal?.path;
  }

  protected recordStart(slot: InflightSlot): Promise<void> | undefined {
    const journal = this.#journal;
    if (journal === undefined || this.#starts === undefined) return undefined;
    const line = InflightJournal.lineOf(slot.execution);
    slot.line = line;
    if (this.#writesAlone()) {
      // Throws when the journal cannot take it: `begin` rejects and the tool does not run.
      journal.write(line);
      return undefined;
    }
    // The starts of one tick share one writeSync, made before any of them resolves.
    return this.#starts.add({ line, done: undefined });
  }

  protected override writeRow(row: AuditRowValues): Promise<void> {
    const lines = this.#starts;
    const journal = this.#journal;
    if (lines === undefined || journal === undefined) return super.writeRow(row);
    const values = sqliteRowValues(row);
    const line = InflightJournal.doneLineOf(values, DONE_LINE_COLUMNS);
    const done = { row, values, line };
    if (this.#writesAlone()) {
      try {
        journal.write(line);
      } catch {
        return super.writeRow(row);
      }
      this.#wroteDone(done);
      return writtenAlready;
    }
    return lines.add({ line, done }).then(
      undefined,
      // The journal cannot take it (a full disk, a file-size limit): commit the row directly.
      () => super.writeRow(row),
    );
  }

  /**
   * Whether a journal line is written at once, by the call that makes it: when no other
   * execution is in flight (none could share the write) and no line waits for a group write
   * (the journal keeps its order). A lone caller then waits for no promise and no microtask.
   */
  #writesAlone(): boolean {
    return this.inflight.size <= 1 && this.#starts?.pending === 0;
  }

  /** A done line is in the journal: the row waits there for its insert. */
  #wroteDone(done: { row: AuditRowValues; values: unknown[]; line: string }): void {
    const { row } = done;
    // Finished: no longer in flight (its id may begin again), but its start line stays live.
    const slot = this.inflight.get(row.executionId);
    const started = slot !== undefined && slot.execution.id === row.id ? slot : undefined;
    if (started !== undefined) this.inflight.delete(row.executionId);
    const startLine = started?.line;
    this.#behind.push({
      row,
      values: done.values,
      lines: startLine === undefined ? [done.line] : [startLine, done.line],
    });
    this.#scheduleInsert();
  }

  /**
   * A read in this process sees every row this process made durable, whichever store (of
   * whichever copy of the library) wrote it.
   */
  protected override async beforeRead(): Promise<void> {
    // Only this file's: a read need not wait in another file's turn (or for its lock).
    for (const behind of [...rowsBehindOfEveryCopy]) {
      if (behind.fileTurn === this.#fileTurn) await this.#inTurn(behind.insertBehind);
    }
  }

  /** Rows wait in the journal: reads (of every copy) and the process's exit insert them. */
  #markRowsBehind(): void {
    withRowsBehind.add(this);
    rowsBehindOfEveryCopy.add(this.#rowsBehind);
  }

  /** No row waits any more. */
  #unmarkRowsBehind(): void {
    withRowsBehind.delete(this);
    rowsBehindOfEveryCopy.delete(this.#rowsBehind);
  }

  /**
   * Runs `work` while holding the turn of this log's file ({@link takeSqliteFileTurn}). Every
   * insert on this thread, and every wait for the insert thread's answer, runs in it: either
   * blocks the thread, and in the middle of a Kysely transaction of this process (another
   * store's, or this one's, holding the write lock across an await) the transaction could never
   * commit: the thread would wait out its busy timeout, and the rows would not be inserted.
   */
  async #inTurn(work: () => void): Promise<void> {
    const endTurn = await takeSqliteFileTurn(this.#fileTurn);
    try {
      work();
    } finally {
      endTurn();
    }
  }

  /**
   * Inserts the rows waiting in the journal, in one transaction, and returns when they are in
   * the table (or set aside: refused, or waiting for a busy database).
   */
  insertBehind(): void {
    for (;;) {
      this.#handOver();
      if (this.#thread === undefined || this.#thread.unanswered === 0) return;
      this.#thread.settle();
      // Rows that waited for that batch go next; a busy database leaves them to its retries.
      if (this.#behind.length === 0 || this.#busyRetries > 0) return;
    }
  }

  /**
   * The waiting rows go to the insert thread, or are inserted here when there is none. The
   * thread has one batch at a time: rows that finish meanwhile wait for its answer (while a lock
   * holds it up, they are not queued behind it one busy timeout each). `onThisThread`: inserted
   * here whatever the thread holds (the process is exiting).
   */
  #handOver(onThisThread = false): void {
    if (this.#insertTimer !== undefined) {
      clearTimeout(this.#insertTimer);
      this.#insertTimer = undefined;
    }
    if (this.#released) return;
    const batch = this.#behind;
    if (batch.length === 0 || (this.#handedOver !== undefined && !onThisThread)) return;
    this.#behind = [];
    if (this.#thread !== undefined && !onThisThread) {
      const number = ++this.#lastBatch;
      const values = batch.map((item) => item.values);
      if (this.#thread.post(number, values)) {
        this.#handedOver = { number, rows: batch };
        return;
      }
    }
    this.#insertHere(batch);
  }

  /** What the insert thread did with a batch. */
  #answered(answer: InsertAnswer): void {
    if (this.#handedOver?.number !== answer.batch) return;
    const batch = this.#handedOver.rows;
    this.#handedOver = undefined;
    switch (answer.kind) {
      case "inserted":
        this.#busyRetries = 0;
        break;
      case "busy":
        this.#waitForLock(batch);
        return;
      case "refused":
        for (const [index, reason] of answer.refused) {
          const item = batch[index];
          if (item !== undefined) this.#refuse(item, reason);
        }
        break;
      case "unavailable":
        // The thread has no connection (or stopped): this one inserts them.
        this.#insertHere(batch);
        return;
    }
    this.#forgetIfDone();
    this.#tidy();
    // Rows that finished while the thread worked make the next batch, with those that follow.
    if (this.#behind.length > 0 && this.#insertTimer === undefined)
      this.#armInsert(WRITE_BEHIND_MS);
  }

  /** Inserts rows on this thread's connection, in one transaction (synchronously). */
  #insertHere(batch: BehindRow[]): void {
    try {
      this.#insertRows(batch);
      this.#busyRetries = 0;
      this.#forgetIfDone();
      this.#tidy();
      return;
    } catch (error) {
      if (isBusy(error)) {
        this.#waitForLock(batch);
        return;
      }
      // One row the table refuses must not keep the others out: each on its own.
    }
    // No tidy until every row of the batch is either in the table or set aside: a row still to
    // be tried is in neither list, and a tidy in between would take its lines out of the journal.
    for (const item of batch) {
      try {
        this.#insertRows([item]);
      } catch (error) {
        this.#refuse(item, String(error));
      }
    }
    this.#forgetIfDone();
    this.#tidy();
  }

  /**
   * Another connection holds the write lock past the busy timeout: the rows wait in the journal
   * and are tried again later, longer each time (they are durable meanwhile).
   */
  #waitForLock(batch: BehindRow[]): void {
    this.#behind = batch.concat(this.#behind);
    this.#markRowsBehind();
    this.#busyRetries++;
    this.#armInsert(Math.min(BUSY_RETRY_MAX_MS, WRITE_BEHIND_MS * 2 ** this.#busyRetries));
  }

  /** A row the table refused: it stays in the journal, for the next open to insert. */
  #refuse(item: BehindRow, reason: string): void {
    this.#refused.push(item);
    process.emitWarning(
      `Audit row of execution '${item.row.executionId.slice(0, 80)}' could not be inserted (${reason}); it stays in ${this.#journal?.path ?? "the journal"} and is inserted when the store is next opened.`,
      { code: AUDIT_INSERT_FAILED_WARNING },
    );
  }

  /** No row of this log waits any more: a read need not wait for it. */
  #forgetIfDone(): void {
    if (this.#behind.length === 0 && this.#handedOver === undefined) this.#unmarkRowsBehind();
  }

  #scheduleInsert(): void {
    this.#markRowsBehind();
    installExitHook();
    if (this.#behind.length >= WRITE_BEHIND_MAX_ROWS && this.#busyRetries === 0) {
      // Soon, not now: the journal write that got here is still settling its waiters.
      if (this.#insertTimer !== undefined) clearTimeout(this.#insertTimer);
      this.#insertTimer = undefined;
      if (!this.#insertQueued) {
        this.#insertQueued = true;
        queueMicrotask(() => {
          this.#insertQueued = false;
          void this.#inTurn(() => this.#handOver());
        });
      }
      return;
    }
    if (this.#insertTimer === undefined) this.#armInsert(WRITE_BEHIND_MS);
  }

  #armInsert(delayMs: number): void {
    if (this.#insertTimer !== undefined) clearTimeout(this.#insertTimer);
    this.#insertTimer = setTimeout(() => {
      this.#insertTimer = undefined;
      void this.#inTurn(() => this.#handOver());
    }, delayMs);
    // The rows are durable already: a timer must not keep a process alive that is done.
    this.#insertTimer.unref();
  }

  /** Inserts rows that wait in the journal (no longer in flight: nothing to settle). */
  #insertRows(batch: readonly BehindRow[]): void {
    this.#insertValues(batch.map((item) => item.values));
  }

  /**
   * Rows committed directly (an in-memory database; a row the journal could not take): in the
   * database's turn, as the write-behind inserts, for the same reason.
   */
  protected commitRows(rows: AuditRowValues[]): Promise<void> {
    const commit = (): void => {
      this.#insertValues(rows.map(sqliteRowValues));
      this.settle(rows);
      this.#tidy();
    };
    return this.#inTurn(commit);
  }

  /** One autocommit insert for a lone row, one transaction for a group. */
  #insertValues(rows: readonly unknown[][]): void {
    const [only] = rows;
    if (rows.length === 1 && only !== undefined) this.#insert.run(only);
    else this.#insertMany(rows);
  }

  #tidy(): void {
    try {
      this.#journal?.tidy(this.#liveCount(), () => this.#liveLines());
    } catch {
      // Housekeeping only: the rows are committed, and a journal that stays long is still right.
    }
  }

  /** Lines the journal must keep: starts in flight, rows not yet (or never) in the table. */
  #liveCount(): number {
    const handedOver = this.#handedOver?.rows.length ?? 0;
    return this.inflight.size + this.#behind.length + handedOver + this.#refused.length;
  }

  protected async recover(): Promise<number> {
    if (this.#databasePath === undefined) return 0;
    const foundAt = new Date();
    let written = 0;
    const insertOrIgnore = this.#insertOrIgnore;
    for (const path of InflightJournal.findOrphans(this.#databasePath, this.#schema)) {
      const { executions, done, skipped } = InflightJournal.scan(path, DONE_LINE_COLUMNS);
      for (const reason of skipped) reportRecoverySkip(path, reason);
      this.#database.transaction(() => {
        // Finished rows first: an execution with its row needs no interrupted one (same id).
        for (const values of done) {
          // A journal is a file anyone with the folder can write: its rows are checked as a
          // complete() would check them, not trusted.
          const row = doneRowFrom(values);
          if (row === undefined) {
            reportRecoverySkip(path, `a done line that is not a valid audit row`);
            continue;
          }
          try {
            written += insertOrIgnore.run(sqliteRowValues(row)).changes;
          } catch (error) {
            reportRecoverySkip(
              path,
              `the row of execution '${String(values[1]).slice(0, 80)}' (${String(error)})`,
            );
          }
        }
        for (const execution of executions) {
          // A row with the same id means the execution completed: the insert is ignored.
          try {
            written += insertOrIgnore.run(
              sqliteRowValues(interruptedRow(salvageInflight(execution), foundAt)),
            ).changes;
          } catch (error) {
            reportRecoverySkip(
              path,
              `execution '${execution.executionId.slice(0, 80)}' (${String(error)})`,
            );
          }
        }
      })();
      InflightJournal.remove(path);
    }
    return written;
  }

  protected async release(): Promise<void> {
    await this.#starts?.drain();
    // In the file's turn: with no insert thread, they are inserted on this thread.
    await this.#inTurn(() => this.#handOver());
    await this.#thread?.close();
    // Rows the thread gave back (it stopped) are tried here; rows a busy database held up
    // were tried once at close already, and wait in the journal for the next open.
    if (this.#busyRetries === 0) await this.#inTurn(() => this.#handOver());
    if (this.#insertTimer !== undefined) clearTimeout(this.#insertTimer);
    this.#insertTimer = undefined;
    // Another store's read must not try them on this closed connection.
    this.#released = true;
    this.#unmarkRowsBehind();
    this.#journal?.close(this.#liveCount());
  }

  /**
   * The process is exiting: rows not yet handed over are inserted here. Those the thread has
   * not answered are not waited for: they are in the journal, which the next open recovers
   * (an insert that ignores rows the thread did commit).
   */
  insertAtExit(): void {
    this.#handOver(true);
  }

  *#liveLines(): Iterable<string> {
    for (const slot of this.inflight.values()) if (slot.line !== undefined) yield slot.line;
    for (const item of this.#behind) yield* item.lines;
    for (const item of this.#handedOver?.rows ?? []) yield* item.lines;
    for (const item of this.#refused) yield* item.lines;
  }
}

/** Inserts every waiting row when the process exits (a crash leaves them to recovery). */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const audit of withRowsBehind) {
      try {
        audit.insertAtExit();
      } catch {
        // The rows stay in the journal: the next open inserts them.
      }
    }
  });
}
