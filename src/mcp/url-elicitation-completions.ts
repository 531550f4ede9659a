/** What {@link UrlElicitationCompletions.watch} needs for one page sent by URL elicitation. */
export interface UrlElicitationWatch {
  /**
   * Resolves when the page's record is no longer waiting for a person (decided, expired or
   * withdrawn); it must stop, resolving or not, when `signal` aborts.
   */
  readonly settled: (signal: AbortSignal) => Promise<unknown>;
  /** Sends `notifications/elicitation/complete` for the elicitation, on the connection that asked. */
  readonly notify: () => Promise<void>;
  /** Gives up on a record still waiting (the call it asked about is over). */
  readonly withdraw: () => Promise<unknown>;
  /** Aborted when the connection closes: nothing is sent after that. */
  readonly closed: AbortSignal;
  /**
   * How long the client has to come back with its answer (the round's timeout): past it, the call
   * was answered without the page (the SDK's shim gave up), and the watch ends without a word.
   */
  readonly answerWithinMs: number;
}

interface OpenPage {
  readonly watch: UrlElicitationWatch;
  /** Stops the `settled` wait. */
  readonly stop: AbortController;
  timer: ReturnType<typeof setTimeout> | undefined;
  readonly onClosed: () => void;
  /** Set once the notification is on its way: it is sent once. */
  sent?: Promise<void>;
}

/**
 * The console pages an MCP server sent by URL elicitation on 2025-era connections, keyed by the
 * call id the server minted for each, until the client is told the page is done
 * (`notifications/elicitation/complete`, MCP 2025-11-25; the 2026-07-28 revision has neither the
 * notification nor an `elicitationId`).
 *
 * The notification goes once, while the call's `tools/call` is still in flight (it travels on that
 * request's stream): as soon as the record settles, or at the latest before the call's result
 * (`done`). A page whose connection closed, or whose client never came back, is dropped silently.
 */
export class UrlElicitationCompletions {
  readonly #open = new Map<string, OpenPage>();
  readonly #onError: ((error: Error) => void) | undefined;

  constructor(onError?: (error: Error) => void) {
    this.#onError = onError;
  }

  /** How many pages are being watched. */
  get size(): number {
    return this.#open.size;
  }

  /** Starts watching the page of the call `callId`. */
  watch(callId: string, watch: UrlElicitationWatch): void {
    if (watch.closed.aborted) return;
    const stop = new AbortController();
    const page: OpenPage = {
      watch,
      stop,
      timer: undefined,
      onClosed: () => this.#drop(callId, page),
    };
    this.#open.set(callId, page);
    watch.closed.addEventListener("abort", page.onClosed, { once: true });
    page.timer = setTimeout(() => this.#drop(callId, page), watch.answerWithinMs);
    page.timer.unref?.();
    watch.settled(stop.signal).then(
      () => {
        if (!stop.signal.aborted) void this.done(callId);
      },
      // The store failed: `done` still tells the client before the call's result.
      () => undefined,
    );
  }

  /**
   * The client came back with its answer and the call now waits in the processor: the round's
   * deadline no longer applies (the call's own approval timeout does).
   */
  answered(callId: string): void {
    const page = this.#open.get(callId);
    if (page === undefined) return;
    clearTimeout(page.timer);
    page.timer = undefined;
  }

  /**
   * The page of `callId` is done (its record settled, or its call is over): withdraws the record
   * if it still waits, then tells the client, once. Resolves when the notification was sent (or
   * failed: reported to `onError`); at once for a call with no page watched.
   */
  done(callId: string): Promise<void> {
    const page = this.#open.get(callId);
    if (page === undefined) return Promise.resolve();
    page.sent ??= this.#complete(callId, page);
    return page.sent;
  }

  async #complete(callId: string, page: OpenPage): Promise<void> {
    page.stop.abort();
    clearTimeout(page.timer);
    page.watch.closed.removeEventListener("abort", page.onClosed);
    try {
      await page.watch.withdraw().catch(() => undefined);
      if (page.watch.closed.aborted) return;
      await page.watch.notify();
    } catch (error) {
      this.#onError?.(error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (this.#open.get(callId) === page) this.#open.delete(callId);
    }
  }

  #drop(callId: string, page: OpenPage): void {
    if (page.sent !== undefined || this.#open.get(callId) !== page) return;
    this.#open.delete(callId);
    page.stop.abort();
    clearTimeout(page.timer);
    page.watch.closed.removeEventListener("abort", page.onClosed);
  }
}
