import type { Execution } from "./execution.js";
import type { ExecutionObserver } from "./execution-observer.js";
import type { ExecutionTracker } from "./execution-tracker.js";
import { FinishedExecutions } from "./finished-executions.js";

/**
 * What `observe()`, `isExecuting()` and `cancel()` read: the executions running now, and the
 * event logs of the last `retainFinishedExecutions` finished ones.
 */
export class TrackingObserver implements ExecutionObserver {
  readonly #running = new Map<string, Execution>();
  readonly #finished: FinishedExecutions;

  constructor(retainFinishedExecutions: number) {
    this.#finished = new FinishedExecutions(retainFinishedExecutions);
  }

  /** The running execution with this id. */
  running(executionId: string): Execution | undefined {
    return this.#running.get(executionId);
  }

  /** The event log of a running or recently finished execution. */
  find(executionId: string): ExecutionTracker | undefined {
    return this.#running.get(executionId)?.tracker ?? this.#finished.find(executionId);
  }

  onStarted(execution: Execution): void {
    this.#running.set(execution.plan.executionId, execution);
  }

  onFinished(execution: Execution): void {
    this.#running.delete(execution.plan.executionId);
    this.#finished.add(execution.tracker);
  }
}
