import { turnIsLong } from "../core/index.js";

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Group commit: items added while a commit is scheduled or running are written together, by one
 * call of `commit`, and each `add` resolves when its item is committed.
 *
 * A commit is scheduled with `queueMicrotask` (with `setImmediate` once the current turn of
 * the event loop has run 5 ms, see `turnIsLong`), never a timer: a caller that awaits each `add`
 * in turn pays one microtask, while callers that add in the same tick (or while an asynchronous
 * commit is running) share one transaction. When a batch fails, its items are retried one by
 * one so that each caller gets its own outcome.
 */
export class GroupCommit<T> {
  readonly #commit: (items: T[]) => void | Promise<void>;
  readonly #maxBatch: number;
  readonly #moreComing: (() => boolean) | undefined;
  #items: T[] = [];
  #waiters: Waiter[] = [];
  #scheduled = false;
  #running = false;
  #idle: Waiter[] = [];

  /**
   * @param commit writes the items in one transaction; throws (or rejects) if none was written.
   * @param maxBatch the most items one commit takes; the rest wait for the next.
   * @param moreComing asked when a commit is scheduled: true when more items are expected soon
   *   (other executions are in flight), so the commit waits for an immediate (the current turn's
   *   microtasks, where those items arrive) instead of one microtask. A lone caller pays nothing.
   */
  constructor(
    commit: (items: T[]) => void | Promise<void>,
    maxBatch = 1000,
    moreComing?: () => boolean,
  ) {
    this.#commit = commit;
    this.#maxBatch = maxBatch;
    this.#moreComing = moreComing;
  }

  /** Items waiting for a commit or being committed. */
  get pending(): number {
    return this.#items.length + (this.#running ? 1 : 0);
  }

  /** Queues `item`; resolves once it is committed, rejects with the commit's error. */
  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#items.push(item);
      this.#waiters.push({ resolve, reject });
      this.#schedule();
    });
  }

  /** Resolves when nothing is queued or being committed. */
  drain(): Promise<void> {
    if (this.#items.length === 0 && !this.#running && !this.#scheduled) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.#idle.push({ resolve, reject });
    });
  }

  #schedule(): void {
    if (this.#scheduled || this.#running) return;
    this.#scheduled = true;
    // A synchronous commit resolves its callers in microtasks: after a long run of them, the
    // next commit waits for an immediate so that timers and I/O keep their turn.
    if (turnIsLong() || this.#moreComing?.() === true) setImmediate(this.#flush);
    else queueMicrotask(this.#flush);
  }

  readonly #flush = (): void => {
    this.#scheduled = false;
    let items = this.#items;
    let waiters = this.#waiters;
    if (items.length > this.#maxBatch) {
      this.#items = items.slice(this.#maxBatch);
      this.#waiters = waiters.slice(this.#maxBatch);
      items = items.slice(0, this.#maxBatch);
      waiters = waiters.slice(0, this.#maxBatch);
    } else {
      this.#items = [];
      this.#waiters = [];
    }
    let outcome: void | Promise<void>;
    try {
      outcome = this.#commit(items);
    } catch (error) {
      this.#settleFailed(items, waiters, error);
      return;
    }
    if (outcome instanceof Promise) {
      this.#running = true;
      outcome.then(
        () => {
          for (const waiter of waiters) waiter.resolve();
          this.#finished();
        },
        (error: unknown) => {
          this.#retryOneByOne(items, waiters, error).finally(() => this.#finished());
        },
      );
      return;
    }
    for (const waiter of waiters) waiter.resolve();
    this.#afterCommit();
  };

  #settleFailed(items: T[], waiters: Waiter[], error: unknown): void {
    if (items.length === 1) {
      waiters[0]?.reject(error);
    } else {
      for (let index = 0; index < items.length; index++) {
        try {
          const outcome = this.#commit([items[index] as T]);
          if (outcome instanceof Promise) throw new Error("commit changed from sync to async");
          waiters[index]?.resolve();
        } catch (itemError) {
          waiters[index]?.reject(itemError);
        }
      }
    }
    this.#afterCommit();
  }

  async #retryOneByOne(items: T[], waiters: Waiter[], error: unknown): Promise<void> {
    if (items.length === 1) {
      waiters[0]?.reject(error);
      return;
    }
    for (let index = 0; index < items.length; index++) {
      try {
        await this.#commit([items[index] as T]);
        waiters[index]?.resolve();
      } catch (itemError) {
        waiters[index]?.reject(itemError);
      }
    }
  }

  #finished(): void {
    this.#running = false;
    this.#afterCommit();
  }

  #afterCommit(): void {
    if (this.#items.length > 0) {
      this.#schedule();
      return;
    }
    if (!this.#running && !this.#scheduled && this.#idle.length > 0) {
      const idle = this.#idle;
      this.#idle = [];
      for (const waiter of idle) waiter.resolve();
    }
  }
}
