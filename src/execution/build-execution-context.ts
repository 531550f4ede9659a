import { ToolExecutionContext, type ToolProgress } from "../context/index.js";
import type { Cancellation, JsonObject } from "../core/index.js";
import type { SandboxRunOptions } from "../sandbox/index.js";
import type { Tool } from "../tools/index.js";
import { armTimeout, type Execution } from "./execution.js";
import type { ExecutorRuntime } from "./executor-runtime.js";
import { hasFullProgressEvents } from "./license.js";
import { ToolExecutionEventType } from "./tool-execution-event.js";

/**
 * The context a tool runs with: the AIntern caller's own context with the execution's
 * cancellation and progress, or (Lexichord path) one built from the input, the per-call context
 * and the executor's services and workspace.
 */
export function buildExecutionContext(
  runtime: ExecutorRuntime,
  execution: Execution,
  tool: Tool,
  parameters: JsonObject,
): ToolExecutionContext {
  const { plan, cancellation } = execution;
  const progress = progressCallback(runtime, execution, tool);
  const edited = execution.editedParameters;
  if (plan.context !== undefined) {
    return plan.context.with(
      edited === undefined
        ? { cancellation, progress, toolId: tool.id }
        : { cancellation, progress, toolId: tool.id, modifiedParameters: edited },
    );
  }
  const extra = plan.options.context;
  const metadata = plan.input.metadata;
  const { callId, sessionId } = execution.tracker;
  return new ToolExecutionContext({
    services: runtime.services,
    executionId: plan.executionId,
    toolId: tool.id,
    workspacePath: runtime.workspacePath,
    parameters,
    cancellation,
    progress,
    isApproved: true,
    startedAt: execution.startedAt,
    metadata:
      extra === undefined ? metadata : metadata === undefined ? extra : { ...extra, ...metadata },
    // Plain members, not conditional spreads: this runs on every call.
    toolCallId: callId,
    sessionId,
    modifiedParameters: edited,
  });
}

/**
 * Where the tool's progress reports go: the caller's own callbacks (the AIntern context's
 * `progress`, the per-call `onProgress`), whatever the tier, and the execution's events
 * (an InProgress event per report and `executionProgress`) on tiers with Full progress events:
 * every tier without a license configured, Teams and Enterprise.
 */
function progressCallback(
  runtime: ExecutorRuntime,
  execution: Execution,
  tool: Tool,
): ((p: ToolProgress) => void) | undefined {
  const { plan } = execution;
  const own = plan.context?.progress;
  const perCall = plan.options.onProgress;
  const events = hasFullProgressEvents(runtime.license.currentTier);
  if (own === undefined && perCall === undefined) {
    return events ? (p) => reportProgress(runtime, execution, tool, p) : undefined;
  }
  return (p) => {
    try {
      own?.(p);
    } finally {
      // Reports after the execution ended (a tool that ignored its timeout) go nowhere else.
      if (!execution.tracker.finished) {
        if (perCall !== undefined) {
          try {
            perCall(p);
          } catch {
            // A caller's progress callback that throws must not fail the tool that reported.
          }
        }
        if (events) reportProgress(runtime, execution, tool, p);
      }
    }
  };
}

/** A tool's progress report: an InProgress event with its percentage, and `onProgress`. */
function reportProgress(
  runtime: ExecutorRuntime,
  execution: Execution,
  tool: Tool,
  progress: ToolProgress,
): void {
  if (execution.tracker.finished) return;
  const percent = progress.percentComplete;
  execution.emit(
    ToolExecutionEventType.InProgress,
    progress.message,
    execution.elapsed(),
    percent === undefined ? undefined : Math.round(percent),
  );
  runtime.observers.onProgress(execution, tool, progress);
}

/**
 * What a sandbox run gets: the signal is made from the cancellation only if the sandbox (or the
 * tool, through it) reads it.
 */
export class RunOptions implements SandboxRunOptions {
  readonly cancellation: Cancellation;
  readonly timeoutMs: number;
  readonly #execution: Execution;

  constructor(execution: Execution) {
    this.#execution = execution;
    this.cancellation = execution.cancellation;
    this.timeoutMs = execution.timeoutMs;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }

  /** Stops the timeout clock while the sandbox waits for a worker; the result restarts it. */
  holdTimeout(): () => void {
    const execution = this.#execution;
    clearTimeout(execution.timer);
    execution.timer = undefined;
    let resumed = false;
    return () => {
      if (resumed || execution.cancellation.aborted) return;
      resumed = true;
      armTimeout(execution);
    };
  }
}
