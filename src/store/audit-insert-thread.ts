import { createRequire } from "node:module";
import {
  MessageChannel,
  type MessagePort,
  receiveMessageOnPort,
  Worker,
} from "node:worker_threads";

/** How a batch of rows handed to the insert thread fared. */
export type InsertAnswer =
  /** Every row is in the table. */
  | { readonly batch: number; readonly kind: "inserted" }
  /** Another connection held the write lock past the busy timeout: nothing was inserted. */
  | { readonly batch: number; readonly kind: "busy" }
  /**
   * The batch failed for a reason other than a lock, so each row was tried on its own: those
   * listed (by their index in the batch, with the reason) were refused, the others inserted.
   */
  | {
      readonly batch: number;
      readonly kind: "refused";
      readonly refused: readonly (readonly [number, string])[];
    }
  /** The thread has no connection (it could not open the database): nothing was inserted. */
  | { readonly batch: number; readonly kind: "unavailable"; readonly reason: string };

/**
 * How much longer than its busy timeout a read waits for the thread's answers (the thread may
 * still be starting, on a busy machine) before it gives the thread up.
 */
const SETTLE_MARGIN_MS = 10_000;

/** Slots of the memory the thread shares with the store's thread. */
const ANSWERS = 0; // how many answers the thread has queued: waking it wakes `settle`
const STATE = 1; // 0 while it starts, READY once it answers batches, GONE once it is exiting
const READY = 1;
const GONE = 2;

/**
 * The thread's code. CommonJS, run with `eval`: the package needs no separate file for it, and
 * better-sqlite3 is loaded from the path the store itself resolved.
 */
const threadSource = `
const { workerData } = require("node:worker_threads");
const { port, shared, module, path, sql, busyTimeoutMs } = workerData;
const slots = new Int32Array(shared);
process.on("exit", () => {
  Atomics.store(slots, ${STATE}, ${GONE});
  Atomics.notify(slots, ${ANSWERS});
});
let database, insert, insertAll, openError;
try {
  const Database = require(module);
  database = new Database(path, { fileMustExist: true });
  database.pragma("busy_timeout = " + busyTimeoutMs);
  database.pragma("synchronous = NORMAL");
  insert = database.prepare(sql);
  insertAll = database.transaction((rows) => { for (const row of rows) insert.run(row); });
} catch (error) {
  openError = "the insert thread could not open " + path + ": " + String(error);
}
const isBusy = (error) => typeof error?.code === "string" && /^SQLITE_(BUSY|LOCKED)/.test(error.code);
function insertBatch(batch, rows) {
  if (openError !== undefined) return { batch, kind: "unavailable", reason: openError };
  try {
    insertAll(rows);
    return { batch, kind: "inserted" };
  } catch (error) {
    if (isBusy(error)) return { batch, kind: "busy" };
  }
  const refused = [];
  rows.forEach((row, index) => {
    try { insert.run(row); } catch (error) { refused.push([index, String(error)]); }
  });
  return { batch, kind: "refused", refused };
}
port.on("message", (message) => {
  if (message.close) {
    try { database?.close(); } catch {}
    port.close();
    return;
  }
  port.postMessage(insertBatch(message.batch, message.rows));
  // After the answer is queued: a thread that sees the count can take the answer at once.
  Atomics.add(slots, ${ANSWERS}, 1);
  Atomics.notify(slots, ${ANSWERS});
});
Atomics.store(slots, ${STATE}, ${READY});
`;

/**
 * A thread with its own connection to the store's database that inserts audit rows, so that a
 * transaction's commit (and SQLite's checkpoints, which sync the file) never hold up the thread
 * that answers tool calls. Started at the first batch. Batches are answered in order, through
 * `onAnswer`, or at once with {@link AuditInsertThread.settle}.
 */
export class AuditInsertThread {
  readonly #path: string;
  readonly #sql: string;
  readonly #busyTimeoutMs: number;
  readonly #onAnswer: (answer: InsertAnswer) => void;
  readonly #module: string | undefined;
  #worker: Worker | undefined;
  #port: MessagePort | undefined;
  readonly #slots = new Int32Array(new SharedArrayBuffer(8));
  /** Batches handed over and not answered yet, oldest first (the thread answers in order). */
  readonly #outstanding: number[] = [];
  #failed = false;

  /**
   * @param path the database file (the thread opens it; it must exist)
   * @param sql the insert statement; a batch's rows are bound to it one by one
   * @param onAnswer gets every batch's answer, once, in the order they were handed over; a batch
   *   the thread could not answer (it stopped, or did not answer in time) is answered
   *   "unavailable"
   * @param module the better-sqlite3 the thread loads; default the one this package resolves
   */
  constructor(
    path: string,
    sql: string,
    busyTimeoutMs: number,
    onAnswer: (answer: InsertAnswer) => void,
    module?: string,
  ) {
    this.#path = path;
    this.#sql = sql;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#onAnswer = onAnswer;
    this.#module = module;
  }

  /** Batches handed over and not answered yet. */
  get unanswered(): number {
    return this.#outstanding.length;
  }

  /**
   * Hands a batch to the thread; false when there is no thread (it could not start, or it
   * stopped): the caller inserts the rows itself.
   */
  post(batch: number, rows: readonly unknown[][]): boolean {
    const port = this.#started();
    if (port === undefined) return false;
    try {
      port.postMessage({ batch, rows });
    } catch {
      return false; // a value that cannot be sent: the caller inserts it
    }
    this.#outstanding.push(batch);
    return true;
  }

  /**
   * Waits, blocking this thread, until every batch handed over is answered, and hands the
   * answers to `onAnswer` before it returns. A thread that is gone, or that does not answer
   * within its busy timeout and a margin for starting, is given up: the batches it still had
   * are answered "unavailable" (the caller inserts them itself).
   */
  settle(): void {
    const until = Date.now() + this.#busyTimeoutMs + SETTLE_MARGIN_MS;
    for (;;) {
      const seen = Atomics.load(this.#slots, ANSWERS);
      this.#takeQueued();
      if (this.#outstanding.length === 0) return;
      // Its exit is an event of this thread's loop, which waits here: the thread says so itself.
      if (Atomics.load(this.#slots, STATE) === GONE || this.#port === undefined) {
        this.#stopped();
        return;
      }
      const left = until - Date.now();
      if (left <= 0) {
        this.#giveUp();
        return;
      }
      Atomics.wait(this.#slots, ANSWERS, seen, Math.min(left, 100));
    }
  }

  /** Lets the batches handed over finish, then closes the thread's connection and the thread. */
  async close(): Promise<void> {
    const worker = this.#worker;
    const port = this.#port;
    this.#failed = true; // no batch after this one
    if (worker === undefined || port === undefined) return;
    // Kept alive meanwhile: the exit awaited is then this process's to wait for.
    worker.ref();
    // The thread answers in order: it closes after every batch already handed over.
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    port.postMessage({ close: true });
    await exited;
    this.#stopped();
  }

  #started(): MessagePort | undefined {
    if (this.#failed) return undefined;
    if (this.#port !== undefined) return this.#port;
    let module: string;
    try {
      module = this.#module ?? createRequire(import.meta.url).resolve("better-sqlite3");
    } catch {
      this.#failed = true;
      return undefined;
    }
    const { port1, port2 } = new MessageChannel();
    let worker: Worker;
    try {
      worker = new Worker(threadSource, {
        eval: true,
        workerData: {
          module,
          port: port2,
          shared: this.#slots.buffer,
          path: this.#path,
          sql: this.#sql,
          busyTimeoutMs: this.#busyTimeoutMs,
        },
        transferList: [port2],
      });
    } catch {
      port1.close();
      this.#failed = true;
      return undefined;
    }
    port1.on("message", (answer: InsertAnswer) => this.#answer(answer));
    // The rows are in the journal until answered: the thread must not keep a finished process up.
    port1.unref();
    worker.unref();
    worker.on("error", () => undefined); // its exit follows
    worker.on("exit", () => this.#stopped());
    this.#worker = worker;
    this.#port = port1;
    return port1;
  }

  /** The thread did not answer in time: it is stopped, and what it had comes back. */
  #giveUp(): void {
    const worker = this.#worker;
    this.#stopped();
    // Rows it inserts before it stops are refused by their key when inserted again: no doubles.
    worker?.terminate().catch(() => undefined);
  }

  /** The thread is gone: answers it left are taken, batches it never answered come back. */
  #stopped(): void {
    this.#failed = true;
    this.#takeQueued();
    this.#port?.close();
    this.#port = undefined;
    this.#worker = undefined;
    for (const batch of this.#outstanding.splice(0)) {
      this.#onAnswer({ batch, kind: "unavailable", reason: "the insert thread stopped" });
    }
  }

  #takeQueued(): void {
    const port = this.#port;
    if (port === undefined) return;
    for (;;) {
      const received = receiveMessageOnPort(port);
      if (received === undefined) return;
      this.#answer(received.message as InsertAnswer);
    }
  }

  #answer(answer: InsertAnswer): void {
    const index = this.#outstanding.indexOf(answer.batch);
    if (index === -1) return; // answered already (the thread stopped meanwhile)
    this.#outstanding.splice(index, 1);
    if (answer.kind === "unavailable" && !this.#failed) {
      // No connection: later batches are the caller's to insert, and the thread can go.
      this.#failed = true;
      this.#port?.postMessage({ close: true });
    }
    this.#onAnswer(answer);
  }
}
