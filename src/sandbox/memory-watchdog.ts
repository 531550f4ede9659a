import { readFile } from "node:fs";

const hasProc = process.platform === "linux";

/**
 * Calls back with a process's resident memory in bytes, read from `/proc/<pid>/status`;
 * `undefined` when it cannot be read (not Linux, or the process is gone). Internal to the folder.
 */
export function readResidentBytes(pid: number, done: (bytes: number | undefined) => void): void {
  if (!hasProc) {
    done(undefined);
    return;
  }
  readFile(`/proc/${pid}/status`, "latin1", (error, text) => {
    if (error !== null) {
      done(undefined);
      return;
    }
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(text);
    done(match?.[1] === undefined ? undefined : Number(match[1]) * 1024);
  });
}

interface Watch {
  readonly pid: number;
  readonly limitBytes: number;
  readonly onExceeded: (bytes: number) => void;
  reading: boolean;
}

// One timer per polling interval, shared by every running worker: a call that ends before the
// first tick costs a Set insertion and deletion, not a timer of its own.
const groups = new Map<number, { readonly watches: Set<Watch>; timer: NodeJS.Timeout }>();

function tick(intervalMs: number, watches: Set<Watch>): void {
  if (watches.size === 0) {
    // Idle for a whole interval: stop ticking until the next run.
    const group = groups.get(intervalMs);
    if (group !== undefined) clearInterval(group.timer);
    groups.delete(intervalMs);
    return;
  }
  for (const watch of watches) {
    if (watch.reading) continue;
    watch.reading = true;
    readResidentBytes(watch.pid, (bytes) => {
      watch.reading = false;
      if (!watches.has(watch) || bytes === undefined || bytes <= watch.limitBytes) return;
      watches.delete(watch);
      watch.onExceeded(bytes);
    });
  }
}

/**
 * Polls a process's resident memory every `intervalMs` and calls `onExceeded` once when it goes
 * over `limitBytes`. The V8 heap cap alone ends a heap bomb only after seconds of garbage
 * collection near the limit, and memory outside the heap (Buffers) is not under it at all; this
 * stops both within one interval of crossing the limit. Returns a function that stops polling.
 * Internal to the folder.
 */
export function watchResidentMemory(
  pid: number,
  limitBytes: number,
  intervalMs: number,
  onExceeded: (bytes: number) => void,
): () => void {
  if (!hasProc) return () => {};
  let group = groups.get(intervalMs);
  if (group === undefined) {
    const watches = new Set<Watch>();
    const timer = setInterval(() => tick(intervalMs, watches), intervalMs);
    timer.unref();
    group = { watches, timer };
    groups.set(intervalMs, group);
  }
  const watch: Watch = { pid, limitBytes, onExceeded, reading: false };
  const { watches } = group;
  watches.add(watch);
  // The timer outlives the watch by up to one interval, so back-to-back calls share it.
  return () => watches.delete(watch);
}
