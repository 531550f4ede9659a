import { Worker } from "node:worker_threads";

/**
 * How long one match on JavaScript's engine may take. A pattern only that engine can run may
 * backtrack exponentially in a way no short-text limit bounds (`(?<!x)(a|a|a|a)*$` took 10 s on
 * 14 characters), and its schema may come from a hostile MCP upstream.
 */
export const PATTERN_TIME_LIMIT_MS = 100;

/** How long the matching thread may take to start. */
const startLimitMs = 10_000;

/** How long a match may wait for the thread to take it up (a busy machine) before its limit runs. */
const takeUpLimitMs = 2_000;

// The matching thread: compiles each pattern once, says in `shared[1]` that it began, answers
// in `shared[0]` (1: match, 2: none).
const workerSource = `
const { parentPort } = require("node:worker_threads");
const compiled = new Map();
parentPort.on("message", ({ pattern, flags, text, shared }) => {
  Atomics.store(shared, 1, 1);
  let answer = 2;
  try {
    const key = flags + "/" + pattern;
    let regExp = compiled.get(key);
    if (regExp === undefined) {
      regExp = new RegExp(pattern, flags);
      compiled.set(key, regExp);
    }
    answer = regExp.test(text) ? 1 : 2;
  } catch {}
  Atomics.store(shared, 0, answer);
  Atomics.notify(shared, 0);
});
Atomics.store(new Int32Array(require("node:worker_threads").workerData), 0, 1);
Atomics.notify(new Int32Array(require("node:worker_threads").workerData), 0);
`;

let matcher: Worker | undefined;

/** The matching thread, started (and waited for) on first use; undefined if it cannot start. */
function matchingThread(): Worker | undefined {
  if (matcher !== undefined) return matcher;
  const ready = new SharedArrayBuffer(4);
  try {
    const worker = new Worker(workerSource, { eval: true, workerData: ready });
    worker.unref();
    // A failed thread is dropped; the next match starts another.
    worker.on("error", () => {
      if (matcher === worker) matcher = undefined;
    });
    if (Atomics.wait(new Int32Array(ready), 0, 0, startLimitMs) === "timed-out") {
      void worker.terminate();
      return undefined;
    }
    matcher = worker;
    return worker;
  } catch {
    return undefined;
  }
}

/**
 * Whether `pattern` (JavaScript's engine, `flags`) matches `text`, run on a thread of its own
 * and given up (as no match) after {@link PATTERN_TIME_LIMIT_MS}: the thread is then stopped,
 * and the next match starts another. Synchronous, as Ajv needs: this thread waits.
 * Undefined when no thread can be started.
 */
export function timeLimitedTest(pattern: string, flags: string, text: string): boolean | undefined {
  const worker = matchingThread();
  if (worker === undefined) return undefined;
  const shared = new Int32Array(new SharedArrayBuffer(8));
  worker.postMessage({ pattern, flags, text, shared });
  // The limit counts from when the match began: on a busy machine the thread may get its turn
  // late, and a valid text must not be refused for that.
  const startBy = Date.now() + takeUpLimitMs;
  while (Atomics.load(shared, 1) === 0 && Date.now() < startBy) {
    if (Atomics.wait(shared, 0, 0, 5) !== "timed-out") break;
  }
  if (Atomics.wait(shared, 0, 0, PATTERN_TIME_LIMIT_MS) === "timed-out") {
    if (matcher === worker) matcher = undefined;
    void worker.terminate();
    return false;
  }
  return Atomics.load(shared, 0) === 1;
}
