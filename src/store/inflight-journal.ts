import { randomBytes } from "node:crypto";
import {
  closeSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { threadId } from "node:worker_threads";
import type { InflightExecution } from "./audit-row.js";
import { JournalWriteError } from "./journal-write-error.js";
import { processExists, processRegistry } from "./process-exists.js";
import { DEFAULT_STORE_SCHEMA } from "./table-names.js";

/** Past this size the journal is emptied as soon as nothing is in flight. */
const TRUNCATE_BYTES = 64 * 1024;
/** Past this size the journal is rewritten with only what is in flight. */
const COMPACT_BYTES = 4 * 1024 * 1024;

/** Journals open in this process, shared by every bundled copy of the library. */
const openJournals: Set<string> = processRegistry("aintern.store.openJournals");

/**
 * `<pid>.<token>[.t<thread>.<schema>][.tmp]`: journals written before the thread and schema were
 * part of the name are the main thread's, of the default schema.
 */
const namePattern = /^(\d+)\.([0-9a-f]+)(?:\.t(\d+)\.([A-Za-z_][A-Za-z0-9_]*))?(\.tmp)?$/;

/**
 * The SQLite store's evidence of executions in flight: an append-only file beside the database,
 * `<db>-inflight.<pid>.<token>`, one per open store.
 *
 * `begin` appends one line with a single `writeSync` (starts made in the same tick while other
 * executions are in flight share one), checked for its full length: a short or failed write
 * (full disk, file-size limit) is taken back with `ftruncate` and throws
 * {@link JournalWriteError}, so the execution fails before its tool runs; if even the take-back
 * fails, every later write throws. The line is then in the kernel's page
 * cache, so it survives the process being killed; like `synchronous = NORMAL` it is not fsynced
 * and may be lost if the machine itself goes down. `complete` appends the finished row (a "done"
 * line: the values the store inserts) the same way: the row is durable from then on, and the
 * store inserts it into the table a little later, together with others (write-behind). An
 * execution is finished when its done line or its audit row (same id) exists. The file is
 * emptied when nothing is in flight or waiting to be inserted and it has grown past 64 KiB,
 * rewritten with the live lines past 4 MiB, and removed on a close that leaves nothing behind.
 *
 * One file per store (not one per database) lets a second process open the same database while
 * the first is running tools: recovery only reads journals whose process is gone.
 */
export class InflightJournal {
  readonly path: string;
  #fd: number | undefined;
  #bytes = 0;
  /** Set when a torn line could not be taken back: the file can take no more lines. */
  #broken: JournalWriteError | undefined;

  /**
   * @param schema the store schema (table prefix) whose rows the journal holds: only a store of
   *   that schema recovers it.
   */
  constructor(databasePath: string, schema: string = DEFAULT_STORE_SCHEMA) {
    const token = randomBytes(6).toString("hex");
    this.path = `${databasePath}-inflight.${process.pid}.${token}.t${threadId}.${schema}`;
    openJournals.add(this.path);
  }

  /** Appends the evidence that `execution` has started; returns the line written. */
  append(execution: InflightExecution): string {
    const line = InflightJournal.lineOf(execution);
    this.write(line);
    return line;
  }

  /** Appends lines made by {@link InflightJournal.lineOf}, several at once, with one write. */
  write(text: string): void {
    if (this.#broken !== undefined) throw this.#broken;
    this.#fd ??= openSync(this.path, "a");
    const fd = this.#fd;
    let written = 0;
    let length = text.length;
    try {
      written = writeSync(fd, text);
      length = Buffer.byteLength(text);
      if (written < length) {
        // A short write: the rest goes byte-exact; the next call reports why it cannot.
        const bytes = Buffer.from(text);
        while (written < length) {
          const more = writeSync(fd, bytes, written, length - written);
          if (more <= 0) throw new Error("the write made no progress");
          written += more;
        }
      }
    } catch (error) {
      const failure = new JournalWriteError(this.path, written, length, error);
      if (written > 0) {
        // Take the torn line back so that the next line starts a line of its own.
        try {
          ftruncateSync(fd, this.#bytes);
        } catch {
          this.#broken = failure;
        }
      }
      throw failure;
    }
    this.#bytes += written;
  }

  /** The journal line (newline included) that records `execution`. */
  static lineOf(execution: InflightExecution): string {
    return `${JSON.stringify(toJournalFields(execution))}\n`;
  }

  /**
   * The done line (newline included) that records a finished execution's row: `values` as the
   * store binds them for its insert, in the order of `columns`, whose signature the line carries
   * (a row written by a version with other columns is not read as this version's).
   */
  static doneLineOf(values: readonly unknown[], columns: readonly string[]): string {
    return `{"done":${JSON.stringify(values)},"c":"${columnsSignature(columns)}"}\n`;
  }

  /** Called after commits to keep the file small; `live` gives the lines still in flight. */
  tidy(liveCount: number, live: () => Iterable<string>): void {
    if (this.#fd === undefined || this.#bytes < TRUNCATE_BYTES) return;
    if (liveCount === 0) {
      ftruncateSync(this.#fd, 0);
      this.#bytes = 0;
      return;
    }
    if (this.#bytes < COMPACT_BYTES) return;
    const text = Array.from(live()).join("");
    const temporary = `${this.path}.tmp`;
    writeFileSync(temporary, text);
    renameSync(temporary, this.path);
    closeSync(this.#fd);
    this.#fd = openSync(this.path, "a");
    this.#bytes = Buffer.byteLength(text);
  }

  /** Closes the file; removes it when nothing is in flight, else leaves it for recovery. */
  close(liveCount: number): void {
    if (this.#fd !== undefined) {
      closeSync(this.#fd);
      this.#fd = undefined;
      if (liveCount === 0) removeFile(this.path);
    }
    openJournals.delete(this.path);
  }

  /**
   * The journals of `schema` beside `databasePath` whose process has died (or, for this thread
   * of this process, whose store is no longer open), oldest process first. Another thread's
   * journal of this process counts as alive: whether its store is open is known there only.
   */
  static findOrphans(databasePath: string, schema: string = DEFAULT_STORE_SCHEMA): string[] {
    const folder = dirname(databasePath);
    const prefix = `${basename(databasePath)}-inflight.`;
    const orphans: string[] = [];
    for (const name of readdirSync(folder)) {
      if (!name.startsWith(prefix)) continue;
      const match = namePattern.exec(name.slice(prefix.length));
      if (match === null || (match[4] ?? DEFAULT_STORE_SCHEMA) !== schema) continue;
      const path = join(folder, name);
      const pid = Number(match[1]);
      const thread = Number(match[3] ?? 0);
      const alive =
        pid !== process.pid
          ? processExists(pid)
          : thread !== threadId || openJournals.has(path.replace(/\.tmp$/, ""));
      if (alive) continue;
      if (match[5] !== undefined) removeFile(path);
      else orphans.push(path);
    }
    return orphans.sort();
  }

  /** The executions a journal file records (lines that cannot be read are skipped). */
  static read(path: string): InflightExecution[] {
    return InflightJournal.scan(path).executions;
  }

  /**
   * What a journal file records: the executions started and the rows finished, and why any
   * line was skipped: a last line with no newline was torn by a crash in the middle of its
   * write (its start or its finish was never reported: each waits for its whole line), any
   * other unreadable line was damaged.
   */
  static scan(path: string, columns?: readonly string[]): JournalScan {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch {
      return { executions: [], done: [], skipped: [] };
    }
    const executions: InflightExecution[] = [];
    const done: (string | number | null)[][] = [];
    const skipped: string[] = [];
    const lines = text.split("\n");
    lines.forEach((line, index) => {
      if (line.length === 0) return;
      if (index === lines.length - 1) {
        // No newline after it: its write never finished, so nothing waited on it.
        skipped.push(`a torn last line of ${line.length} characters (its write was cut short)`);
        return;
      }
      if (line.startsWith('{"done":')) {
        const values = fromDoneLine(line, columns);
        if (values !== undefined) done.push(values);
        else skipped.push(`line ${index + 1} is not a done line of this version's columns`);
        return;
      }
      const execution = fromJournalLine(line);
      if (execution !== undefined) executions.push(execution);
      else skipped.push(`line ${index + 1} is not a journal line`);
    });
    return { executions, done, skipped };
  }

  /** Deletes a journal once its executions are accounted for. */
  static remove(path: string): void {
    removeFile(path);
  }
}

/** What {@link InflightJournal.scan} found in a journal file. */
export interface JournalScan {
  /** The executions started (each may also be finished: a done line or a row with its id). */
  readonly executions: InflightExecution[];
  /** The rows of finished executions, as the store binds them for its insert. */
  readonly done: (string | number | null)[][];
  /** One reason per line that was skipped. */
  readonly skipped: string[];
}

type JournalFields = [
  id: string,
  executionId: string,
  toolName: string,
  startedAtMs: number,
  parametersJson: string | null,
  batchId: string | null,
  userId: string | null,
  agentId: string | null,
  conversationId: string | null,
  sandboxId: string | null,
  metadataJson: string | null,
];

function toJournalFields(execution: InflightExecution): JournalFields {
  return [
    execution.id,
    execution.executionId,
    execution.toolName,
    execution.startedAt.getTime(),
    execution.parametersJson,
    execution.batchId,
    execution.userId,
    execution.agentId,
    execution.conversationId,
    execution.sandboxId,
    execution.metadataJson,
  ];
}

function fromJournalLine(line: string): InflightExecution | undefined {
  let fields: unknown;
  try {
    fields = JSON.parse(line);
  } catch {
    // A line torn by a machine crash: there is nothing to recover from it.
    return undefined;
  }
  if (!Array.isArray(fields) || fields.length !== 11) return undefined;
  const [id, executionId, toolName, startedAtMs] = fields;
  if (typeof id !== "string" || typeof executionId !== "string" || typeof toolName !== "string") {
    return undefined;
  }
  if (typeof startedAtMs !== "number") return undefined;
  const text = (index: number): string | null => {
    const value: unknown = fields[index];
    return typeof value === "string" ? value : null;
  };
  return {
    id,
    executionId,
    toolName,
    startedAt: new Date(startedAtMs),
    parametersJson: text(4),
    batchId: text(5),
    userId: text(6),
    agentId: text(7),
    conversationId: text(8),
    sandboxId: text(9),
    metadataJson: text(10),
  };
}

/** The values of a done line: an array of strings, numbers and nulls starting with the row id. */
function fromDoneLine(
  line: string,
  columns?: readonly string[],
): (string | number | null)[] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const { done: values, c: signature } = parsed as { done?: unknown; c?: unknown };
  if (!Array.isArray(values) || typeof values[0] !== "string") return undefined;
  if (columns !== undefined) {
    if (values.length !== columns.length || signature !== columnsSignature(columns)) {
      return undefined;
    }
  }
  const scalar = (value: unknown): boolean =>
    value === null || typeof value === "string" || typeof value === "number";
  return values.every(scalar) ? (values as (string | number | null)[]) : undefined;
}

const signatures = new WeakMap<readonly string[], string>();

/** A short fingerprint of a column list (FNV-1a of the names), kept per list. */
function columnsSignature(columns: readonly string[]): string {
  let signature = signatures.get(columns);
  if (signature === undefined) {
    let hash = 0x811c9dc5;
    for (const char of columns.join(",")) {
      hash ^= char.charCodeAt(0);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    signature = hash.toString(16).padStart(8, "0");
    signatures.set(columns, signature);
  }
  return signature;
}

function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}
