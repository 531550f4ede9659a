import { ServiceContainer, type ServiceProvider, ToolExecutionContext } from "../context/index.js";
import {
  closestNames,
  type JsonObject,
  RiskLevel,
  TypedEventEmitter,
  timeOrderedUuid,
} from "../core/index.js";
import type { ToolRegistry } from "../registry/index.js";
import { type IsolationPolicy, RoutingSandbox, type ToolSandbox } from "../sandbox/index.js";
import {
  type ExecutionTelemetryConfig,
  type ExecutionTelemetrySink,
  LazyExecutionTelemetry,
  type Logger,
  silentLogger,
} from "../telemetry/index.js";
import { ToolValidationError, ToolValidationResult } from "../validation/index.js";
import type { ExecutorApproval } from "./approval-step.js";
import type { AuditLog } from "./audit-log.js";
import { AuditObserver } from "./audit-observer.js";
import { type Authorizer, grantPermissions } from "./authorizer.js";
import { ConcurrencyLimiter } from "./concurrency-limiter.js";
import { EventBusObserver } from "./event-bus-observer.js";
import { executeBatch } from "./execute-batch.js";
import type { ExecutionPlan } from "./execution.js";
import { type ExecutionObserver, ExecutionObservers } from "./execution-observer.js";
import { cancelledReason } from "./execution-outcome.js";
import type { ExecutorRuntime } from "./executor-runtime.js";
import { defaultMaxConcurrentExecutions, type LicenseContext, ungatedLicense } from "./license.js";
import { LoggingObserver } from "./logging-observer.js";
import { runExecution } from "./run-execution.js";
import { TelemetryObserver } from "./telemetry-observer.js";
import { ToolExecutionError } from "./tool-execution-error.js";
import type { ToolExecutionEvent } from "./tool-execution-event.js";
import {
  type ResolvedToolExecutorOptions,
  resolveExecutorOptions,
  type ToolExecutionOptions,
  type ToolExecutorOptions,
} from "./tool-execution-options.js";
import type { ToolExecutionResult } from "./tool-execution-result.js";
import type { ToolExecutorEvents } from "./tool-executor-events.js";
import type { ToolInput } from "./tool-input.js";
import { TrackingObserver } from "./tracking-observer.js";

/** Construction options of a {@link ToolExecutor}; only `registry` is required. */
export interface ToolExecutorConfig {
  readonly registry: ToolRegistry;
  /** Checks each tool's `requiredPermissions`. Default: grants none (tools needing one are denied). */
  readonly authorizer?: Authorizer;
  /** Where every execution is recorded. Default: none (see `openStore` for SQLite / PostgreSQL). */
  readonly audit?: AuditLog;
  /**
   * The license tier batches and progress events are gated by (spec 003). Default: none, and
   * nothing is gated (`ungatedLicense`: any batch size, parallel batches, Full progress events);
   * pass `staticLicense(tier)` or your own `LicenseContext` to sell tiers.
   */
  readonly license?: LicenseContext;
  /**
   * The approval gate every call not already approved by its sender goes through (see
   * {@link ExecutorApproval}): `{ policy, handler }` (the same `ApprovalPolicy` and handler a
   * `ToolCallProcessor` takes), or `"none"` to opt out for trusted batch jobs. Default: none, and
   * a call whose effective risk is High or Critical, or whose tool requires confirmation, is
   * refused with `ConfirmationRequired` unless its `confirmationCallback` approves it.
   */
  readonly approval?: ExecutorApproval;
  /**
   * Where tools run. Default: a `RoutingSandbox` that runs tools in-process, and in a pooled
   * child process those whose definition says `isolation: "process"` or that `isolation`
   * requires (processes start only when such a tool first runs; `close()` stops them).
   */
  readonly sandbox?: ToolSandbox;
  /**
   * Which tools must run in a separate, killable process besides those whose definition asks for
   * it (`isolation: "process"`): by risk level or category. Used by the default sandbox (a
   * `RoutingSandbox`); give either this or `sandbox`, not both.
   */
  readonly isolation?: IsolationPolicy;
  /** An event bus to share with the application; default: a new one (`executor.events`). */
  readonly events?: TypedEventEmitter<ToolExecutorEvents>;
  /** A pino logger (or anything with its info / warn / error / debug); default: silent. */
  readonly logger?: Logger;
  readonly options?: ToolExecutorOptions;
  /** Services handed to tools run through `execute(input, options)`. */
  readonly services?: ServiceProvider;
  /** The workspace of tools run through `execute(input, options)`. */
  readonly workspacePath?: string;
  /**
   * Where metrics and spans go: the global OpenTelemetry API by default (loaded on first need),
   * `{ meter, tracer }` to report elsewhere, or your own sink (`ExecutionTelemetry` from
   * `aintern/telemetry`, or anything implementing `ExecutionTelemetrySink`).
   */
  readonly telemetry?: ExecutionTelemetrySink | ExecutionTelemetryConfig;
}

const emptyServices = new ServiceContainer();

/**
 * Runs tools: one pipeline behind both contracts of the specs.
 *
 * - AIntern (spec 001 i): `execute(toolId, context, signal?)`, `validate`, `getExecutionSummary`,
 *   `getEffectiveRiskLevel`, and the `executionStarted` / `executionProgress` /
 *   `executionCompleted` events.
 * - Lexichord (spec 003): `execute(input, options, signal?)`, `executeBatch`, `observe`,
 *   `isExecuting`, `cancel`.
 *
 * Every execution goes through the same steps, in the order of spec 003 section 5.1: Started,
 * lookup, authorization, validation, approval (the gate, or the call's confirmation), InProgress,
 * the sandboxed run under a timeout, the audit record, the final event. Every execution gets a result (never a rejection) and,
 * when an audit log is configured, exactly one audit row, committed before `execute` resolves.
 *
 * The run itself is `runExecution`; what watches it (logs, the event bus, telemetry, the audit
 * write, the `observe()` tracker) are {@link ExecutionObserver}s.
 *
 * @example
 * ```ts
 * const executor = new ToolExecutor({ registry });
 * const run = await executor.execute({ toolName: "file-read", parameters: { path: "a.txt" } });
 * console.log(run.status, run.result.toLlmContext());
 * ```
 */
export class ToolExecutor {
  /** The executor's event bus. */
  readonly events: TypedEventEmitter<ToolExecutorEvents>;
  readonly registry: ToolRegistry;
  readonly options: ResolvedToolExecutorOptions;
  readonly #license: LicenseContext;
  readonly #sandbox: ToolSandbox;
  readonly #logger: Logger;
  readonly #telemetry: ExecutionTelemetrySink;
  readonly #tracking: TrackingObserver;
  readonly #audit: AuditObserver | undefined;
  readonly #auditLog: AuditLog | undefined;
  readonly #runtime: ExecutorRuntime;

  constructor(config: ToolExecutorConfig) {
    if (config?.registry === undefined) {
      throw new ToolExecutionError(
        "INVALID_CONFIG",
        "ToolExecutor needs a registry: new ToolExecutor({ registry })",
      );
    }
    if (config.sandbox !== undefined && config.isolation !== undefined) {
      throw new ToolExecutionError(
        "INVALID_CONFIG",
        "Give ToolExecutor either a sandbox or an isolation policy (which configures the default RoutingSandbox), not both",
      );
    }
    const approval = config.approval;
    if (
      approval !== undefined &&
      approval !== "none" &&
      (typeof approval?.policy?.decide !== "function" ||
        typeof approval?.handler?.requestApproval !== "function")
    ) {
      throw new ToolExecutionError(
        "INVALID_CONFIG",
        'ToolExecutor approval must be { policy: new ApprovalPolicy(), handler } (a handler with requestApproval) or "none"',
      );
    }
    const registry = config.registry;
    const license = config.license ?? ungatedLicense;
    const options = resolveExecutorOptions(
      config.options,
      defaultMaxConcurrentExecutions(license.currentTier),
    );
    this.registry = registry;
    this.options = options;
    this.events = config.events ?? new TypedEventEmitter<ToolExecutorEvents>();
    this.#license = license;
    this.#sandbox = config.sandbox ?? new RoutingSandbox({ policy: config.isolation ?? {} });
    this.#logger = config.logger ?? silentLogger;
    this.#telemetry =
      config.telemetry !== undefined && "startExecutionSpan" in config.telemetry
        ? config.telemetry
        : new LazyExecutionTelemetry(config.telemetry);
    this.#tracking = new TrackingObserver(options.retainFinishedExecutions);
    this.#auditLog = config.audit;
    this.#audit =
      config.audit === undefined
        ? undefined
        : new AuditObserver(config.audit, this.#logger, options.logParameters);

    // Order matters: tracking first (isExecuting is false once an execution is announced as
    // finished), logging before the audit (why a call stopped is logged before its row).
    const observers: ExecutionObserver[] = [
      this.#tracking,
      new EventBusObserver(this.events, options.logParameters),
      new TelemetryObserver(this.#telemetry),
    ];
    // The silent default logger gets no observer: hot-path log lines are not even built.
    if (this.#logger !== silentLogger) observers.push(new LoggingObserver(this.#logger, options));
    if (this.#audit !== undefined) observers.push(this.#audit);

    this.#runtime = {
      registry,
      options,
      authorizer: config.authorizer ?? grantPermissions(),
      approval: config.approval,
      license: this.#license,
      sandbox: this.#sandbox,
      limiter: new ConcurrencyLimiter(options.maxConcurrentExecutions, options.maxQueuedExecutions),
      services: config.services ?? emptyServices,
      workspacePath: config.workspacePath,
      observers: new ExecutionObservers(observers),
      tracking: this.#tracking,
      notFoundMessage: (toolName) => this.#notFoundMessage(toolName),
    };
  }

  /** The audit log every execution is recorded in, when one was configured. */
  get audit(): AuditLog | undefined {
    return this.#auditLog;
  }

  /** The license context batches and progress events are gated by. */
  get license(): LicenseContext {
    return this.#license;
  }

  // ------------------------------------------------------------------ AIntern contract

  /**
   * Runs a tool. Two forms:
   * - `execute(toolId, context, signal?)` (AIntern): the context carries the parameters, the
   *   execution id and the services;
   * - `execute(input, options?, signal?)` (Lexichord): a {@link ToolInput} and per-call options.
   *
   * Resolves (never rejects for anything the tool or the model did) with a
   * {@link ToolExecutionResult} once the execution's audit row is committed.
   */
  execute(
    toolId: string,
    context: ToolExecutionContext,
    signal?: AbortSignal,
  ): Promise<ToolExecutionResult>;
  execute(
    input: ToolInput,
    options?: ToolExecutionOptions,
    signal?: AbortSignal,
  ): Promise<ToolExecutionResult>;
  execute(
    target: string | ToolInput,
    contextOrOptions?: ToolExecutionContext | ToolExecutionOptions,
    signal?: AbortSignal,
  ): Promise<ToolExecutionResult> {
    if (typeof target === "string") {
      const context = contextOrOptions as ToolExecutionContext;
      if (!(context instanceof ToolExecutionContext)) {
        throw new ToolExecutionError(
          "INVALID_ARGUMENT",
          "execute(toolId, context) needs a ToolExecutionContext; build one with ToolExecutionContextBuilder",
        );
      }
      return this.#run({
        executionId: context.executionId,
        toolName: target,
        parameters: context.effectiveParameters,
        input: { toolName: target, parameters: context.effectiveParameters },
        options: {},
        callerSignal: signal,
        context,
        batchId: undefined,
      });
    }
    return this.runInput(
      target,
      (contextOrOptions as ToolExecutionOptions | undefined) ?? {},
      signal,
      undefined,
    );
  }

  /** Validates parameters against a tool (AIntern); an unknown tool is a validation failure. */
  validate(toolId: string, parameters: unknown): ToolValidationResult {
    const tool = this.registry.getTool(toolId);
    if (tool === undefined) {
      return ToolValidationResult.invalid(
        new ToolValidationError({
          parameterName: "toolId",
          message: this.#notFoundMessage(toolId),
          errorCode: "tool_not_found",
        }),
      );
    }
    return tool.validate(parameters);
  }

  /** The tool's summary of a call, or `"Execute <toolId>"` for an unknown tool. */
  getExecutionSummary(toolId: string, parameters: JsonObject): string {
    return this.registry.getTool(toolId)?.getExecutionSummary(parameters) ?? `Execute ${toolId}`;
  }

  /** The tool's risk for a call, or Medium (which asks) for an unknown tool. */
  getEffectiveRiskLevel(toolId: string, parameters: JsonObject): RiskLevel {
    return this.registry.getTool(toolId)?.getEffectiveRiskLevel(parameters) ?? RiskLevel.Medium;
  }

  // ------------------------------------------------------------------ Lexichord contract

  /**
   * Runs several inputs (see `executeBatch` in the docs): sequential by default, in parallel when
   * `allowParallel` is set and the license tier allows it. Results come back in input order,
   * one per input. Throws {@link ToolExecutionError} when the batch is over the tier's limit.
   */
  executeBatch(
    inputs: readonly ToolInput[],
    options: ToolExecutionOptions = {},
    signal?: AbortSignal,
  ): Promise<ToolExecutionResult[]> {
    const loading = this.#telemetry.loading;
    if (loading !== undefined) {
      return loading.then(() => this.executeBatch(inputs, options, signal));
    }
    return executeBatch(
      {
        runInput: (input, itemOptions, itemSignal, batchId) =>
          this.runInput(input, itemOptions, itemSignal, batchId),
        tier: this.#license.currentTier,
        maxConcurrentExecutions: this.options.maxConcurrentExecutions,
        events: this.events,
        logger: this.#logger,
        telemetry: this.#telemetry,
        audit: async (record) => this.#audit?.write(record),
      },
      inputs,
      options,
      signal,
    );
  }

  /**
   * The events of one execution as an async stream: first the events so far, then each new one,
   * ending after its final event. An id that already finished replays its events (for the last
   * `retainFinishedExecutions` executions); an unknown id ends at once. `signal` stops observing.
   */
  observe(executionId: string, signal?: AbortSignal): AsyncIterable<ToolExecutionEvent> {
    const tracker = this.#tracking.find(executionId);
    if (tracker === undefined) return emptyStream();
    return tracker.stream(signal);
  }

  /** Whether an execution with this id is running now. */
  isExecuting(executionId: string): boolean {
    return this.#tracking.running(executionId) !== undefined;
  }

  /**
   * Cancels a running execution; returns whether one was running. It ends with status
   * `cancelled` (not `timeout`): an isolated tool is killed, an in-process one gets its signal.
   */
  cancel(executionId: string): boolean {
    const running = this.#tracking.running(executionId);
    if (running === undefined || running.cancellation.aborted) return false;
    this.#runtime.observers.onCancelRequested(running);
    running.cancellation.abort(cancelledReason());
    return true;
  }

  /** Closes the sandbox (its processes and pools). Running executions are not waited for. */
  async close(): Promise<void> {
    await this.#sandbox.close?.();
  }

  /** @internal Runs one Lexichord input; batches call it with their batch id. */
  runInput(
    input: ToolInput,
    options: ToolExecutionOptions,
    signal: AbortSignal | undefined,
    batchId: string | undefined,
  ): Promise<ToolExecutionResult> {
    if (typeof input !== "object" || input === null || typeof input.toolName !== "string") {
      throw new ToolExecutionError(
        "INVALID_ARGUMENT",
        "execute(input) needs a ToolInput with a string toolName",
      );
    }
    const plan: ExecutionPlan = {
      executionId: options.executionId ?? timeOrderedUuid(),
      toolName: input.toolName,
      parameters: input.parameters ?? {},
      input,
      options,
      callerSignal: signal,
      context: undefined,
      batchId,
    };
    return this.#run(plan);
  }

  /** Runs one execution, first waiting once for telemetry that is still loading and wanted. */
  #run(plan: ExecutionPlan): Promise<ToolExecutionResult> {
    const loading = this.#telemetry.loading;
    if (loading === undefined) return runExecution(this.#runtime, plan);
    return loading.then(() => runExecution(this.#runtime, plan));
  }

  #notFoundMessage(toolName: string): string {
    const ids = this.registry.tools.map((t) => t.id);
    const suggestions = closestNames(String(toolName), ids);
    const hint =
      suggestions.length === 0
        ? ""
        : ` Did you mean ${suggestions.map((s) => `'${s}'`).join(" or ")}?`;
    return `Tool '${toolName}' not found.${hint} Available: ${ids.length === 0 ? "none" : ids.join(", ")}`;
  }
}

async function* emptyStream(): AsyncGenerator<ToolExecutionEvent> {}
