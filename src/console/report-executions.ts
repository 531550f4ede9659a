import type { ToolExecutor } from "../execution/index.js";
import type { RunningExecutionStore } from "./pending-approval.js";

/** Options of {@link reportExecutions}. */
export interface ReportExecutionsOptions {
  /** The session shown beside an execution whose event names none. */
  readonly sessionId?: string;
  /** At most one progress write per execution per this many ms (default 200). */
  readonly progressIntervalMs?: number;
}

/**
 * Shows an executor's executions on the console's running page, from any process on the same
 * store: writes each execution's start, progress (at most every `progressIntervalMs`) and end to
 * `store.executions`, and carries out the cancellations asked for in the console
 * (`executor.cancel`: an isolated tool's process is killed). Writing is best effort: a store
 * error never fails an execution. Returns the function that stops reporting.
 *
 * @example
 * ```ts
 * const stop = reportExecutions(executor, store.executions);
 * ```
 */
export function reportExecutions(
  executor: ToolExecutor,
  executions: RunningExecutionStore,
  options: ReportExecutionsOptions = {},
): () => void {
  const intervalMs = options.progressIntervalMs ?? 200;
  const chains = new Map<string, Promise<void>>();
  const lastWrite = new Map<string, number>();
  const pending = new Map<string, { percent: number | undefined; message: string | undefined }>();
  const timers = new Map<string, NodeJS.Timeout>();
  const then = (id: string, step: () => Promise<void>): void => {
    const next = (chains.get(id) ?? Promise.resolve()).then(step).catch(() => undefined);
    chains.set(id, next);
  };
  const flush = (id: string): void => {
    timers.delete(id);
    const progress = pending.get(id);
    if (progress === undefined) return;
    pending.delete(id);
    lastWrite.set(id, Date.now());
    then(id, () => executions.progress(id, progress.percent, progress.message));
  };
  const stops = [
    executor.events.on("executionStarted", (event) => {
      then(event.executionId, () =>
        executions.start({
          executionId: event.executionId,
          toolId: event.toolId,
          toolName: event.toolName,
          startedAt: event.startedAt,
          ...(event.callId === undefined ? {} : { callId: event.callId }),
          ...((event.sessionId ?? options.sessionId) === undefined
            ? {}
            : { sessionId: event.sessionId ?? options.sessionId }),
        }),
      );
    }),
    executor.events.on("executionProgress", (event) => {
      const id = event.executionId;
      pending.set(id, {
        percent: event.progress.percentComplete,
        message: event.progress.message ?? event.progress.currentOperation,
      });
      if (timers.has(id)) return;
      const waitMs = (lastWrite.get(id) ?? 0) + intervalMs - Date.now();
      if (waitMs <= 0) flush(id);
      else
        timers.set(
          id,
          setTimeout(() => flush(id), waitMs),
        );
    }),
    executor.events.on("executionCompleted", (event) => {
      const id = event.executionId;
      clearTimeout(timers.get(id));
      timers.delete(id);
      pending.delete(id);
      lastWrite.delete(id);
      then(id, () => executions.finish(id));
      const chain = chains.get(id);
      void chain?.then(() => {
        if (chains.get(id) === chain) chains.delete(id);
      });
    }),
    executions.watch((change) => {
      if (change !== "executions") return;
      executions.cancelRequests().then(
        (ids) => {
          for (const id of ids) executor.cancel(id);
        },
        () => undefined,
      );
    }),
  ];
  return () => {
    for (const stop of stops) stop();
    for (const timer of timers.values()) clearTimeout(timer);
  };
}
