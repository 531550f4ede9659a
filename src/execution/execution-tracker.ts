import {
  isFinalEventType,
  type ToolExecutionEvent,
  ToolExecutionEventType,
} from "./tool-execution-event.js";

/** Fields per event in the flat log: type, tool, message, elapsed, time, percent, data. */
const STRIDE = 7;

/** The messages of a plain successful execution's three events. */
export const STANDARD_MESSAGES = Object.freeze({
  started: "Execution started",
  inProgress: "Executing tool",
  completed: "Execution completed",
});

/** How many numbers {@link ExecutionTracker.writeStandardTimes} writes. */
export const STANDARD_TIMES = 5;

/**
 * The event log of one execution, readable as an async stream by any number of observers: a
 * late observer first gets the events so far, and every stream ends after the final event.
 *
 * Events are kept as flat fields in one array, and event objects are made only when observed:
 * most executions are never observed, and an executor keeps the last finished ones for a while,
 * so a log of three events costs two objects instead of seven (the garbage collector's work of
 * moving them to the old generation was most of an in-process call's cost).
 */
export class ExecutionTracker {
  readonly executionId: string;
  /** The call the execution answers (a provider's tool call id), carried on every event. */
  readonly callId: string | undefined;
  /** The session (conversation) the execution belongs to, carried on every event. */
  readonly sessionId: string | undefined;
  readonly #log: unknown[] = [];
  #finished = false;
  /** Observers waiting for the next event; made on the first wait (most logs have none). */
  #wake: (() => void)[] | undefined;

  constructor(executionId: string, callId?: string, sessionId?: string) {
    this.executionId = executionId;
    this.callId = callId;
    this.sessionId = sessionId;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** How many events the log holds. */
  get size(): number {
    return this.#log.length / STRIDE;
  }

  /** Appends an event; a final event (Completed, Failed, Timeout, Cancelled) ends the log. */
  push(event: ToolExecutionEvent): void {
    this.record(
      event.eventType,
      event.toolName,
      event.message,
      event.elapsedMs,
      event.timestamp.getTime(),
      event.progressPercent,
      event.data,
    );
  }

  /** {@link ExecutionTracker.push} from the event's fields, without making the event. */
  record(
    eventType: ToolExecutionEventType,
    toolName: string,
    message: string | undefined,
    elapsedMs: number | undefined,
    timeMs: number,
    progressPercent?: number,
    data?: Readonly<Record<string, unknown>>,
  ): void {
    if (this.#finished) return;
    this.#log.push(eventType, toolName, message, elapsedMs, timeMs, progressPercent, data);
    if (isFinalEventType(eventType)) this.#finished = true;
    this.#notify();
  }

  /** The event at `index` (0 = the first), made anew on each call. */
  eventAt(index: number): ToolExecutionEvent {
    const log = this.#log;
    const at = index * STRIDE;
    const event: { -readonly [K in keyof ToolExecutionEvent]: ToolExecutionEvent[K] } = {
      executionId: this.executionId,
      toolName: log[at + 1] as string,
      eventType: log[at] as ToolExecutionEventType,
      timestamp: new Date(log[at + 4] as number),
    };
    const message = log[at + 2] as string | undefined;
    const elapsedMs = log[at + 3] as number | undefined;
    const progressPercent = log[at + 5] as number | undefined;
    const data = log[at + 6] as Readonly<Record<string, unknown>> | undefined;
    if (this.callId !== undefined) event.callId = this.callId;
    if (this.sessionId !== undefined) event.sessionId = this.sessionId;
    if (elapsedMs !== undefined) event.elapsedMs = elapsedMs;
    if (message !== undefined) event.message = message;
    if (progressPercent !== undefined) event.progressPercent = progressPercent;
    if (data !== undefined) event.data = data;
    return event;
  }

  /** The tool name of the first event (`""` for an empty log). */
  get toolName(): string {
    return (this.#log[1] as string | undefined) ?? "";
  }

  /**
   * When the log is a plain success (Started, InProgress "Executing tool", Completed, with the
   * {@link STANDARD_MESSAGES} and nothing else), writes its {@link STANDARD_TIMES} times to
   * `into` at `offset` and returns true: such a log can then be kept as numbers alone.
   */
  writeStandardTimes(into: Float64Array, offset: number): boolean {
    const log = this.#log;
    if (log.length !== 3 * STRIDE) return false;
    const toolName = log[1];
    for (let at = 0; at < log.length; at += STRIDE) {
      if (log[at + 1] !== toolName || log[at + 5] !== undefined || log[at + 6] !== undefined) {
        return false;
      }
    }
    if (
      log[0] !== ToolExecutionEventType.Started ||
      log[2] !== STANDARD_MESSAGES.started ||
      log[3] !== 0 ||
      log[STRIDE] !== ToolExecutionEventType.InProgress ||
      log[STRIDE + 2] !== STANDARD_MESSAGES.inProgress ||
      log[2 * STRIDE] !== ToolExecutionEventType.Completed ||
      log[2 * STRIDE + 2] !== STANDARD_MESSAGES.completed
    ) {
      return false;
    }
    into[offset] = log[4] as number;
    into[offset + 1] = log[STRIDE + 3] as number;
    into[offset + 2] = log[STRIDE + 4] as number;
    into[offset + 3] = log[2 * STRIDE + 3] as number;
    into[offset + 4] = log[2 * STRIDE + 4] as number;
    return true;
  }

  /** A finished log rebuilt from what {@link ExecutionTracker.writeStandardTimes} wrote. */
  static fromStandardTimes(
    executionId: string,
    toolName: string,
    times: Float64Array,
    offset: number,
    callId?: string,
    sessionId?: string,
  ): ExecutionTracker {
    const tracker = new ExecutionTracker(executionId, callId, sessionId);
    const startedAt = times[offset] as number;
    tracker.record(
      ToolExecutionEventType.Started,
      toolName,
      STANDARD_MESSAGES.started,
      0,
      startedAt,
    );
    tracker.record(
      ToolExecutionEventType.InProgress,
      toolName,
      STANDARD_MESSAGES.inProgress,
      times[offset + 1],
      times[offset + 2] as number,
    );
    tracker.record(
      ToolExecutionEventType.Completed,
      toolName,
      STANDARD_MESSAGES.completed,
      times[offset + 3],
      times[offset + 4] as number,
    );
    return tracker;
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
      while (next < this.size) yield this.eventAt(next++);
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
