import {
  NIL_UUID,
  ServiceContainer,
  type ServiceProvider,
  ToolExecutionContext,
  type ToolProgress,
} from "../context/index.js";
import {
  Cancellation,
  closestNames,
  isJsonObject,
  type JsonObject,
  RiskLevel,
  ToolErrorCode,
  TypedEventEmitter,
  timeOrderedUuid,
} from "../core/index.js";
import type { ToolRegistry } from "../registry/index.js";
import { ToolResult } from "../result/index.js";
import {
  type IsolationPolicy,
  RoutingSandbox,
  type SandboxRunOptions,
  type ToolSandbox,
} from "../sandbox/index.js";
import { ExecutionTelemetry, type Logger, silentLogger } from "../telemetry/index.js";
import type { Tool } from "../tools/index.js";
import { ToolValidationError, ToolValidationResult } from "../validation/index.js";
import { type Authorizer, grantPermissions } from "./authorizer.js";
import { ConcurrencyLimitError, ConcurrencyLimiter } from "./concurrency-limiter.js";
import { type BatchRunner, executeBatch } from "./execute-batch.js";
import { ExecutionTracker, STANDARD_MESSAGES } from "./execution-tracker.js";
import { FinishedExecutions } from "./finished-executions.js";
import type { AuditLog, AuditRecord } from "./index.js";
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
  /** The error as logs and the audit row may show it when parameters are redacted. */
  readonly redactedError?: string;
}

/** One execution in flight: the state every step of the pipeline shares. */
class Execution {
  readonly plan: ExecutionPlan;
  /** Stops the execution (timeout, cancel, the caller's signal); its signal is made on demand. */
  readonly cancellation = new Cancellation();
  readonly tracker: ExecutionTracker;
  readonly startedAt = new Date();
  readonly t0 = performance.now();
  /** The effective timeout, once the run holds a slot. */
  timeoutMs = 0;
  /** The sandbox that ran the tool (`in-process`, `process`), once one was chosen. */
  sandboxId: string | null = null;
  /** Who the execution ran for, once the audit asked (begin and complete share it). */
  identity: AuditIdentity | undefined;

  constructor(plan: ExecutionPlan) {
    this.plan = plan;
    this.tracker = new ExecutionTracker(plan.executionId);
  }

  /** Milliseconds since the execution started. */
  elapsed(): number {
    return performance.now() - this.t0;
  }
}

/** The timeout timer's callback: a plain function, so no closure is made per execution. */
function abortOnTimeout(execution: Execution): void {
  execution.cancellation.abort(timedOutReason(execution.timeoutMs));
}

/**
 * The reasons the executor aborts a tool's signal with: DOMExceptions named like the platform's
 * own (`AbortSignal.timeout()` gives a "TimeoutError"), so a tool that rethrows `signal.reason`
 * throws a real error, and the executor tells a timeout from a cancellation by its name.
 */
function cancelledReason(): DOMException {
  return new DOMException("The execution was cancelled", "AbortError");
}

function timedOutReason(timeoutMs: number): DOMException {
  return new DOMException(`The execution timed out after ${timeoutMs} ms`, "TimeoutError");
}

function isTimedOutReason(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === "TimeoutError";
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
  readonly #running = new Map<string, Execution>();
  /** The last `retainFinishedExecutions` finished executions, for `observe`. */
  readonly #finished: FinishedExecutions;
  /** False for the silent default logger: hot-path log lines are not even built. */
  readonly #logging: boolean;

  constructor(config: ToolExecutorConfig) {
    if (config?.registry === undefined) {
      throw new ToolExecutionError(
        "INVALID_CONFIG",
        "ToolExecutor needs a registry: new ToolExecutor({ registry })",
      );
    }
    this.registry = config.registry;
    this.options = resolveExecutorOptions(config.options);
    this.#finished = new FinishedExecutions(this.options.retainFinishedExecutions);
    this.events = config.events ?? new TypedEventEmitter<ToolExecutorEvents>();
    this.#authorizer = config.authorizer ?? grantPermissions();
    this.#audit = config.audit;
    this.#license = config.license ?? staticLicense(LicenseTier.Core);
    if (config.sandbox !== undefined && config.isolation !== undefined) {
      throw new ToolExecutionError(
        "INVALID_CONFIG",
        "Give ToolExecutor either a sandbox or an isolation policy (which configures the default RoutingSandbox), not both",
      );
    }
    this.#sandbox = config.sandbox ?? new RoutingSandbox({ policy: config.isolation ?? {} });
    this.#logger = config.logger ?? silentLogger;
    this.#logging = this.#logger !== silentLogger;
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
    return executeBatch(this.#batchRunner(), inputs, options, signal);
  }

  /**
   * The events of one execution as an async stream: first the events so far, then each new one,
   * ending after its final event. An id that already finished replays its events (for the last
   * `retainFinishedExecutions` executions); an unknown id ends at once. `signal` stops observing.
   */
  observe(executionId: string, signal?: AbortSignal): AsyncIterable<ToolExecutionEvent> {
    const tracker = this.#running.get(executionId)?.tracker ?? this.#finished.find(executionId);
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
    if (running === undefined || running.cancellation.aborted) return false;
    this.#logger.info(
      { executionId },
      `[TLS-EXE] Cancellation requested. ExecutionId: ${executionId}`,
    );
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
    return this.#run({
      executionId: options.executionId ?? timeOrderedUuid(),
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
    const execution = new Execution(plan);
    const { tracker, startedAt } = execution;
    this.#running.set(executionId, execution);
    const detachCaller = linkSignal(plan.callerSignal, execution.cancellation);
    const detachContext = linkContext(plan.context, execution.cancellation);
    const span = this.#telemetry.startExecutionSpan(toolName, executionId);

    let outcome: Outcome;
    try {
      if (this.#logging) {
        this.#logger.info(
          { executionId, toolName, parameters: this.#loggedParameters(plan) },
          `[TLS-EXE] Tool execution started. ExecutionId: ${executionId}, Tool: ${toolName}`,
        );
      }
      this.#emit(
        tracker,
        toolName,
        ToolExecutionEventType.Started,
        STANDARD_MESSAGES.started,
        0,
        undefined,
        undefined,
        startedAt.getTime(),
      );
      if (this.events.hasListeners("toolExecutionStarted")) {
        this.events.emit("toolExecutionStarted", {
          executionId,
          toolName,
          parameters: this.#loggedParameters(plan),
          timestamp: startedAt,
        });
      }
      outcome = await this.#pipeline(execution);
    } catch (error) {
      // Only a bug in aintern or a misbehaving plug-in (authorizer, audit, sandbox) gets here.
      this.#logger.error(
        { executionId, toolName, err: error },
        "[TLS-EXE] Execution pipeline failed",
      );
      outcome = { status: ToolExecutionStatus.Failed, result: ToolResult.fromException(error) };
    } finally {
      if (detachCaller !== undefined) detachCaller();
      if (detachContext !== undefined) detachContext();
    }

    const durationMs = execution.elapsed();
    const result = new ToolExecutionResult({
      toolId: outcome.tool?.id ?? toolName,
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

    if (this.#audit !== undefined) {
      // Awaited here rather than through #writeAudit: one promise less per execution.
      const record = this.#auditRecord(result, plan, outcome, execution);
      try {
        await this.#audit.complete(record);
      } catch (error) {
        this.#auditFailed(record, error, execution);
      }
    }
    this.#finish(result, execution, outcome);
    this.#telemetry.recordExecution(result.toolId, result.status, durationMs);
    this.#telemetry.endExecutionSpan(
      span,
      result.success ? undefined : (result.errorCode ?? result.status),
    );
    return result;
  }

  async #pipeline(execution: Execution): Promise<Outcome> {
    const { plan, tracker, cancellation } = execution;
    const { executionId, toolName } = plan;

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
        startedAt: execution.startedAt,
      });
    }
    if (cancellation.aborted) return this.#stopped(tool, cancellation, false, undefined, false);

    // 2. Authorization
    const parameters = isJsonObject(plan.parameters) ? plan.parameters : undefined;
    const required = tool.requiredPermissions;
    if (required.length > 0) {
      const auth = await this.#authorizer.authorize(
        required,
        {
          toolId: tool.id,
          executionId,
          parameters: parameters ?? {},
          context: plan.options.context ?? plan.context?.metadata,
        },
        cancellation.signal,
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
      // Validation messages quote the values they reject: logged only when parameters may be.
      const logged =
        this.options.logParameters || validation.isValid ? message : redactedErrors(validation);
      this.#logger.warn(
        { executionId, toolName, errors: logged },
        `[TLS-EXE] Parameter validation failed. ExecutionId: ${executionId}, Tool: ${toolName}, Errors: ${logged}`,
      );
      return {
        tool,
        status: ToolExecutionStatus.ValidationError,
        result: ToolResult.validationFailed(validation.isValid ? message : validation),
        redactedError: logged,
      };
    }

    // 4. Confirmation
    const needsConfirmation =
      (plan.options.requireConfirmation === true || tool.requiresConfirmation) &&
      plan.context?.isApproved !== true;
    if (needsConfirmation) {
      const denied = await this.#confirm(execution, tool);
      if (denied !== undefined) return denied;
    }

    // 5. Wait for a slot, then start the clock
    const acquired = this.#limiter.acquire(cancellation);
    if (acquired !== undefined) {
      try {
        await acquired;
      } catch (error) {
        if (error instanceof ConcurrencyLimitError) {
          return {
            tool,
            status: ToolExecutionStatus.Failed,
            result: ToolResult.failed(error.message, ToolErrorCode.ConcurrencyLimit),
            wasApproved: true,
          };
        }
        return this.#stopped(tool, cancellation, false, undefined, true);
      }
    }
    try {
      const timeoutMs = effectiveTimeoutMs(
        plan.options.timeoutMs,
        tool.constraints?.maxExecutionTimeMs,
        this.options.defaultTimeoutMs,
      );
      execution.timeoutMs = timeoutMs;
      const timer = setTimeout(abortOnTimeout, timeoutMs, execution);
      try {
        this.#emit(
          tracker,
          toolName,
          ToolExecutionEventType.InProgress,
          STANDARD_MESSAGES.inProgress,
          execution.elapsed(),
        );
        const context = this.#contextFor(execution, tool, parameters);
        execution.sandboxId = this.#sandbox.sandboxFor?.(tool, parameters) ?? this.#sandbox.name;
        if (this.#audit !== undefined) {
          const identity = auditIdentity(plan);
          execution.identity = identity;
          await this.#audit.begin({
            executionId,
            toolName: tool.id,
            startedAt: execution.startedAt,
            batchId: plan.batchId ?? null,
            sandboxId: execution.sandboxId,
            agentId: identity.agentId,
            userId: identity.userId,
            conversationId: identity.conversationId,
          });
        }
        if (cancellation.aborted) {
          return this.#stopped(tool, cancellation, false, timeoutMs, true);
        }

        // 6. Run
        const run = await this.#sandbox.run(tool, context, new RunOptions(cancellation, timeoutMs));
        if (run.kind === "aborted" || cancellation.aborted) {
          return this.#stopped(
            tool,
            cancellation,
            run.kind === "aborted" && run.mayStillBeRunning,
            timeoutMs,
            true,
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
            wasApproved: true,
          };
        }
        return {
          tool,
          status: statusOf(run.result),
          result: run.result,
          wasApproved: true,
          timeoutMs,
        };
      } finally {
        clearTimeout(timer);
      }
    } finally {
      this.#limiter.release();
    }
  }

  /** Step 4: asks for confirmation; returns the outcome that ends the execution, if it ends. */
  async #confirm(execution: Execution, tool: Tool): Promise<Outcome | undefined> {
    const { plan, tracker, cancellation } = execution;
    this.#emit(
      tracker,
      plan.toolName,
      ToolExecutionEventType.ConfirmationRequested,
      "Confirmation required",
      execution.elapsed(),
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
    const confirmed = await confirm(callback, plan.input, cancellation.signal);
    if (cancellation.aborted) return this.#stopped(tool, cancellation, false, undefined, false);
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
      plan.toolName,
      ToolExecutionEventType.ConfirmationReceived,
      "Confirmation received",
      execution.elapsed(),
    );
    return undefined;
  }

  /** The outcome of an execution stopped by its cancellation: a timeout or a cancellation. */
  #stopped(
    tool: Tool,
    stopped: Cancellation,
    mayStillBeRunning: boolean,
    timeoutMs: number | undefined,
    wasApproved: boolean,
  ): Outcome {
    if (isTimedOutReason(stopped.reason) && timeoutMs !== undefined) {
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
      wasApproved,
      mayStillBeRunning,
      timeoutMs,
    };
  }

  #contextFor(execution: Execution, tool: Tool, parameters: JsonObject): ToolExecutionContext {
    const { plan, cancellation } = execution;
    // Progress reports become events only on tiers with Full progress; the caller's own
    // callback on an AIntern context receives them whatever the tier.
    const own = plan.context?.progress;
    const events = hasFullProgressEvents(this.#license.currentTier);
    let progress: ((p: ToolProgress) => void) | undefined;
    if (events && own !== undefined) {
      progress = (p) => {
        try {
          own(p);
        } finally {
          this.#progress(execution, tool, p);
        }
      };
    } else if (events) {
      progress = (p) => this.#progress(execution, tool, p);
    } else {
      progress = own;
    }
    if (plan.context !== undefined) {
      return plan.context.with({ cancellation, progress, toolId: tool.id });
    }
    const extra = plan.options.context;
    const metadata = plan.input.metadata;
    return new ToolExecutionContext({
      services: this.#services,
      executionId: plan.executionId,
      toolId: tool.id,
      workspacePath: this.#workspacePath,
      parameters,
      cancellation,
      progress,
      isApproved: true,
      startedAt: execution.startedAt,
      metadata:
        extra === undefined ? metadata : metadata === undefined ? extra : { ...extra, ...metadata },
    });
  }

  #progress(execution: Execution, tool: Tool, progress: ToolProgress): void {
    const { tracker, plan } = execution;
    if (tracker.finished) return;
    const percent = progress.percentComplete;
    this.#emit(
      tracker,
      plan.toolName,
      ToolExecutionEventType.InProgress,
      progress.message,
      execution.elapsed(),
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
    timeMs: number = Date.now(),
  ): void {
    if (tracker.finished) return;
    tracker.record(eventType, toolName, message, elapsedMs, timeMs, progressPercent, data);
    if (this.events.hasListeners("executionEvent")) {
      this.events.emit("executionEvent", tracker.eventAt(tracker.size - 1));
    }
  }

  /** What the logs and the toolExecutionStarted notification show of the parameters. */
  #loggedParameters(plan: ExecutionPlan): Readonly<Record<string, unknown>> | "[redacted]" {
    return this.options.logParameters ? (plan.input.parameters ?? {}) : "[redacted]";
  }

  #auditRecord(
    result: ToolExecutionResult,
    plan: ExecutionPlan,
    outcome: Outcome,
    execution: Execution,
  ): AuditRecord {
    const toolResult = result.result;
    const identity = execution.identity ?? auditIdentity(plan);
    const sandboxId = execution.sandboxId;
    return {
      executionId: result.executionId,
      toolName: result.toolId,
      status: result.status,
      parameters:
        this.options.logParameters && isJsonObject(plan.parameters) ? plan.parameters : null,
      resultSummary: toolResult.success ? toolResult.toLogSummary() : null,
      errorMessage: outcome.redactedError ?? toolResult.error ?? null,
      errorCode: toolResult.errorCode ?? null,
      startedAt: result.startedAt,
      completedAt: result.completedAt,
      durationMs: result.durationMs,
      sandboxId,
      batchId: result.batchId ?? null,
      agentId: identity.agentId,
      userId: identity.userId,
      conversationId: identity.conversationId,
      wasApproved: result.wasApproved,
      timedOut: result.timedOut,
      wasCancelled: result.wasCancelled,
    };
  }

  /** Writes a batch item's audit row; a failing audit log is logged, never thrown. */
  async #writeAudit(record: AuditRecord): Promise<void> {
    if (this.#audit === undefined) return;
    try {
      await this.#audit.complete(record);
    } catch (error) {
      this.#auditFailed(record, error, undefined);
    }
  }

  /** Reports a failed audit write: a log line, and a Warning event on the execution's log. */
  #auditFailed(record: AuditRecord, error: unknown, execution: Execution | undefined): void {
    this.#logger.error(
      { executionId: record.executionId, err: error },
      `[TLS-EXE] Audit write failed. ExecutionId: ${record.executionId}`,
    );
    if (execution !== undefined) {
      this.#emit(
        execution.tracker,
        execution.plan.toolName,
        ToolExecutionEventType.Warning,
        `Audit write failed: ${errorText(error)}`,
        execution.elapsed(),
      );
    }
  }

  #finish(result: ToolExecutionResult, execution: Execution, outcome: Outcome): void {
    const { executionId, toolId, status } = result;
    const { tracker } = execution;
    const toolName = result.input.toolName;
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
      result.success ? STANDARD_MESSAGES.completed : result.errorMessage,
      execution.elapsed(),
      undefined,
      result.success ? undefined : { status, errorCode: result.errorCode },
      result.completedAt.getTime(),
    );
    this.#running.delete(executionId);
    this.#finished.add(tracker);

    const timestamp = result.completedAt;
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
    if (result.success) {
      if (this.events.hasListeners("toolExecutionCompleted")) {
        this.events.emit("toolExecutionCompleted", {
          executionId,
          toolName,
          durationMs: result.durationMs,
          timestamp,
        });
      }
    } else if (this.events.hasListeners("toolExecutionFailed")) {
      this.events.emit("toolExecutionFailed", {
        executionId,
        toolName,
        status,
        errorMessage: result.errorMessage,
        errorCode: result.errorCode,
        durationMs: result.durationMs,
        timestamp,
      });
    }
    if (this.events.hasListeners("executionCompleted")) {
      this.events.emit("executionCompleted", {
        toolId,
        executionId,
        result,
        completedAt: timestamp,
      });
    }
    if (this.#logging) {
      this.#logger.info(
        {
          executionId,
          toolName,
          status,
          durationMs: result.durationMs,
          ...(this.options.logResults
            ? {
                result:
                  outcome.redactedError === undefined
                    ? result.result.toLogSummary()
                    : `Failed (${result.errorCode ?? ""}): ${outcome.redactedError}`,
              }
            : {}),
        },
        `[TLS-EXE] Tool execution finished. ExecutionId: ${executionId}, Tool: ${toolName}, Status: ${status}, Duration: ${Math.round(result.durationMs)}ms`,
      );
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

/** The audit columns that say who an execution ran for. */
interface AuditIdentity {
  readonly agentId: string | null;
  readonly userId: string | null;
  readonly conversationId: string | null;
}

/**
 * Who an execution ran for, as the audit columns hold it: string `agentId`, `userId` and
 * `conversationId` entries of the call's context (Lexichord) or the context's metadata
 * (AIntern), and the AIntern context's session id as the conversation.
 */
function auditIdentity(plan: ExecutionPlan): AuditIdentity {
  const bag = plan.options.context ?? plan.context?.metadata;
  const session = plan.context?.sessionId;
  return {
    agentId: stringEntry(bag, "agentId"),
    userId: stringEntry(bag, "userId"),
    conversationId:
      stringEntry(bag, "conversationId") ??
      (session === undefined || session === NIL_UUID ? null : session),
  };
}

function stringEntry(
  bag: Readonly<Record<string, unknown>> | undefined,
  key: string,
): string | null {
  if (bag === undefined || !Object.hasOwn(bag, key)) return null;
  const value = bag[key];
  return typeof value === "string" ? value : null;
}

function statusOf(result: ToolResult): ToolExecutionStatus {
  if (result.success) return ToolExecutionStatus.Completed;
  if (result.isCancelled) return ToolExecutionStatus.Cancelled;
  if (result.isTimeout) return ToolExecutionStatus.Timeout;
  if (result.isDenied) return ToolExecutionStatus.Denied;
  if (result.isValidationFailure) return ToolExecutionStatus.ValidationError;
  return ToolExecutionStatus.Failed;
}

/** Cancels `cancellation` when `signal` aborts; returns a detach function. */
function linkSignal(
  signal: AbortSignal | undefined,
  cancellation: Cancellation,
): (() => void) | undefined {
  if (signal === undefined) return undefined;
  if (signal.aborted) {
    cancellation.abort(cancelledReason());
    return undefined;
  }
  const onAbort = (): void => {
    cancellation.abort(cancelledReason());
  };
  signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/** Cancels `cancellation` when the caller's context is cancelled; returns a detach function. */
function linkContext(
  context: ToolExecutionContext | undefined,
  cancellation: Cancellation,
): (() => void) | undefined {
  if (context === undefined) return undefined;
  if (context.isCancellationRequested) {
    cancellation.abort(cancelledReason());
    return undefined;
  }
  return context.onCancellationRequested(() => {
    cancellation.abort(cancelledReason());
  });
}

/**
 * What a sandbox run gets: the signal is made from the cancellation only if the sandbox (or the
 * tool, through it) reads it.
 */
class RunOptions implements SandboxRunOptions {
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

/** Validation errors without the values they quote: `path (pattern_mismatch); n (type_mismatch)`. */
function redactedErrors(validation: ToolValidationResult): string {
  return validation.errors
    .map((e) => `${e.parameterName === "" ? "(parameters)" : e.parameterName} (${e.errorCode})`)
    .join("; ");
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function* emptyStream(): AsyncGenerator<ToolExecutionEvent> {}
