import { ToolExecutionContext, type ToolProgress } from "../context/index.js";
import type { Cancellation, JsonObject } from "../core/index.js";
import type { SandboxRunOptions } from "../sandbox/index.js";
import type { Tool } from "../tools/index.js";
import type { Execution } from "./execution.js";
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
  // Progress reports become events only on tiers with Full progress; the caller's own
  // callback on an AIntern context receives them whatever the tier.
  const own = plan.context?.progress;
  const events = hasFullProgressEvents(runtime.license.currentTier);
  let progress: ((p: ToolProgress) => void) | undefined;
  if (events && own !== undefined) {
    progress = (p) => {
      try {
        own(p);
      } finally {
        reportProgress(runtime, execution, tool, p);
      }
    };
  } else if (events) {
    progress = (p) => reportProgress(runtime, execution, tool, p);
  } else {
    progress = own;
  }
  if (plan.context !== undefined) {
    return plan.context.with({ cancellation, progress, toolId: tool.id });
  }
  const extra = plan.options.context;
  const metadata = plan.input.metadata;
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
  });
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

  constructor(cancellation: Cancellation, timeoutMs: number) {
    this.cancellation = cancellation;
    this.timeoutMs = timeoutMs;
  }

  get signal(): AbortSignal {
    return this.cancellation.signal;
  }
}
