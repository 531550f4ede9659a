import {
  ServiceContainer,
  type ServiceProvider,
  ToolExecutionContext,
  type ToolProgress,
} from "../context/index.js";
import {
  closestNames,
  isJsonObject,
  type JsonObject,
  RiskLevel,
  type Tool,
  ToolErrorCode,
  TypedEventEmitter,
} from "../core/index.js";
import type { ToolRegistry } from "../registry/index.js";
import { ToolResult } from "../result/index.js";
import { InProcessSandbox, type ToolSandbox } from "../sandbox/index.js";
import type { AuditLog, AuditRecord } from "../store/index.js";
import { ExecutionTelemetry, type Logger, silentLogger } from "../telemetry/index.js";
import { ToolValidationError, ToolValidationResult } from "../validation/index.js";
import { type Authorizer, grantPermissions } from "./authorizer.js";
import { ConcurrencyLimitError, ConcurrencyLimiter } from "./concurrency-limiter.js";
import { type BatchRunner, executeBatch } from "./execute-batch.js";
import { ExecutionTracker } from "./execution-tracker.js";
import {
  hasFullProgressEvents,
  type LicenseContext,
  LicenseTier,
  staticLicense,
} from "./license.js";
import { ToolExecutionError } from "./tool-execution-error.js";
import { type ToolExecutionEvent, ToolExecutionEventType } from "./tool-execution-event.js";
import {
  effectiveTimeoutMs,
  type ResolvedToolExecutorOptions,
  resolveExecutorOptions,
  type ToolExecutionOptions,
  type ToolExecutorOptions,
} from "./tool-execution-options.js";
import { ToolExecutionResult } from "./tool-execution-result.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";
import type { ToolExecutorEvents } from "./tool-executor-events.js";
import type { ToolInput } from "./tool-input.js";

/** Construction options of a {@link ToolExecutor}; only `registry` is required. */
export interface ToolExecutorConfig {
  readonly registry: ToolRegistry;
  /** Checks each tool's `requiredPermissions`. Default: grants none (tools needing one are denied). */
  readonly authorizer?: Authorizer;
  /** Where every execution is recorded. Default: none (see `openStore` for SQLite / PostgreSQL). */
  readonly audit?: AuditLog;
  /** Default: `staticLicense(LicenseTier.Core)`. */
  readonly license?: LicenseContext;
  /** Default: an `InProcessSandbox`. */
  readonly sandbox?: ToolSandbox;
  /** An event bus to share with the application; default: a new one (`executor.events`). */
  readonly events?: TypedEventEmitter<ToolExecutorEvents>;
  /** A pino logger (or anything with its info / warn / error / debug); default: silent. */
  readonly logger?: Logger;
  readonly options?: ToolExecutorOptions;
  /** Services handed to tools run through `execute(input, options)`. */
  readonly services?: ServiceProvider;
  /** The workspace of tools run through `execute(input, options)`. */
  readonly workspacePath?: string;
  /** Metrics and traces; default: the global OpenTelemetry API. */
  readonly telemetry?: ExecutionTelemetry;
}

/** Everything one run through the pipeline needs. */
interface ExecutionPlan {
  readonly executionId: string;
  readonly toolName: string;
  readonly parameters: unknown;
  readonly input: ToolInput;
  readonly options: ToolExecutionOptions;
  readonly callerSignal: AbortSignal | undefined;
  /** The AIntern path's context; the Lexichord path builds one. */
  readonly context: ToolExecutionContext | undefined;
  readonly batchId: string | undefined;
}

/** What the pipeline decided, before it becomes a {@link ToolExecutionResult}. */
interface Outcome {
  readonly status: ToolExecutionStatus;
  readonly result: ToolResult;
  readonly tool?: Tool;
  readonly wasApproved?: boolean;
  readonly mayStillBeRunning?: boolean;
  readonly timeoutMs?: number;
}

interface RunningExecution {
  readonly tracker: ExecutionTracker;
  readonly controller: AbortController;
}

const CANCELLED = Symbol("cancelled");
const TIMED_OUT = Symbol("timed out");
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
 * lookup, authorization, validation, confirmation, InProgress, the sandboxed run under a timeout,
 * the audit record, the final event. Every execution gets a result (never a rejection) and,
 * when an audit log is configured, exactly one audit row, committed before `execute` resolves.
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
  readonly #authorizer: Authorizer;
  readonly #audit: AuditLog | undefined;
  readonly #license: LicenseContext;
  readonly #sandbox: ToolSandbox;
  readonly #logger: Logger;
  readonly #services: ServiceProvider;
  readonly #workspacePath: string | undefined;
  readonly #telemetry: ExecutionTelemetry;
  readonly #limiter: ConcurrencyLimiter;
  readonly #running = new Map<string, RunningExecution>();
  readonly #finished = new Map<string, ExecutionTracker>();

  constructor(config: ToolExecutorConfig) {
    if (config?.registry === undefined) {
      throw new ToolExecutionError(
        "INVALID_CONFIG",
        "ToolExecutor needs a registry: new ToolExecutor({ registry })",
      );
    }
    this.registry = config.registry;
    this.options = resolveExecutorOptions(config.options);
    this.events = config.events ?? new TypedEventEmitter<ToolExecutorEvents>();
    this.#authorizer = config.authorizer ?? grantPermissions();
    this.#audit = config.audit;
    this.#license = config.license ?? staticLicense(LicenseTier.Core);
    this.#sandbox = config.sandbox ?? new InProcessSandbox();
    this.#logger = config.logger ?? silentLogger;
    this.#services = config.services ?? emptyServices;
    this.#workspacePath = config.workspacePath;
    this.#telemetry = config.telemetry ?? new ExecutionTelemetry();
    this.#limiter = new ConcurrencyLimiter(
      this.options.maxConcurrentExecutions,
      this.options.maxQueuedExecutions,
    );
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
        callerSignal: mergeCallerSignals(signal, context.signal),
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
    return executeBatch(this.#batchRunner(), inputs, options, signal);
  }

  /**
   * The events of one execution as an async stream: first the events so far, then each new one,
   * ending after its final event. An id that already finished replays its events (for the last
   * `retainFinishedExecutions` executions); an unknown id ends at once. `signal` stops observing.
   */
  observe(executionId: string, signal?: AbortSignal): AsyncIterable<ToolExecutionEvent> {
    const tracker = this.#running.get(executionId)?.tracker ?? this.#finished.get(executionId);
    if (tracker === undefined) return emptyStream();
    return tracker.stream(signal);
  }

  /** Whether an execution with this id is running now. */
  isExecuting(executionId: string): boolean {
    return this.#running.has(executionId);
  }

  /**
   * Cancels a running execution; returns whether one was running. It ends with status
   * `cancelled` (not `timeout`): an isolated tool is killed, an in-process one gets its signal.
   */
  cancel(executionId: string): boolean {
    const running = this.#running.get(executionId);
    if (running === undefined || running.controller.signal.aborted) return false;
    this.#logger.info(
      { executionId },
      `[TLS-EXE] Cancellation requested. ExecutionId: ${executionId}`,
    );
    running.controller.abort(CANCELLED);
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
    return this.#run({
      executionId: options.executionId ?? crypto.randomUUID(),
      toolName: input.toolName,
      parameters: input.parameters ?? {},
      input,
      options,
      callerSignal: signal,
      context: undefined,
      batchId,
    });
  }

  #batchRunner(): BatchRunner {
    return {
      runInput: (input, options, signal, batchId) => this.runInput(input, options, signal, batchId),
      tier: this.#license.currentTier,
      events: this.events,
      logger: this.#logger,
      telemetry: this.#telemetry,
      audit: (record) => this.#writeAudit(record),
    };
  }

  // ------------------------------------------------------------------ the pipeline

  async #run(plan: ExecutionPlan): Promise<ToolExecutionResult> {
    const { executionId, toolName } = plan;
    if (this.#running.has(executionId)) {
      throw new ToolExecutionError(
        "DUPLICATE_EXECUTION_ID",
        `Execution '${executionId}' is already running; give each execution its own id.`,
      );
    }
    const controller = new AbortController();
    const tracker = new ExecutionTracker(executionId);
    this.#running.set(executionId, { tracker, controller });
    const detach = linkSignal(plan.callerSignal, controller);
    const startedAt = new Date();
    const t0 = performance.now();
    const elapsed = (): number => performance.now() - t0;
    const span = this.#telemetry.startExecutionSpan(toolName, executionId);

    let outcome: Outcome;
    try {
      this.#logger.info(
        { executionId, toolName },
        `[TLS-EXE] Tool execution started. ExecutionId: ${executionId}, Tool: ${toolName}`,
      );
      this.#emit(tracker, toolName, ToolExecutionEventType.Started, "Execution started", 0);
      if (this.events.hasListeners("toolExecutionStarted")) {
        this.events.emit("toolExecutionStarted", {
          executionId,
          toolName,
          parameters: this.options.logParameters ? (plan.input.parameters ?? {}) : "[redacted]",
          timestamp: startedAt,
        });
      }
      outcome = await this.#pipeline(plan, controller, tracker, startedAt, elapsed);
    } catch (error) {
      // Only a bug in aintern or a misbehaving plug-in (authorizer, audit, sandbox) gets here.
      this.#logger.error(
        { executionId, toolName, err: error },
        "[TLS-EXE] Execution pipeline failed",
      );
      outcome = { status: ToolExecutionStatus.Failed, result: ToolResult.fromException(error) };
    } finally {
      detach();
    }

    const durationMs = elapsed();
    const tool = outcome.tool;
    const execution = new ToolExecutionResult({
      toolId: tool?.id ?? toolName,
      executionId,
      result:
        outcome.result.durationMs === undefined
          ? outcome.result.withDuration(durationMs)
          : outcome.result,
      status: outcome.status,
      startedAt,
      completedAt: new Date(),
      durationMs,
      wasApproved: outcome.wasApproved ?? false,
      mayStillBeRunning: outcome.mayStillBeRunning ?? false,
      input: plan.input,
      batchId: plan.batchId,
    });

    await this.#writeAudit(this.#auditRecord(execution, plan), tracker, toolName, elapsed);
    this.#finish(execution, tracker, outcome, elapsed());
    this.#telemetry.recordExecution(execution.toolId, execution.status, durationMs);
    this.#telemetry.endExecutionSpan(
      span,
      execution.success ? undefined : (execution.errorCode ?? execution.status),
    );
    return execution;
  }

  async #pipeline(
    plan: ExecutionPlan,
    controller: AbortController,
    tracker: ExecutionTracker,
    startedAt: Date,
    elapsed: () => number,
  ): Promise<Outcome> {
    const { executionId, toolName } = plan;
    const signal = controller.signal;

    // 1. Lookup
    const tool = this.registry.getTool(toolName);
    if (tool === undefined) {
      this.#logger.warn(
        { executionId, toolName },
        `[TLS-EXE] Tool not found. ExecutionId: ${executionId}, Tool: ${toolName}`,
      );
      return {
        status: ToolExecutionStatus.Failed,
        result: ToolResult.failed(this.#notFoundMessage(toolName), ToolErrorCode.ToolNotFound),
      };
    }
    if (this.events.hasListeners("executionStarted")) {
      this.events.emit("executionStarted", {
        toolId: tool.id,
        toolName: tool.name,
        executionId,
        startedAt,
      });
    }
    if (signal.aborted) return this.#stopped(tool, signal, false, undefined);

    // 2. Authorization
    const parameters = isJsonObject(plan.parameters) ? plan.parameters : undefined;
    if (tool.requiredPermissions.length > 0) {
      const auth = await this.#authorizer.authorize(
        tool.requiredPermissions,
        {
          toolId: tool.id,
          executionId,
          parameters: parameters ?? {},
          context: plan.options.context ?? plan.context?.metadata,
        },
        signal,
      );
      if (!auth.isAuthorized) {
        this.#logger.warn(
          { executionId, toolName, reason: auth.denialReason },
          `[TLS-EXE] Authorization denied. ExecutionId: ${executionId}, Tool: ${toolName}, Reason: ${auth.denialReason}`,
        );
        return {
          tool,
          status: ToolExecutionStatus.PermissionDenied,
          result: ToolResult.failed(
            `Permission denied for '${tool.id}': ${auth.denialReason}`,
            ToolErrorCode.PermissionDenied,
          ),
        };
      }
    }

    // 3. Validation
    const validation = tool.validate(plan.parameters);
    if (!validation.isValid || parameters === undefined) {
      const message = validation.isValid
        ? "Parameters must be a JSON object"
        : validation.getErrorMessage();
      this.#logger.warn(
        { executionId, toolName, errors: message },
        `[TLS-EXE] Parameter validation failed. ExecutionId: ${executionId}, Tool: ${toolName}, Errors: ${message}`,
      );
      return {
        tool,
        status: ToolExecutionStatus.ValidationError,
        result: ToolResult.validationFailed(validation.isValid ? message : validation),
      };
    }

    // 4. Confirmation
    let wasApproved = true;
    const needsConfirmation =
      (plan.options.requireConfirmation === true || tool.requiresConfirmation) &&
      plan.context?.isApproved !== true;
    if (needsConfirmation) {
      this.#emit(
        tracker,
        toolName,
        ToolExecutionEventType.ConfirmationRequested,
        "Confirmation required",
        elapsed(),
      );
      const callback = plan.options.confirmationCallback;
      if (callback === undefined) {
        return {
          tool,
          status: ToolExecutionStatus.RequiresConfirmation,
          result: ToolResult.failed(
            `'${tool.id}' needs confirmation before it runs, and no confirmation callback was given`,
            ToolErrorCode.ConfirmationRequired,
          ),
          wasApproved: false,
        };
      }
      const confirmed = await confirm(callback, plan.input, signal);
      if (signal.aborted) return this.#stopped(tool, signal, false, undefined);
      if (confirmed !== true) {
        const reason =
          confirmed === false
            ? "Confirmation denied by user"
            : `Confirmation failed: ${errorText(confirmed.error)}`;
        return {
          tool,
          status: ToolExecutionStatus.Denied,
          result: ToolResult.failed(reason, ToolErrorCode.ConfirmationDenied),
          wasApproved: false,
        };
      }
      this.#emit(
        tracker,
        toolName,
        ToolExecutionEventType.ConfirmationReceived,
        "Confirmation received",
        elapsed(),
      );
    }

    // 5. Wait for a slot, then start the clock
    const acquired = this.#limiter.acquire(signal);
    if (acquired !== undefined) {
      try {
        await acquired;
      } catch (error) {
        if (error instanceof ConcurrencyLimitError) {
          return {
            tool,
            status: ToolExecutionStatus.Failed,
            result: ToolResult.failed(error.message, ToolErrorCode.ConcurrencyLimit),
            wasApproved,
          };
        }
        return this.#stopped(tool, signal, false, undefined);
      }
    }
    try {
      const timeoutMs = effectiveTimeoutMs(
        plan.options.timeoutMs,
        tool.constraints?.maxExecutionTimeMs,
        this.options.defaultTimeoutMs,
      );
      const timer = setTimeout(() => controller.abort(TIMED_OUT), timeoutMs);
      try {
        this.#emit(
          tracker,
          toolName,
          ToolExecutionEventType.InProgress,
          "Executing tool",
          elapsed(),
        );
        const context = this.#contextFor(plan, tool, parameters, signal, tracker, elapsed);
        if (this.#audit !== undefined) {
          await this.#audit.begin({
            executionId,
            toolName: tool.id,
            startedAt,
            batchId: plan.batchId ?? null,
          });
        }
        if (signal.aborted) return this.#stopped(tool, signal, false, timeoutMs);

        // 6. Run
        const run = await this.#sandbox.run(tool, context, { signal, timeoutMs });
        wasApproved = true;
        if (run.kind === "aborted" || signal.aborted) {
          return this.#stopped(
            tool,
            signal,
            run.kind === "aborted" && run.mayStillBeRunning,
            timeoutMs,
          );
        }
        if (run.kind === "threw") {
          this.#logger.error(
            { executionId, toolName, err: run.error },
            `[TLS-EXE] Execution failed with exception. ExecutionId: ${executionId}, Tool: ${toolName}`,
          );
          return {
            tool,
            status: ToolExecutionStatus.Failed,
            result: ToolResult.fromException(run.error),
            wasApproved,
          };
        }
        return { tool, status: statusOf(run.result), result: run.result, wasApproved, timeoutMs };
      } finally {
        clearTimeout(timer);
      }
    } finally {
      this.#limiter.release();
    }
  }

  /** The outcome of an execution stopped by its signal: a timeout or a cancellation. */
  #stopped(
    tool: Tool,
    signal: AbortSignal,
    mayStillBeRunning: boolean,
    timeoutMs: number | undefined,
  ): Outcome {
    if (signal.reason === TIMED_OUT && timeoutMs !== undefined) {
      const base = ToolResult.timeout(timeoutMs);
      return {
        tool,
        status: ToolExecutionStatus.Timeout,
        result: mayStillBeRunning
          ? ToolResult.failed(
              `${base.error} The tool did not stop when asked and may still be running.`,
              ToolErrorCode.Timeout,
            ).withMetadata("mayStillBeRunning", true)
          : base,
        wasApproved: true,
        mayStillBeRunning,
        timeoutMs,
      };
    }
    const message = mayStillBeRunning
      ? "Execution cancelled. The tool did not stop when asked and may still be running."
      : "Execution cancelled";
    return {
      tool,
      status: ToolExecutionStatus.Cancelled,
      result: mayStillBeRunning
        ? ToolResult.failed(message, ToolErrorCode.Cancelled).withMetadata(
            "mayStillBeRunning",
            true,
          )
        : ToolResult.cancelled(message),
      mayStillBeRunning,
      timeoutMs,
    };
  }

  #contextFor(
    plan: ExecutionPlan,
    tool: Tool,
    parameters: JsonObject,
    signal: AbortSignal,
    tracker: ExecutionTracker,
    elapsed: () => number,
  ): ToolExecutionContext {
    const progress = (p: ToolProgress): void => this.#progress(plan, tool, p, tracker, elapsed);
    if (plan.context !== undefined) {
      return plan.context.with({ signal, progress, toolId: tool.id });
    }
    return new ToolExecutionContext({
      services: this.#services,
      executionId: plan.executionId,
      toolId: tool.id,
      workspacePath: this.#workspacePath,
      parameters,
      signal,
      progress,
      isApproved: true,
      metadata: { ...plan.options.context, ...plan.input.metadata },
    });
  }

  #progress(
    plan: ExecutionPlan,
    tool: Tool,
    progress: ToolProgress,
    tracker: ExecutionTracker,
    elapsed: () => number,
  ): void {
    if (!hasFullProgressEvents(this.#license.currentTier) || tracker.finished) return;
    const percent = progress.percentComplete;
    this.#emit(
      tracker,
      plan.toolName,
      ToolExecutionEventType.InProgress,
      progress.message,
      elapsed(),
      percent === undefined ? undefined : Math.round(percent),
    );
    if (this.events.hasListeners("executionProgress")) {
      this.events.emit("executionProgress", {
        toolId: tool.id,
        executionId: plan.executionId,
        progress,
      });
    }
  }

  #emit(
    tracker: ExecutionTracker,
    toolName: string,
    eventType: ToolExecutionEventType,
    message: string | undefined,
    elapsedMs: number,
    progressPercent?: number,
    data?: Readonly<Record<string, unknown>>,
  ): void {
    const event: ToolExecutionEvent = {
      executionId: tracker.executionId,
      toolName,
      eventType,
      timestamp: new Date(),
      elapsedMs,
      ...(message === undefined ? {} : { message }),
      ...(progressPercent === undefined ? {} : { progressPercent }),
      ...(data === undefined ? {} : { data }),
    };
    tracker.push(event);
    if (this.events.hasListeners("executionEvent")) this.events.emit("executionEvent", event);
  }

  #auditRecord(execution: ToolExecutionResult, plan: ExecutionPlan): AuditRecord {
    const result = execution.result;
    return {
      executionId: execution.executionId,
      toolName: execution.toolId,
      status: execution.status,
      parameters:
        this.options.logParameters && isJsonObject(plan.parameters) ? plan.parameters : null,
      resultSummary: result.success ? result.toLogSummary() : null,
      errorMessage: result.error ?? null,
      errorCode: result.errorCode ?? null,
      startedAt: execution.startedAt,
      completedAt: execution.completedAt,
      durationMs: execution.durationMs,
      sandboxId: this.#sandbox.name,
      batchId: execution.batchId ?? null,
      conversationId: plan.context?.sessionId ?? null,
      wasApproved: execution.wasApproved,
      timedOut: execution.timedOut,
      wasCancelled: execution.wasCancelled,
    };
  }

  /** Writes an audit row; a failing audit log is reported (log + Warning event), never thrown. */
  async #writeAudit(
    record: AuditRecord,
    tracker?: ExecutionTracker,
    toolName?: string,
    elapsed?: () => number,
  ): Promise<void> {
    if (this.#audit === undefined) return;
    try {
      await this.#audit.complete(record);
    } catch (error) {
      this.#logger.error(
        { executionId: record.executionId, err: error },
        `[TLS-EXE] Audit write failed. ExecutionId: ${record.executionId}`,
      );
      if (tracker !== undefined && toolName !== undefined && elapsed !== undefined) {
        this.#emit(
          tracker,
          toolName,
          ToolExecutionEventType.Warning,
          `Audit write failed: ${errorText(error)}`,
          elapsed(),
        );
      }
    }
  }

  #finish(
    execution: ToolExecutionResult,
    tracker: ExecutionTracker,
    outcome: Outcome,
    elapsedMs: number,
  ): void {
    const { executionId, toolId, status } = execution;
    const toolName = execution.input.toolName;
    const eventType =
      status === ToolExecutionStatus.Completed
        ? ToolExecutionEventType.Completed
        : status === ToolExecutionStatus.Timeout
          ? ToolExecutionEventType.Timeout
          : status === ToolExecutionStatus.Cancelled
            ? ToolExecutionEventType.Cancelled
            : ToolExecutionEventType.Failed;
    this.#emit(
      tracker,
      toolName,
      eventType,
      execution.success ? "Execution completed" : execution.errorMessage,
      elapsedMs,
      undefined,
      execution.success ? undefined : { status, errorCode: execution.errorCode },
    );
    this.#running.delete(executionId);
    this.#retain(executionId, tracker);

    const timestamp = execution.completedAt;
    if (status === ToolExecutionStatus.Timeout) {
      this.#logger.warn(
        { executionId, toolName, timeoutMs: outcome.timeoutMs },
        `[TLS-EXE] Execution timed out. ExecutionId: ${executionId}, Tool: ${toolName}, Timeout: ${outcome.timeoutMs}ms`,
      );
      if (this.events.hasListeners("toolExecutionTimeout")) {
        this.events.emit("toolExecutionTimeout", {
          executionId,
          toolName,
          timeoutMs: outcome.timeoutMs ?? 0,
          timestamp,
        });
      }
    }
    if (execution.success) {
      if (this.events.hasListeners("toolExecutionCompleted")) {
        this.events.emit("toolExecutionCompleted", {
          executionId,
          toolName,
          durationMs: execution.durationMs,
          timestamp,
        });
      }
    } else if (this.events.hasListeners("toolExecutionFailed")) {
      this.events.emit("toolExecutionFailed", {
        executionId,
        toolName,
        status,
        errorMessage: execution.errorMessage,
        errorCode: execution.errorCode,
        durationMs: execution.durationMs,
        timestamp,
      });
    }
    if (this.events.hasListeners("executionCompleted")) {
      this.events.emit("executionCompleted", {
        toolId,
        executionId,
        result: execution,
        completedAt: timestamp,
      });
    }
    this.#logger.info(
      {
        executionId,
        toolName,
        status,
        durationMs: execution.durationMs,
        ...(this.options.logResults ? { result: execution.result.toLogSummary() } : {}),
      },
      `[TLS-EXE] Tool execution finished. ExecutionId: ${executionId}, Tool: ${toolName}, Status: ${status}, Duration: ${Math.round(execution.durationMs)}ms`,
    );
  }

  #retain(executionId: string, tracker: ExecutionTracker): void {
    const limit = this.options.retainFinishedExecutions;
    if (limit === 0) return;
    this.#finished.set(executionId, tracker);
    if (this.#finished.size > limit) {
      const oldest = this.#finished.keys().next().value as string;
      this.#finished.delete(oldest);
    }
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

function statusOf(result: ToolResult): ToolExecutionStatus {
  if (result.success) return ToolExecutionStatus.Completed;
  if (result.isCancelled) return ToolExecutionStatus.Cancelled;
  if (result.isTimeout) return ToolExecutionStatus.Timeout;
  if (result.isDenied) return ToolExecutionStatus.Denied;
  if (result.isValidationFailure) return ToolExecutionStatus.ValidationError;
  return ToolExecutionStatus.Failed;
}

/** Aborts `controller` (as a cancellation) when `signal` does; returns a detach function. */
function linkSignal(signal: AbortSignal | undefined, controller: AbortController): () => void {
  if (signal === undefined) return noop;
  if (signal.aborted) {
    controller.abort(CANCELLED);
    return noop;
  }
  const onAbort = (): void => controller.abort(CANCELLED);
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

function mergeCallerSignals(
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
): AbortSignal | undefined {
  if (a === undefined) return b;
  if (b === undefined || a === b) return a;
  return AbortSignal.any([a, b]);
}

function noop(): void {}

/** Asks the confirmation callback; resolves `{ error }` if it throws, false if aborted first. */
function confirm(
  callback: NonNullable<ToolExecutionOptions["confirmationCallback"]>,
  input: ToolInput,
  signal: AbortSignal,
): Promise<boolean | { error: unknown }> {
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(() => callback(input, signal))
      .then(
        (answer) => resolve(answer === true),
        (error: unknown) => resolve({ error }),
      )
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function* emptyStream(): AsyncGenerator<ToolExecutionEvent> {}
