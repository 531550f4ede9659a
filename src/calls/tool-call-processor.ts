import {
  ApprovalPolicy,
  InvalidRememberPatternError,
  type PolicyCall,
  type PolicyDecision,
  RememberedPermissions,
} from "../approval/index.js";
import { ServiceContainer, type ServiceProvider, ToolExecutionContext } from "../context/index.js";
import {
  isJsonObject,
  isRiskLevel,
  type JsonObject,
  maxRiskLevel,
  RiskLevel,
  riskLevelName,
  ToolErrorCode,
  TypedEventEmitter,
} from "../core/index.js";
import {
  canExecuteParallel,
  maxParallelismForTier,
  type ToolExecutionResult,
  ToolExecutionStatus,
  type ToolExecutor,
} from "../execution/index.js";
import type { Tool } from "../tools/index.js";
import { ToolValidationResult, ToolValidator } from "../validation/index.js";
import { ApprovalDecision } from "./approval-decision.js";
import type { ApprovalHandler, ApprovalPromptDetails } from "./approval-handler.js";
import { toolDirectory, toolNotFoundMessage } from "./build-tool-call-request.js";
import { hashToolCallArguments } from "./hash-tool-call-arguments.js";
import type { ToolCallBatch } from "./tool-call-batch.js";
import { ToolCallLifecycle, type ToolCallTransition } from "./tool-call-lifecycle.js";
import type { ToolCallLifecycleRecord } from "./tool-call-lifecycle-record.js";
import type { ToolCallRequest } from "./tool-call-request.js";
import { isTerminalToolCallStatus, ToolCallStatus } from "./tool-call-status.js";
import { interruptRecord, type StoredToolCall, type ToolCallStore } from "./tool-call-store.js";

/** Construction options of a {@link ToolCallProcessor}. */
export interface ToolCallProcessorConfig {
  /** Runs approved calls; its registry is where tools are looked up. */
  readonly executor: ToolExecutor;
  /** Asks a person about calls that need approval; without one, those calls are denied. */
  readonly approvalHandler?: ApprovalHandler;
  /** Default: `new ApprovalPolicy()` (Safe and Low run, Medium and up ask). */
  readonly policy?: ApprovalPolicy;
  /** Remembered approvals; default: in memory. Pass one backed by `store.permissions` to persist. */
  readonly permissions?: RememberedPermissions;
  /** Where lifecycles are kept across restarts (`store.calls`); default: not kept. */
  readonly store?: ToolCallStore;
  /** The conversation: session-scoped remembered approvals and stored calls belong to it. */
  readonly sessionId?: string;
  /** The workspace tools run in and path patterns are matched in. */
  readonly workspacePath?: string;
  /** Services handed to tools. */
  readonly services?: ServiceProvider;
  /** How long to wait for a person before the call is denied as timed out. Default 5 minutes. */
  readonly approvalTimeoutMs?: number;
  /** How many times one call may be asked (an edit that raises risk asks again). Default 3. */
  readonly maxApprovalRounds?: number;
  /** Size and depth limits of arguments; default `new ToolValidator()`. */
  readonly validator?: ToolValidator;
  /** Who approvals are recorded as coming from. */
  readonly approver?: string;
}

/** The processor's events: one per lifecycle transition. */
export interface ToolCallProcessorEvents {
  transition: ToolCallTransition;
}

/** The outcome of asking: a decision to apply, or a cancellation. */
type Asked =
  | { kind: "decided"; decision: ApprovalDecision; parameters: JsonObject; risk: number }
  | { kind: "cancelled" };

/**
 * Runs a model's batch of tool calls end to end (approvals issue): validation, the approval
 * policy, remembered permissions, a person's approvals, execution through the
 * {@link ToolExecutor}, and results on each call's {@link ToolCallLifecycle}. Feed the batch to
 * `toProviderMessages` afterwards to answer the model.
 *
 * Every transition is emitted on `events` and, with a `store`, saved before the next step runs:
 * a call is stored as Executing before its tool starts, so a crash leaves it to be marked
 * interrupted; a call whose stored lifecycle is terminal is never executed again (the provider's
 * call id is the idempotency key).
 *
 * @example
 * ```ts
 * const processor = new ToolCallProcessor({ executor, approvalHandler, workspacePath });
 * const batch = parseToolCalls(response, { toolIds: registry.tools.map((t) => t.id) });
 * await processor.process(batch);
 * messages.push(...toProviderMessages(batch, "openai-chat"));
 * ```
 */
export class ToolCallProcessor {
  readonly events = new TypedEventEmitter<ToolCallProcessorEvents>();
  readonly executor: ToolExecutor;
  readonly policy: ApprovalPolicy;
  readonly permissions: RememberedPermissions;
  readonly sessionId: string;
  readonly #config: ToolCallProcessorConfig;
  readonly #validator: ToolValidator;
  readonly #services: ServiceProvider;

  constructor(config: ToolCallProcessorConfig) {
    this.#config = config;
    this.executor = config.executor;
    this.policy = config.policy ?? new ApprovalPolicy();
    this.permissions = config.permissions ?? new RememberedPermissions();
    this.sessionId = config.sessionId ?? crypto.randomUUID();
    this.#validator = config.validator ?? new ToolValidator();
    this.#services = config.services ?? new ServiceContainer();
  }

  /**
   * Processes every call of `batch` and resolves with the same batch, each call's lifecycle in a
   * terminal state (and the batch marked complete). Calls run in parallel when the batch is parallel and the license tier allows
   * it; each call has its own decision, and denying one never drops or blocks the others.
   * Aborting `signal` cancels what has not finished.
   */
  async process(batch: ToolCallBatch, signal?: AbortSignal): Promise<ToolCallBatch> {
    const calls = [...batch.calls];
    const tier = this.executor.license.currentTier;
    const parallel = batch.isParallel && canExecuteParallel(tier);
    const width = parallel ? Math.min(calls.length, maxParallelismForTier(tier)) : 1;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < calls.length) {
        const request = calls[next++]!;
        await this.#processCall(batch, request, signal);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
    batch.complete();
    return batch;
  }

  /** Calls stored as awaiting approval (for example, from before a restart). */
  async pendingApprovals(): Promise<ToolCallLifecycle[]> {
    const store = this.#config.store;
    if (store === undefined) return [];
    const stored = await store.list({ status: ToolCallStatus.AwaitingApproval });
    return stored.map((s) => ToolCallLifecycle.fromRecord(s.record));
  }

  async #processCall(
    batch: ToolCallBatch,
    original: ToolCallRequest,
    signal?: AbortSignal,
  ): Promise<void> {
    const callId = idempotencyKey(original);
    const claims = claimsOf(this.#config.store);
    if (claims?.has(callId) === true) {
      // The same call is being processed in this process right now (a resubmitted batch):
      // running it twice, or marking it interrupted, would both be wrong.
      this.#refuse(batch, original, alreadyRunningMessage);
      return;
    }
    claims?.add(callId);
    try {
      await this.#processClaimed(batch, original, callId, signal);
    } finally {
      claims?.delete(callId);
    }
  }

  async #processClaimed(
    batch: ToolCallBatch,
    original: ToolCallRequest,
    callId: string,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    try {
      if (await this.#answerFromStore(batch, original, callId)) return;
    } catch (error) {
      // Whether the call already ran cannot be told: it must not run (again).
      this.#refuse(batch, original, `Could not read the call's stored state: ${errorText(error)}`);
      return;
    }

    const tool = this.executor.registry.getTool(original.toolId);
    const request = this.#assess(original, tool);
    const lifecycle = this.#track(ToolCallLifecycle.forRequest(request));
    batch.setLifecycle(lifecycle);
    const save = (): Promise<void> => this.#save(callId, lifecycle);

    try {
      if (isAborted(signal)) return lifecycle.cancel("The batch was cancelled");
      lifecycle.startValidation();
      const problem = this.#validationProblem(request, tool);
      if (problem !== undefined || tool === undefined) {
        lifecycle.failValidation(problem ?? "Unknown tool");
        return;
      }

      const call = this.#policyCall(request, tool, request.parameters);
      const verdict = await this.#verdict(call);
      if (verdict.kind === "allow") {
        lifecycle.approve(verdict.grant);
      } else {
        lifecycle.requestApproval();
        await save();
        if (verdict.kind === "deny") {
          lifecycle.deny(ApprovalDecision.deny(verdict.reason).bindTo(request));
          return;
        }
        const asked = await this.#ask(request, tool, verdict, signal);
        if (asked.kind === "cancelled") return lifecycle.cancel("Approval was cancelled");
        if (!asked.decision.approved) {
          lifecycle.deny(asked.decision);
          return;
        }
        lifecycle.approve(asked.decision);
      }

      if (isAborted(signal)) return lifecycle.cancel("The batch was cancelled");
      lifecycle.startExecution();
      await save();
      const execution = await this.executor.execute(
        tool.id,
        this.#context(request, lifecycle.effectiveParameters, lifecycle),
        signal,
      );
      this.#finishExecution(lifecycle, execution);
    } catch (error) {
      // A store or plug-in failure: end the call as failed rather than leave it hanging.
      if (!lifecycle.isTerminal) {
        if (lifecycle.status === ToolCallStatus.Validating) {
          lifecycle.failValidation(`Could not process the call: ${errorText(error)}`);
        } else if (lifecycle.status === ToolCallStatus.Executing) {
          lifecycle.fail(`Could not process the call: ${errorText(error)}`, error);
        } else {
          lifecycle.cancel(`Could not process the call: ${errorText(error)}`);
        }
      }
    } finally {
      await save().catch(() => undefined);
    }
  }

  /**
   * Answers the call from its stored record when the store holds the same call (same tool and
   * arguments) in a terminal state, or left Executing by a process that stopped (it fails as
   * interrupted). Resolves whether it did; throws when the store cannot be read.
   */
  async #answerFromStore(
    batch: ToolCallBatch,
    request: ToolCallRequest,
    callId: string,
  ): Promise<boolean> {
    const store = this.#config.store;
    if (store === undefined) return false;
    const stored = await store.get(callId);
    if (stored === undefined || !isSameCall(stored, request)) return false;
    let record = stored.record;
    if (record.status === ToolCallStatus.Executing) {
      if ((await store.isExecutingElsewhere?.(callId)) === true) {
        this.#refuse(batch, request, alreadyRunningMessage);
        return true;
      }
      // It was executing when its process stopped and may have taken effect: never run it again;
      // it fails as interrupted (what `markInterrupted` does on open).
      record = interruptRecord(record, new Date());
      await store.save({ callId, sessionId: stored.sessionId, record }).catch(() => undefined);
    }
    if (!isTerminalToolCallStatus(record.status)) return false;
    // Idempotent: a call that already ended is answered from its record, never run again. The
    // record is put under this batch's request id (a re-parsed response has new request ids).
    // Not tracked: its transitions happened before, and were reported then.
    batch.setLifecycle(ToolCallLifecycle.fromRecord(withRequestId(record, request.id)));
    return true;
  }

  /**
   * The request with its effective risk and summary from the tool. A tool whose assessment
   * throws, or answers with something that is not a risk level, gets at least Medium (which
   * asks): an assessment that failed must not make a call run unasked.
   */
  #assess(request: ToolCallRequest, tool: Tool | undefined): ToolCallRequest {
    if (tool === undefined || !isJsonObject(request.parameters)) return request;
    let riskLevel: unknown;
    try {
      riskLevel = tool.getEffectiveRiskLevel(request.parameters);
    } catch {
      riskLevel = undefined;
    }
    let executionSummary: string | undefined;
    try {
      executionSummary = tool.getExecutionSummary(request.parameters);
    } catch {
      executionSummary = undefined;
    }
    if (!isRiskLevel(riskLevel)) {
      return request.withRiskAssessment({
        riskLevel: maxRiskLevel(safeDefaultRisk(tool), RiskLevel.Medium),
        ...(executionSummary === undefined ? {} : { executionSummary }),
        warnings: [
          ...(request.warnings ?? []),
          "The tool could not assess the risk of this call; it is treated as at least Medium.",
        ],
      });
    }
    return request.withRiskAssessment({
      riskLevel,
      ...(executionSummary === undefined ? {} : { executionSummary }),
    });
  }

  /** Why the call cannot run as sent, for the model; undefined when it is valid. */
  #validationProblem(request: ToolCallRequest, tool: Tool | undefined): string | undefined {
    if (request.validationResult !== undefined && !request.validationResult.isValid) {
      return request.validationResult.getErrorMessage();
    }
    if (tool === undefined) {
      const ids = this.executor.registry.tools.map((t) => t.id);
      return toolNotFoundMessage(request.toolId, toolDirectory(ids));
    }
    return this.#validate(tool, request.parameters);
  }

  #validate(tool: Tool, parameters: unknown): string | undefined {
    const limits = this.#validator.validateAgainstSchema(parameters, tool.inputSchema);
    if (!limits.isValid) return limits.getErrorMessage();
    const own = safeValidate(tool, parameters);
    return own.isValid ? undefined : own.getErrorMessage();
  }

  #policyCall(request: ToolCallRequest, tool: Tool, parameters: JsonObject): PolicyCall {
    return {
      toolId: tool.id,
      category: tool.category,
      riskLevel: request.riskLevel,
      parameters,
      ...(this.#config.workspacePath === undefined
        ? {}
        : { workspacePath: this.#config.workspacePath }),
    };
  }

  /** The policy's decision, with remembered permissions applied where the policy would ask. */
  async #verdict(
    call: PolicyCall,
  ): Promise<
    | { kind: "allow"; grant?: ApprovalDecision }
    | { kind: "deny"; reason: string }
    | (PolicyDecision & { kind: "ask" })
  > {
    const decision = this.policy.decide(call);
    if (
      decision.kind !== "ask" ||
      decision.protectedPath === true ||
      decision.possiblyDenied === true ||
      decision.warning !== undefined
    ) {
      return decision.kind === "allow" ? { kind: "allow" } : decision;
    }
    const grant = await this.permissions.find(call, this.sessionId);
    if (grant === undefined) return decision;
    return {
      kind: "allow",
      grant: new ApprovalDecision({ approved: true, reason: `Remembered permission ${grant.id}` }),
    };
  }

  /**
   * Asks the handler until it gives a usable answer: an approval whose (possibly edited)
   * parameters are valid and no riskier than what was shown, or a denial. Gives up after
   * `maxApprovalRounds` with a denial.
   */
  async #ask(
    request: ToolCallRequest,
    tool: Tool,
    verdict: PolicyDecision & { kind: "ask" },
    signal: AbortSignal | undefined,
  ): Promise<Asked> {
    const handler = this.#config.approvalHandler;
    if (handler === undefined) {
      return this.#decided(
        ApprovalDecision.deny(
          "No approval handler is configured, so calls that need approval are denied",
        ).bindTo(request),
        request,
      );
    }
    const maxRounds = this.#config.maxApprovalRounds ?? 3;
    let shown = request;
    let previousProblem: string | undefined;
    let warning = verdict.warning;
    for (let round = 1; round <= maxRounds; round++) {
      const details: ApprovalPromptDetails = {
        reason: round === 1 ? verdict.reason : `Asked again: ${previousProblem}`,
        riskLevel: shown.riskLevel,
        round,
        ...(warning === undefined ? {} : { warning }),
        ...(previousProblem === undefined ? {} : { previousProblem }),
      };
      const answer = await this.#requestDecision(handler, shown, details, signal);
      if (answer === "cancelled") return { kind: "cancelled" };
      const mismatch = answer.mismatch(shown);
      if (mismatch !== undefined) {
        return this.#decided(
          ApprovalDecision.deny(`Approval refused: ${mismatch}`).bindTo(request),
          request,
        );
      }
      // It answered what was shown (maybe an edit), checked above; from here it is bound to the
      // original request, which the lifecycle holds.
      if (!answer.approved) return this.#decided(answer.bindTo(request), request);

      const edited = answer.modifiedParameters;
      if (edited === undefined && shown === request) {
        const refused = await this.#remember(answer, request, tool, request.parameters);
        if (refused !== undefined) return this.#decided(refused.bindTo(request), request);
        return this.#decided(answer.bindTo(request), request);
      }
      const parameters = edited ?? shown.parameters;
      const problem = this.#validate(tool, parameters);
      const reassessed = this.#assess(request.withParameters(parameters), tool);
      if (problem !== undefined) {
        previousProblem = `the edited parameters are invalid: ${problem}`;
        shown = reassessed;
        continue;
      }
      // Deny wins, also over a person's edit.
      const policy = this.policy.decide(this.#policyCall(reassessed, tool, parameters));
      if (policy.kind === "deny") {
        return this.#decided(
          ApprovalDecision.deny(`The edited call is denied: ${policy.reason}`).bindTo(request),
          request,
        );
      }
      if (reassessed.riskLevel > shown.riskLevel) {
        previousProblem = `the edit raised the risk to ${riskLevelName(reassessed.riskLevel)}`;
        warning = policy.kind === "ask" ? (policy.warning ?? warning) : warning;
        shown = reassessed;
        continue;
      }
      const refused = await this.#remember(answer, reassessed, tool, parameters);
      if (refused !== undefined) return this.#decided(refused.bindTo(request), request);
      return {
        kind: "decided",
        decision: new ApprovalDecision({
          approved: true,
          modifiedParameters: parameters,
          ...(answer.reason === undefined ? {} : { reason: answer.reason }),
          rememberForSession: answer.rememberForSession,
          rememberForTool: answer.rememberForTool,
          ...(answer.rememberPattern === undefined
            ? {}
            : { rememberPattern: answer.rememberPattern }),
          decidedAt: answer.decidedAt,
          decisionDurationMs: answer.decisionDurationMs,
          requestId: request.id,
          argumentsHash: hashToolCallArguments(request.parameters),
        }),
        parameters,
        risk: reassessed.riskLevel,
      };
    }
    return this.#decided(
      ApprovalDecision.deny(`Denied after ${maxRounds} approval rounds: ${previousProblem}`).bindTo(
        request,
      ),
      request,
    );
  }

  #decided(decision: ApprovalDecision, request: ToolCallRequest): Asked {
    return { kind: "decided", decision, parameters: request.parameters, risk: request.riskLevel };
  }

  /** One prompt, bounded by the approval timeout and the signal; a throwing handler denies. */
  async #requestDecision(
    handler: ApprovalHandler,
    request: ToolCallRequest,
    details: ApprovalPromptDetails,
    signal: AbortSignal | undefined,
  ): Promise<ApprovalDecision | "cancelled"> {
    if (signal?.aborted === true) return "cancelled";
    const timeoutMs = this.#config.approvalTimeoutMs ?? 300_000;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<ApprovalDecision | "cancelled">((resolve) => {
        timer = setTimeout(() => resolve(ApprovalDecision.timeout().bindTo(request)), timeoutMs);
        controller.signal.addEventListener("abort", () => resolve("cancelled"), { once: true });
        Promise.resolve()
          .then(() => handler.requestApproval(request, controller.signal, details))
          .then(
            (decision) =>
              resolve(
                decision instanceof ApprovalDecision
                  ? decision
                  : ApprovalDecision.deny("The approval handler returned no decision").bindTo(
                      request,
                    ),
              ),
            (error: unknown) =>
              resolve(
                ApprovalDecision.deny(`The approval handler failed: ${errorText(error)}`).bindTo(
                  request,
                ),
              ),
          );
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      controller.abort(); // tells a handler still prompting that the answer is no longer needed
    }
  }

  /**
   * Stores what the decision asks to remember; returns a denial when its pattern cannot be
   * applied to the call (the approval is refused rather than given without what it asked for).
   */
  async #remember(
    decision: ApprovalDecision,
    request: ToolCallRequest,
    tool: Tool,
    parameters: JsonObject,
  ): Promise<ApprovalDecision | undefined> {
    if (!decision.shouldRemember) return undefined;
    try {
      await this.permissions.remember({
        call: this.#policyCall(request, tool, parameters),
        sessionId: this.sessionId,
        rememberForSession: decision.rememberForSession,
        rememberForTool: decision.rememberForTool,
        ...(decision.rememberPattern === undefined
          ? {}
          : { rememberPattern: decision.rememberPattern }),
        ...(this.#config.approver === undefined ? {} : { grantedBy: this.#config.approver }),
      });
      return undefined;
    } catch (error) {
      if (!(error instanceof InvalidRememberPatternError)) throw error;
      return ApprovalDecision.deny(`Approval refused: ${error.message}`);
    }
  }

  #context(
    request: ToolCallRequest,
    parameters: JsonObject,
    lifecycle: ToolCallLifecycle,
  ): ToolExecutionContext {
    const decision = lifecycle.approvalDecision;
    return new ToolExecutionContext({
      services: this.#services,
      executionId: crypto.randomUUID(),
      sessionId: this.sessionId,
      toolId: request.toolId,
      ...(request.providerCallId === undefined ? {} : { toolCallId: request.providerCallId }),
      ...(this.#config.workspacePath === undefined
        ? {}
        : { workspacePath: this.#config.workspacePath }),
      parameters: request.parameters,
      ...(parameters === request.parameters ? {} : { modifiedParameters: parameters }),
      isApproved: true,
      approval: {
        automatic: decision === undefined || lifecycle.wasAutoApproved,
        ...(decision?.decidedAt === undefined ? {} : { decidedAt: decision.decidedAt }),
        ...(this.#config.approver === undefined ? {} : { approvedBy: this.#config.approver }),
      },
    });
  }

  #finishExecution(lifecycle: ToolCallLifecycle, execution: ToolExecutionResult): void {
    switch (execution.status) {
      case ToolExecutionStatus.Completed:
        lifecycle.complete(execution.result);
        return;
      case ToolExecutionStatus.Timeout:
        lifecycle.timeout();
        return;
      case ToolExecutionStatus.Cancelled:
        lifecycle.cancel(execution.errorMessage);
        return;
      case ToolExecutionStatus.Failed:
        // A failure the tool reported is a completed call with a failed result; a failure of the
        // pipeline around it (not found, over the concurrency limit, a throw) fails the call.
        if (
          execution.result.exception === undefined &&
          execution.errorCode !== ToolErrorCode.ToolNotFound &&
          execution.errorCode !== ToolErrorCode.ConcurrencyLimit
        ) {
          lifecycle.complete(execution.result);
          return;
        }
        lifecycle.fail(execution.errorMessage ?? "Execution failed", execution.result.exception);
        return;
      default:
        lifecycle.fail(execution.errorMessage ?? `Execution ended with status ${execution.status}`);
    }
  }

  /** Answers the call as cancelled with `reason`, without running or storing it. */
  #refuse(batch: ToolCallBatch, request: ToolCallRequest, reason: string): void {
    const lifecycle = this.#track(ToolCallLifecycle.forRequest(request));
    batch.setLifecycle(lifecycle);
    lifecycle.cancel(reason);
  }

  /** The lifecycle, its transitions reported as the processor's `transition` events. */
  #track(lifecycle: ToolCallLifecycle): ToolCallLifecycle {
    lifecycle.onTransition((event) => this.events.emit("transition", event));
    return lifecycle;
  }

  async #save(callId: string, lifecycle: ToolCallLifecycle): Promise<void> {
    await this.#config.store?.save({
      callId,
      sessionId: this.sessionId,
      record: lifecycle.toRecord(),
    });
  }
}

/** What a call gets when the same call is already being processed or executed. */
const alreadyRunningMessage =
  "This call is already being processed (a resubmission of a call still running); it was not run again.";

/**
 * The call ids each store's processors are working on in this process, so that the same call
 * submitted twice at once runs once (processors sharing a store share the set).
 */
const claimedCalls = new WeakMap<ToolCallStore, Set<string>>();

function claimsOf(store: ToolCallStore | undefined): Set<string> | undefined {
  if (store === undefined) return undefined;
  let claims = claimedCalls.get(store);
  if (claims === undefined) {
    claims = new Set();
    claimedCalls.set(store, claims);
  }
  return claims;
}

/** A function, not an inline check: TypeScript would keep a narrowing of `aborted` across awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * The key a call is stored under: the provider's call id. An id aintern synthesized (from the
 * call's position and content) is not unique across turns, so such a call is keyed by its request
 * id and gets no idempotency across re-parses.
 */
function idempotencyKey(request: ToolCallRequest): string {
  return request.providerCallId !== undefined && !request.callIdSynthesized
    ? request.providerCallId
    : request.id;
}

/** Whether a stored call is the same call as `request` (same tool, same arguments). */
function isSameCall(stored: StoredToolCall, request: ToolCallRequest): boolean {
  const saved = stored.record.request;
  return (
    saved.toolId.toLowerCase() === request.toolId.toLowerCase() &&
    hashToolCallArguments(saved.parameters) === hashToolCallArguments(request.parameters)
  );
}

/** The record with its request under another id (its decision's binding is history). */
function withRequestId(record: ToolCallLifecycleRecord, id: string): ToolCallLifecycleRecord {
  return { ...record, request: { ...record.request, id } };
}

function safeValidate(tool: Tool, parameters: unknown): ToolValidationResult {
  try {
    return tool.validate(parameters);
  } catch (error) {
    return ToolValidationResult.invalidValue(
      "(root)",
      `The tool's validation failed: ${errorText(error)}`,
    );
  }
}

/** The tool's default risk, or Medium when reading it throws or gives no risk level. */
function safeDefaultRisk(tool: Tool): RiskLevel {
  try {
    const risk: unknown = tool.defaultRiskLevel;
    return isRiskLevel(risk) ? risk : RiskLevel.Medium;
  } catch {
    return RiskLevel.Medium;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
