/** Thrown by {@link ConcurrencyLimiter.acquire} when both the slots and the queue are full. */
export class ConcurrencyLimitError extends Error {
  constructor(limit: number, queueLimit: number) {
    super(
      `Too many tool executions: ${limit} running and ${queueLimit} waiting. Try again later or raise maxConcurrentExecutions.`,
    );
    this.name = "ConcurrencyLimitError";
  }
}

import { Cancellation } from "../core/index.js";

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  /** Stops listening for an abort while waiting. */
  detach: (() => void) | undefined;
}

/**
 * A bulkhead: at most `limit` holders at once and at most `queueLimit` waiting. Written here
 * rather than taken from cockatiel because cockatiel's bulkhead keeps an aborted waiter in its
 * queue until a slot frees, so a cancelled call would not end promptly.
 */
export class ConcurrencyLimiter {
  readonly limit: number;
  readonly queueLimit: number;
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(limit: number, queueLimit: number) {
    this.limit = limit;
    this.queueLimit = queueLimit;
  }

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#queue.length;
  }

  /**
   * Resolves when a slot is held; call `release()` exactly once afterwards. Rejects with the
   * reason of `stop` (a signal or a {@link Cancellation}) if it aborts while waiting, or
   * {@link ConcurrencyLimitError} when full.
   */
  acquire(stop?: AbortSignal | Cancellation): Promise<void> | undefined {
    if (stop?.aborted === true) return Promise.reject(stop.reason);
    if (this.#active < this.limit) {
      this.#active++;
      return undefined; // held at once: no promise, no microtask on the hot path
    }
    if (this.#queue.length >= this.queueLimit) {
      return Promise.reject(new ConcurrencyLimitError(this.limit, this.queueLimit));
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, detach: undefined };
      if (stop !== undefined) {
        const onAbort = (): void => {
          const index = this.#queue.indexOf(waiter);
          if (index >= 0) this.#queue.splice(index, 1);
          reject(stop.reason);
        };
        if (stop instanceof Cancellation) {
          waiter.detach = stop.onAbort(onAbort);
        } else {
          stop.addEventListener("abort", onAbort, { once: true });
          waiter.detach = () => stop.removeEventListener("abort", onAbort);
        }
      }
      this.#queue.push(waiter);
    });
  }

  /** Gives a slot back, handing it straight to the next waiter if there is one. */
  release(): void {
    const next = this.#queue.shift();
    if (next === undefined) {
      this.#active--;
      return;
    }
    next.detach?.();
    next.resolve();
  }
}
