import { isFinalEventType, type ToolExecutionEvent } from "./tool-execution-event.js";

/**
 * The event log of one execution, readable as an async stream by any number of observers: a
 * late observer first gets the events so far, and every stream ends after the final event.
 */
export class ExecutionTracker {
  readonly executionId: string;
  readonly #events: ToolExecutionEvent[] = [];
  #finished = false;
  /** Observers waiting for the next event; made on the first wait (most logs have none). */
  #wake: (() => void)[] | undefined;

  constructor(executionId: string) {
    this.executionId = executionId;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** Appends an event; a final event (Completed, Failed, Timeout, Cancelled) ends the log. */
  push(event: ToolExecutionEvent): void {
    if (this.#finished) return;
    this.#events.push(event);
    if (isFinalEventType(event.eventType)) this.#finished = true;
    this.#notify();
  }

  /** Ends the log without a final event (for executions that end before one is emitted). */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#notify();
  }

  /** The events so far, then each new one, ending when the log ends or `signal` aborts. */
  async *stream(signal?: AbortSignal): AsyncGenerator<ToolExecutionEvent> {
    let next = 0;
    while (true) {
      while (next < this.#events.length) yield this.#events[next++]!;
      if (this.#finished || signal?.aborted === true) return;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          signal?.removeEventListener("abort", done);
          resolve();
        };
        this.#wake ??= [];
        this.#wake.push(done);
        signal?.addEventListener("abort", done, { once: true });
      });
    }
  }

  #notify(): void {
    const wake = this.#wake;
    if (wake === undefined) return;
    this.#wake = undefined;
    for (const resolve of wake) resolve();
  }
}
