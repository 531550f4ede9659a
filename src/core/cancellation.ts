/**
 * One execution's cancellation: whether it was asked to stop and why, listeners that run when it
 * is, and an `AbortSignal` made only when something reads {@link Cancellation.signal}.
 *
 * Why not a plain `AbortController`: Node.js 20 takes about 5 µs (and as much again in garbage
 * collection) to create an `AbortSignal`, more than the rest of an in-process tool call, while
 * most tools never read theirs. The executor checks and waits on this object instead, and a tool
 * that reads `context.signal` gets a real signal, aborted with the same reason.
 */
export class Cancellation {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;
  #listeners: (() => void)[] | undefined;

  /** True once {@link Cancellation.abort} was called. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** What {@link Cancellation.abort} was given (an "AbortError" DOMException by default). */
  get reason(): unknown {
    return this.#reason;
  }

  /** The signal that follows this cancellation; made on first read, aborted already if this is. */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /**
   * Asks the work to stop: aborts the signal (when it exists), then runs the listeners in the
   * order they were added. Returns false, doing nothing, when already aborted.
   */
  abort(reason?: unknown): boolean {
    if (this.#aborted) return false;
    this.#aborted = true;
    this.#reason = reason ?? new DOMException("This operation was aborted", "AbortError");
    this.#controller?.abort(this.#reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners !== undefined) {
      for (const listener of listeners) {
        try {
          listener();
        } catch (error) {
          // One failing listener must not keep the others from running; report it as the
          // platform reports a throwing event listener, outside this call.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    }
    return true;
  }

  /**
   * Runs `listener` once, when this cancellation aborts (never when it already has: check
   * {@link Cancellation.aborted} first). Returns a function that removes it.
   */
  onAbort(listener: () => void): () => void {
    if (this.#aborted) return noop;
    this.#listeners ??= [];
    this.#listeners.push(listener);
    return () => {
      const current = this.#listeners;
      if (current === undefined) return;
      const index = current.indexOf(listener);
      if (index >= 0) current.splice(index, 1);
    };
  }
}

function noop(): void {}
