import { closeSync, openSync, readFile, readSync } from "node:fs";

const hasProc = process.platform === "linux";
const residentPattern = /^VmRSS:\s+(\d+)\s+kB/m;
const dataPattern = /^VmData:\s+(\d+)\s+kB/m;

function residentBytes(status: string): number | undefined {
  const match = residentPattern.exec(status);
  return match?.[1] === undefined ? undefined : Number(match[1]) * 1024;
}

/** A process's resident memory and data segment size, in bytes. */
export interface MemoryUse {
  readonly residentBytes: number;
  readonly dataBytes: number;
}

/**
 * Calls back with a process's resident memory and data segment size, read from
 * `/proc/<pid>/status`; `undefined` when it cannot be read (not Linux, or the process is gone).
 * Internal to the folder.
 */
export function readMemoryUse(pid: number, done: (use: MemoryUse | undefined) => void): void {
  if (!hasProc) {
    done(undefined);
    return;
  }
  readFile(`/proc/${pid}/status`, "latin1", (error, text) => {
    const resident = error === null ? residentBytes(text) : undefined;
    const data = error === null ? dataPattern.exec(text)?.[1] : undefined;
    done(
      resident === undefined || data === undefined
        ? undefined
        : { residentBytes: resident, dataBytes: Number(data) * 1024 },
    );
  });
}

// One timer per polling interval, shared by every running worker: a call that ends before the
// first tick costs two flag changes, not a timer of its own. A watch stays in its group's set
// from one run to the next; a tick drops the ones no longer watching.
const groups = new Map<
  number,
  { readonly watches: Set<ResidentMemoryWatch>; timer: NodeJS.Timeout }
>();

// Big enough for the whole of /proc/<pid>/status (about 1.5 KB).
const statusBuffer = Buffer.allocUnsafe(8192);

function tick(intervalMs: number, watches: Set<ResidentMemoryWatch>): void {
  for (const watch of watches) {
    if (!watch.check()) watches.delete(watch);
  }
  if (watches.size === 0) {
    // Idle for a whole interval: stop ticking until the next run.
    const group = groups.get(intervalMs);
    if (group !== undefined) clearInterval(group.timer);
    groups.delete(intervalMs);
  }
}

/**
 * Watches one process's resident memory while it runs something: between {@link start} and
 * {@link stop} it reads it every `intervalMs` and calls `onExceeded` once when it is over
 * `limitBytes`. The V8 heap cap alone ends a heap bomb only after seconds of garbage collection
 * near the limit, and memory outside the heap (Buffers) is not under it at all; this stops both
 * within one interval of crossing the limit. The watch keeps `/proc/<pid>/status` open and reads
 * it synchronously (a few microseconds, no thread-pool round trips); {@link close} closes it.
 * Does nothing off Linux. Internal to the folder.
 */
export class ResidentMemoryWatch {
  readonly #pid: number;
  readonly #limitBytes: number;
  readonly #intervalMs: number;
  readonly #onExceeded: (bytes: number) => void;
  #fd: number | undefined;
  #watching = false;
  #closed = !hasProc;

  constructor(
    pid: number,
    limitBytes: number,
    intervalMs: number,
    onExceeded: (bytes: number) => void,
  ) {
    this.#pid = pid;
    this.#limitBytes = limitBytes;
    this.#intervalMs = intervalMs;
    this.#onExceeded = onExceeded;
  }

  /** Starts watching (the process has started a run). */
  start(): void {
    if (this.#closed || this.#watching) return;
    this.#watching = true;
    let group = groups.get(this.#intervalMs);
    if (group === undefined) {
      const watches = new Set<ResidentMemoryWatch>();
      const intervalMs = this.#intervalMs;
      const timer = setInterval(() => tick(intervalMs, watches), intervalMs);
      timer.unref();
      group = { watches, timer };
      groups.set(intervalMs, group);
    }
    // The timer outlives the watches by up to one interval, so back-to-back runs share it.
    group.watches.add(this);
  }

  /** Stops watching (the run ended). */
  stop(): void {
    this.#watching = false;
  }

  /** Stops watching for good and closes the file (the process is gone). */
  close(): void {
    this.stop();
    this.#closed = true;
    this.#closeFile();
  }

  #closeFile(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // already closed
    }
    this.#fd = undefined;
  }

  /**
   * Reads the resident memory now, if watching; called by the shared timer. Returns whether the
   * watch is still watching.
   */
  check(): boolean {
    if (!this.#watching) return false;
    const bytes = this.#read();
    if (bytes === undefined || bytes <= this.#limitBytes) return this.#watching;
    this.stop();
    this.#onExceeded(bytes);
    return false;
  }

  #read(): number | undefined {
    try {
      this.#fd ??= openSync(`/proc/${this.#pid}/status`, "r");
      // At position 0 the kernel writes the file afresh: one system call per reading.
      const length = readSync(this.#fd, statusBuffer, 0, statusBuffer.length, 0);
      return residentBytes(statusBuffer.toString("latin1", 0, length));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ESRCH" || code === "ENOENT") {
        // The process is gone; its exit is what counts.
        this.close();
      } else {
        // A passing failure (EMFILE, say) must not end the watch: this tick is skipped, and
        // the next one opens the file again.
        this.#closeFile();
      }
      return undefined;
    }
  }
}
