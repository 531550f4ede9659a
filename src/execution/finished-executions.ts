import { ExecutionTracker, STANDARD_TIMES } from "./execution-tracker.js";

/**
 * The event logs of the last `capacity` finished executions, so that `observe` can replay an
 * execution that has already ended. A ring: the newest replaces the oldest.
 *
 * A plain successful execution is kept as its ids, its tool name and five numbers in a typed
 * array, not as its tracker: an executor keeps a thousand of these by default, and keeping the
 * objects alive long enough to reach the old generation made the garbage collector the largest
 * cost of an in-process call. Any other log (failures, progress, confirmations, warnings) is kept
 * whole.
 */
export class FinishedExecutions {
  readonly capacity: number;
  readonly #ids: (string | undefined)[] = [];
  readonly #toolNames: (string | undefined)[] = [];
  readonly #callIds: (string | undefined)[] = [];
  readonly #sessionIds: (string | undefined)[] = [];
  /** Logs kept whole; `undefined` where the numbers hold the log. */
  readonly #trackers: (ExecutionTracker | undefined)[] = [];
  /** Grown as the ring first fills (a large capacity costs nothing until it is used). */
  #times = new Float64Array(0);
  #next = 0;
  #filled = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Keeps `tracker`'s log, dropping the oldest when full. */
  add(tracker: ExecutionTracker): void {
    if (this.capacity === 0) return;
    const slot = this.#next;
    this.#next = slot + 1 === this.capacity ? 0 : slot + 1;
    if (this.#filled < this.capacity) this.#filled++;
    if (this.#times.length <= slot * STANDARD_TIMES) this.#grow();
    this.#ids[slot] = tracker.executionId;
    const compact = tracker.writeStandardTimes(this.#times, slot * STANDARD_TIMES);
    this.#toolNames[slot] = compact ? tracker.toolName : undefined;
    this.#callIds[slot] = compact ? tracker.callId : undefined;
    this.#sessionIds[slot] = compact ? tracker.sessionId : undefined;
    this.#trackers[slot] = compact ? undefined : tracker;
  }

  /** The newest kept log of `executionId` (an id used again finds its latest run). */
  find(executionId: string): ExecutionTracker | undefined {
    const size = this.capacity;
    for (let back = 1; back <= this.#filled; back++) {
      const slot = (this.#next - back + size) % size;
      if (this.#ids[slot] !== executionId) continue;
      return (
        this.#trackers[slot] ??
        ExecutionTracker.fromStandardTimes(
          executionId,
          this.#toolNames[slot] ?? "",
          this.#times,
          slot * STANDARD_TIMES,
          this.#callIds[slot],
          this.#sessionIds[slot],
        )
      );
    }
    return undefined;
  }

  #grow(): void {
    const slots = Math.min(
      this.capacity,
      Math.max(1024, (this.#times.length / STANDARD_TIMES) * 2),
    );
    const times = new Float64Array(slots * STANDARD_TIMES);
    times.set(this.#times);
    this.#times = times;
  }
}
