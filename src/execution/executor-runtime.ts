import type { ServiceProvider } from "../context/index.js";
import type { ToolRegistry } from "../registry/index.js";
import type { ToolSandbox } from "../sandbox/index.js";
import type { ExecutorApproval } from "./approval-step.js";
import type { Authorizer } from "./authorizer.js";
import type { ConcurrencyLimiter } from "./concurrency-limiter.js";
import type { ExecutionObservers } from "./execution-observer.js";
import type { LicenseContext } from "./license.js";
import type { ResolvedToolExecutorOptions } from "./tool-execution-options.js";
import type { TrackingObserver } from "./tracking-observer.js";

/** What the run of one execution needs from its executor (built once, by the executor). */
export interface ExecutorRuntime {
  readonly registry: ToolRegistry;
  readonly options: ResolvedToolExecutorOptions;
  readonly authorizer: Authorizer;
  /** The approval gate; `undefined` when none is configured (risky calls are refused). */
  readonly approval: ExecutorApproval | undefined;
  readonly license: LicenseContext;
  readonly sandbox: ToolSandbox;
  readonly limiter: ConcurrencyLimiter;
  readonly services: ServiceProvider;
  readonly workspacePath: string | undefined;
  readonly observers: ExecutionObservers;
  readonly tracking: TrackingObserver;
  /** "Tool 'x' not found. Did you mean ...? Available: ..." */
  notFoundMessage(toolName: string): string;
}
