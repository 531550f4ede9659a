/**
 * How long a run of microtasks (promise continuations) may hold the thread before the code
 * that checks {@link turnIsLong} yields to the event loop, in ms.
 */
export const LONG_TURN_MS = 5;

let turnStartedAt = 0;
let watching = false;

function endTurn(): void {
  watching = false;
}

/**
 * True once the current turn of the event loop has run for {@link LONG_TURN_MS}: a stream of
 * work that only ever awaits settled promises (synchronous tools, a synchronous SQLite commit)
 * never leaves the microtask queue, so timers and I/O would wait for the whole stream. Code on
 * such a path calls this per item and, when it says so, yields with {@link yieldToEventLoop}.
 *
 * The first call of a turn notes the time and schedules a `setImmediate` that marks the turn's
 * end; the immediate runs only once the microtask queue is empty, so it measures exactly the
 * stretch no timer could interrupt. One clock read per call, one immediate per turn.
 */
export function turnIsLong(): boolean {
  const now = performance.now();
  if (!watching) {
    watching = true;
    turnStartedAt = now;
    setImmediate(endTurn);
    return false;
  }
  return now - turnStartedAt >= LONG_TURN_MS;
}

/**
 * Resolves from a `setImmediate`: after I/O callbacks and, from the second yield of a stream on,
 * after due timers (an immediate set while immediates run waits for the next loop iteration,
 * whose timers phase comes first).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
