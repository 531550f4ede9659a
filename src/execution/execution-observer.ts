import type { ToolProgress } from "../context/index.js";
import type { Tool } from "../tools/index.js";
import type { Execution } from "./execution.js";
import type { Outcome } from "./execution-outcome.js";
import type { ToolExecutionResult } from "./tool-execution-result.js";

/**
 * Something that watches executions: the logs, the event bus, telemetry, the audit write and the
 * `observe()` tracker are each one. Every member is optional; the run calls them in this order:
 *
 * 1. `onStarted` once, before the tool is looked up;
 * 2. `onEvent` for each event on the execution's log (Started, InProgress, ..., the final one);
 * 3. `onToolFound` once the tool is found;
 * 4. `onProgress` for each progress report of the tool (when progress events are on);
 * 5. `onRunning` once the run holds a slot, just before the tool runs (awaited when it returns a
 *    promise; a rejection fails the execution);
 * 6. `onSettling` once the result is known, before the final event (awaited in observer order
 *    when it returns a promise: the audit row is committed here, before `execute` resolves);
 * 7. `onFinished` after the final event.
 *
 * `onCancelRequested` is called when `cancel(executionId)` stops a running execution. Observers
 * run synchronously on the execution's path: keep them cheap, and let nothing but the audit
 * wait. An observer that throws fails the execution (it is a bug, not the model's doing).
 */
export interface ExecutionObserver {
  onStarted?(execution: Execution): void;
  onEvent?(execution: Execution, index: number): void;
  onToolFound?(execution: Execution, tool: Tool): void;
  onProgress?(execution: Execution, tool: Tool, progress: ToolProgress): void;
  onRunning?(execution: Execution, tool: Tool): void | Promise<void>;
  onSettling?(
    execution: Execution,
    result: ToolExecutionResult,
    outcome: Outcome,
  ): void | Promise<void>;
  onFinished?(execution: Execution, result: ToolExecutionResult, outcome: Outcome): void;
  onCancelRequested?(execution: Execution): void;
}

type Hook = keyof ExecutionObserver;

/**
 * The executor's observers, called in the order they were given. Each hook keeps the list of
 * observers that implement it, so a hook nobody implements costs an empty loop.
 */
export class ExecutionObservers {
  readonly #started: ExecutionObserver[];
  readonly #event: ExecutionObserver[];
  readonly #toolFound: ExecutionObserver[];
  readonly #progress: ExecutionObserver[];
  readonly #running: ExecutionObserver[];
  readonly #settling: ExecutionObserver[];
  readonly #finished: ExecutionObserver[];
  readonly #cancel: ExecutionObserver[];

  constructor(observers: readonly ExecutionObserver[]) {
    const having = (hook: Hook) => observers.filter((o) => o[hook] !== undefined);
    this.#started = having("onStarted");
    this.#event = having("onEvent");
    this.#toolFound = having("onToolFound");
    this.#progress = having("onProgress");
    this.#running = having("onRunning");
    this.#settling = having("onSettling");
    this.#finished = having("onFinished");
    this.#cancel = having("onCancelRequested");
  }

  onStarted(execution: Execution): void {
    for (const o of this.#started) o.onStarted?.(execution);
  }

  onEvent(execution: Execution, index: number): void {
    for (const o of this.#event) o.onEvent?.(execution, index);
  }

  onToolFound(execution: Execution, tool: Tool): void {
    for (const o of this.#toolFound) o.onToolFound?.(execution, tool);
  }

  onProgress(execution: Execution, tool: Tool, progress: ToolProgress): void {
    for (const o of this.#progress) o.onProgress?.(execution, tool, progress);
  }

  /** Resolves when every observer is ready; `undefined` (no promise) when none waits. */
  onRunning(execution: Execution, tool: Tool): Promise<void> | undefined {
    const list = this.#running;
    for (let i = 0; i < list.length; i++) {
      const pending = list[i]?.onRunning?.(execution, tool);
      if (pending === undefined) continue;
      // The common case (only the audit waits) returns its promise as it is: no wrapper.
      if (i === list.length - 1) return pending;
      return pending.then(() => this.#runningFrom(i + 1, execution, tool));
    }
    return undefined;
  }

  /** Resolves when every observer has settled; `undefined` (no promise) when none waits. */
  onSettling(
    execution: Execution,
    result: ToolExecutionResult,
    outcome: Outcome,
  ): Promise<void> | undefined {
    const list = this.#settling;
    for (let i = 0; i < list.length; i++) {
      const pending = list[i]?.onSettling?.(execution, result, outcome);
      if (pending === undefined) continue;
      if (i === list.length - 1) return pending;
      return pending.then(() => this.#settlingFrom(i + 1, execution, result, outcome));
    }
    return undefined;
  }

  onFinished(execution: Execution, result: ToolExecutionResult, outcome: Outcome): void {
    for (const o of this.#finished) o.onFinished?.(execution, result, outcome);
  }

  onCancelRequested(execution: Execution): void {
    for (const o of this.#cancel) o.onCancelRequested?.(execution);
  }

  async #runningFrom(from: number, execution: Execution, tool: Tool): Promise<void> {
    const list = this.#running;
    for (let i = from; i < list.length; i++) {
      const pending = list[i]?.onRunning?.(execution, tool);
      if (pending !== undefined) await pending;
    }
  }

  async #settlingFrom(
    from: number,
    execution: Execution,
    result: ToolExecutionResult,
    outcome: Outcome,
  ): Promise<void> {
    const list = this.#settling;
    for (let i = from; i < list.length; i++) {
      const pending = list[i]?.onSettling?.(execution, result, outcome);
      if (pending !== undefined) await pending;
    }
  }
}
