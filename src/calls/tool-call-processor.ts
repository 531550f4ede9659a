// Over 500 lines: the processor's four entry points (process, processCall, needsApproval,
// recordDecision) share one private pipeline and its state (claims, the decisions recorded for
// a host framework); the steps themselves are in call-gate.ts, approval-rounds.ts,
// call-identity.ts, call-audit.ts and execution-to-lifecycle.ts. Splitting the class further
// would expose that state; the next split is its input checks and config types.
import { ApprovalPolicy, RememberedPermissions } from "../approval/index.js";
import {
  ServiceContainer,
  type ServiceProvider,
  type ToolApprovalDetails,
  ToolExecutionContext,
  type ToolProgress,
} from "../context/index.js";
import {
  AinternError,
  isJsonObject,
  type JsonObject,
  MAX_ARGUMENT_DEPTH,
  nestsDeeperThan,
  TypedEventEmitter,
  timeOrderedUuid,
} from "../core/index.js";
import { expectTool } from "../execution/expected-tool.js";
import {
  type AuditLog,
  canExecuteParallel,
  maxParallelismForTier,
  type ToolExecutor,
} from "../execution/index.js";
import { redactSecretParameters } from "../schema/index.js";
import { markValidated, type Tool, toolDefinitionDigest, wasValidated } from "../tools/index.js";
import { ToolValidationResult, ToolValidator } from "../validation/index.js";
import { ApprovalDecision, type ApprovalDecisionInit } from "./approval-decision.js";
import type { ApprovalHandler } from "./approval-handler.js";
import { ApprovalRounds } from "./approval-rounds.js";
import { approvalScopeOf, type DecisionNote, notRunAuditRecord } from "./call-audit.js";
import { CallGate, type CallVerdict, errorText } from "./call-gate.js";
import {
  defaultSessionId,
  idempotencyKey,
  inProcessClaims,
  isSameCall,
  resumedRecord,
  sessionCallKey,
  storableRecord,
  toolHasSecrets,
  withRequestId,
} from "./call-identity.js";
import {
  CheckedCall,
  type CheckedCallParts,
  makeCheckedCall,
  takeCheckedCall,
} from "./checked-call.js";
import { finishFromExecution } from "./execution-to-lifecycle.js";
import { hashToolCallArguments } from "./hash-tool-call-arguments.js";
import type {
  ApprovalRequirementDetails,
  CheckCallInput,
  NeedsApprovalOptions,
  ProcessCallInput,
  ProcessCallResult,
  RecordDecisionInput,
  RecordedDecision,
} from "./process-call.js";
import type { ToolCallBatch } from "./tool-call-batch.js";
import {
  ToolCallLifecycle,
  type ToolCallLifecycleConfig,
  type ToolCallTransition,
} from "./tool-call-lifecycle.js";
import type { ToolCallLifecycleRecord } from "./tool-call-lifecycle-record.js";
import { coercionNote, lifecycleResult } from "./tool-call-outcome.js";
import { ToolCallRequest } from "./tool-call-request.js";
import { isTerminalToolCallStatus, ToolCallStatus } from "./tool-call-status.js";
import { interruptRecord, type ToolCallStore } from "./tool-call-store.js";

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
  /**
   * The session of calls given none (every call of `process(batch)`): session-scoped remembered
   * approvals and stored calls belong to it. Default `"default"`, so a model response processed
   * again after a restart is still answered from the store.
   */
  readonly sessionId?: string;
  /** The workspace tools run in and path patterns are matched in. */
  readonly workspacePath?: string;
  /** Services handed to tools. */
  readonly services?: ServiceProvider;
  /**
   * How long to wait for a person before the call is denied as timed out. Default 5 minutes;
   * `Infinity` waits as long as the handler takes (a handler backed by a store and a console).
   */
  readonly approvalTimeoutMs?: number;
  /** How many times one call may be asked (an edit that raises risk asks again). Default 3. */
  readonly maxApprovalRounds?: number;
  /** Size and depth limits of arguments; default `new ToolValidator()`. */
  readonly validator?: ToolValidator;
  /** Who approvals are recorded as coming from. */
  readonly approver?: string;
  /**
   * Where the decisions on calls that never reach the executor are recorded (invalid, denied,
   * cancelled, approved by `recordDecision` and not yet run); calls it runs are recorded by the
   * executor with their decision. Default: the executor's audit log.
   */
  readonly audit?: AuditLog;
}

/** The processor's events: one per lifecycle transition. */
export interface ToolCallProcessorEvents {
  transition: ToolCallTransition;
}

/** A programmer error in what was passed to `processCall`, `needsApproval` or `recordDecision`. */
export class InvalidCallInputError extends AinternError {
  constructor(message: string) {
    super("INVALID_CALL_INPUT", message);
    this.name = "InvalidCallInputError";
  }
}

/** How one call is handled: its session, and what the caller gave beyond the request. */
interface CallScope {
  readonly sessionId: string;
  readonly signal: AbortSignal | undefined;
  readonly onProgress: ((progress: ToolProgress) => void) | undefined;
  /** A decision the host framework already made. */
  readonly given: ApprovalDecision | undefined;
  /** Stop once the call is decided (recordDecision): never execute. */
  readonly decideOnly: boolean;
  /** Called with the lifecycle as soon as there is one (a batch shows it while it runs). */
  readonly onLifecycle: (lifecycle: ToolCallLifecycle) => void;
  /**
   * The verdict `checkCall` reached on this very request (coerced, assessed, validated) with
   * `tool`: the call is not judged again while the registry still holds that tool.
   */
  readonly checked: { readonly verdict: CallVerdict; readonly tool: Tool } | undefined;
}

/** What the store or the recorded decisions already know about a call. */
type Prior =
  | { readonly kind: "none"; readonly stored: ToolCallStatus | null }
  | { readonly kind: "answered"; readonly lifecycle: ToolCallLifecycle }
  | {
      readonly kind: "approved";
      readonly record: ToolCallLifecycleRecord;
      readonly stored: ToolCallStatus | null;
    };

/** Thrown by a conditional save that lost: another process claimed or moved the call. */
const lostClaim = Symbol("lost claim");

/** How many recorded decisions without a store are kept for their `processCall`. */
const maxRecordedDecisions = 1_000;

/**
 * The gate every call goes through, whichever front end received it: validation, risk, the
 * approval policy and remembered permissions, a person's decision, execution through the
 * {@link ToolExecutor}, and the call's {@link ToolCallLifecycle} (stored with a `store`).
 *
 * - `process(batch)` runs a parsed model response (feed it to `toProviderMessages` afterwards);
 * - `processCall(call)` runs one call a front end already parsed (an MCP `tools/call`, a
 *   framework adapter's tool invocation) and returns the text for the model;
 * - `needsApproval(toolId, parameters)` and `recordDecision(...)` let a host framework that asks
 *   the person itself (AI SDK `needsApproval`, OpenAI Agents interruptions) use the same policy.
 *
 * Every transition is emitted on `events` and, with a `store`, saved before the next step runs:
 * a call is stored as Executing before its tool starts, so a crash leaves it to be marked
 * interrupted; a call whose stored lifecycle is terminal is never executed again ((session, call
 * id) is the idempotency key).
 *
 * @example
 * ```ts
 * const processor = new ToolCallProcessor({ executor, approvalHandler, workspacePath });
 * const batch = parseToolCalls(response, { toolIds: registry.tools.map((t) => t.id) });
 * await processor.process(batch);
 * messages.push(...toProviderMessages(batch, "openai-chat"));
 *
 * const { content, isError } = await processor.processCall({
 *   toolId: "search", parameters: { query: "TODO" }, callId: "call_1", sessionId: "conn-7",
 * });
 * ```
 */
export class ToolCallProcessor {
  readonly events = new TypedEventEmitter<ToolCallProcessorEvents>();
  readonly executor: ToolExecutor;
  readonly policy: ApprovalPolicy;
  readonly permissions: RememberedPermissions;
  /** The session of calls given none; default `"default"`. */
  readonly sessionId: string;
  /**
   * The workspace root every call's paths are resolved against (the config's), or undefined
   * when there is none.
   */
  readonly workspacePath: string | undefined;
  readonly #config: ToolCallProcessorConfig;
  readonly #services: ServiceProvider;
  readonly #gate: CallGate;
  readonly #rounds: ApprovalRounds;
  /** (session, call id) -> the digest of the tool a host's person was asked about (`checkCall`). */
  readonly #askedAbout = new Map<string, string>();
  /** (session, call id) -> a decided lifecycle waiting for its `processCall` (no store). */
  readonly #recorded = new Map<
    string,
    { readonly lifecycle: ToolCallLifecycle; readonly toolDefinition: string | undefined }
  >();

  constructor(config: ToolCallProcessorConfig) {
    this.#config = config;
    this.executor = config.executor;
    this.policy = config.policy ?? new ApprovalPolicy();
    this.permissions = config.permissions ?? new RememberedPermissions();
    this.sessionId = checkedSessionId(config.sessionId) ?? defaultSessionId;
    this.workspacePath = config.workspacePath;
    this.#services = config.services ?? new ServiceContainer();
    this.#gate = new CallGate({
      registry: this.executor.registry,
      policy: this.policy,
      permissions: this.permissions,
      validator: config.validator ?? ToolValidator.shared,
      workspacePath: config.workspacePath,
    });
    this.#rounds = new ApprovalRounds({
      gate: this.#gate,
      policy: this.policy,
      permissions: this.permissions,
      handler: config.approvalHandler,
      timeoutMs: config.approvalTimeoutMs ?? 300_000,
      maxRounds: config.maxApprovalRounds ?? 3,
      approver: config.approver,
      currentTool: (toolId) => this.executor.registry.getTool(toolId),
    });
  }

  /**
   * Processes every call of `batch` and resolves with the same batch, each call's lifecycle in a
   * terminal state (and the batch marked complete). Calls run in parallel when the batch is
   * parallel and the license tier allows it; each call has its own decision, and denying one
   * never drops or blocks the others. Aborting `signal` cancels what has not finished.
   */
  async process(batch: ToolCallBatch, signal?: AbortSignal): Promise<ToolCallBatch> {
    const calls = [...batch.calls];
    const tier = this.executor.license.currentTier;
    const parallel = batch.isParallel && canExecuteParallel(tier);
    const width = parallel ? Math.min(calls.length, maxParallelismForTier(tier)) : 1;
    const scope: CallScope = {
      sessionId: this.sessionId,
      signal,
      onProgress: undefined,
      given: undefined,
      decideOnly: false,
      onLifecycle: (lifecycle) => batch.setLifecycle(lifecycle),
      checked: undefined,
    };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < calls.length) {
        const request = calls[next++]!;
        await this.#handle(request, scope);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, width) }, worker));
    batch.complete();
    return batch;
  }

  /**
   * Runs one call that a front end already parsed, through the whole gate: validation, risk,
   * policy and remembered permissions, the person's decision (asked through the approval handler,
   * or `decision` when the host framework already asked), execution and the stored lifecycle.
   * Never rejects for anything the model or the tool did: a call that did not run resolves with
   * `isError` and the text that tells the model why.
   *
   * @example
   * ```ts
   * const answer = await processor.processCall({
   *   toolId: "file-write",
   *   parameters: { path: "notes.md", content: "hi" },
   *   callId: "call_1",
   *   sessionId: "conversation-42",
   * });
   * reply(answer.content, { isError: answer.isError });
   * ```
   */
  async processCall(input: ProcessCallInput): Promise<ProcessCallResult> {
    const ids = this.#checkInput(input, "processCall");
    const reused =
      input.checked === undefined ? undefined : this.#reusable(input, input.checked, ids);
    const request = reused?.request ?? this.#requestFor(input.toolId, input.parameters, ids.callId);
    const lifecycle = await this.#handle(request, {
      sessionId: ids.sessionId,
      signal: input.signal,
      onProgress: input.onProgress,
      given: this.#forToolAsAsked(input.toolId, ids, toDecision(input.decision, "processCall")),
      decideOnly: false,
      onLifecycle: ignoreLifecycle,
      checked: reused === undefined ? undefined : { verdict: reused.verdict, tool: reused.tool },
    });
    const result = lifecycleResult(lifecycle, request);
    const answer: { -readonly [K in keyof ProcessCallResult]: ProcessCallResult[K] } = {
      status: lifecycle.status,
      isError: !result.success,
      content: result.toLlmContext() + coercionNote(lifecycle),
      result,
      lifecycle,
    };
    if (result.success && result.data !== undefined) answer.data = result.data;
    return answer;
  }

  /**
   * Whether a call would need a person's approval before it runs: `false` when it would run
   * unasked (the policy allows it, a remembered permission covers it) or would not run at all
   * (unknown tool, invalid arguments, denied by a rule: `processCall` tells the model why);
   * otherwise why, for the host framework's own prompt. Bind the person's answer to
   * `argumentsHash` and pass it to `processCall` as `decision` (or record it with
   * `recordDecision`).
   *
   * @example
   * ```ts
   * const need = await processor.needsApproval("terminal-execute", { command: "rm -rf build" });
   * if (need !== false) console.log(need.reason, need.summary);
   * ```
   */
  async needsApproval(
    toolId: string,
    parameters: unknown,
    options: NeedsApprovalOptions = {},
  ): Promise<false | ApprovalRequirementDetails> {
    const sessionId = checkedSessionId(options?.sessionId) ?? this.sessionId;
    return (await this.#check(toolId, parameters, sessionId, undefined)).needsApproval;
  }

  /**
   * Judges a call as `processCall` would (coercion, risk, validation, the policy with remembered
   * permissions) and says, as {@link needsApproval} does, whether a person must be asked; the
   * {@link CheckedCall} it resolves with, passed to `processCall` as `checked`, lets the call
   * run on this verdict instead of being judged twice. Use it where a front end asks the person
   * itself and otherwise runs the call at once (an MCP server, an agent framework's approval
   * hook).
   *
   * @example
   * ```ts
   * const checked = await processor.checkCall({ toolId: "file-read", parameters, callId, sessionId });
   * if (checked.needsApproval !== false) return askThePerson(checked.needsApproval);
   * const answer = await processor.processCall({ toolId: "file-read", parameters, callId, sessionId, checked });
   * ```
   */
  async checkCall(input: CheckCallInput): Promise<CheckedCall> {
    const ids = this.#checkInput(input, "checkCall");
    const parts = await this.#check(input.toolId, input.parameters, ids.sessionId, ids.callId);
    if (parts.needsApproval !== false && ids.callId !== undefined && parts.tool !== undefined) {
      // A host asks its person about this call now: the decision it records later is for the
      // tool as it is now.
      keepNewest(
        this.#askedAbout,
        sessionCallKey(ids.sessionId, ids.callId),
        toolDefinitionDigest(parts.tool),
      );
    }
    return makeCheckedCall(parts);
  }

  /**
   * `given` (a host's decision on the call `key`), or a denial when `checkCall` put the call to
   * the host's person while its tool had another definition than it has now.
   */
  #forToolAsAsked<D extends ApprovalDecision | undefined>(
    toolId: unknown,
    ids: { readonly sessionId: string; readonly callId: string | undefined },
    given: D,
  ): D | ApprovalDecision {
    if (given === undefined || ids.callId === undefined) return given;
    const key = sessionCallKey(ids.sessionId, ids.callId);
    const asked = this.#askedAbout.get(key);
    if (asked === undefined) return given;
    this.#askedAbout.delete(key);
    const tool = typeof toolId === "string" ? this.executor.registry.getTool(toolId) : undefined;
    if (!given.approved || (tool !== undefined && toolDefinitionDigest(tool) === asked))
      return given;
    return ApprovalDecision.deny(
      `The decision on this call was made about tool '${String(toolId)}' as it was when it was checked; the tool changed since (its definition was replaced or removed), so nothing ran. Ask about the call again.`,
    );
  }

  /** What `needsApproval` and `checkCall` judge. */
  async #check(
    toolId: unknown,
    parameters: unknown,
    sessionId: string,
    callId: string | undefined,
  ): Promise<CheckedCallParts> {
    const atMs = Date.now();
    const tool = typeof toolId === "string" ? this.executor.registry.getTool(toolId) : undefined;
    const notRun = (): CheckedCallParts => ({
      owner: this,
      tool,
      sessionId,
      callId,
      sent: parameters,
      request: undefined,
      verdict: undefined,
      atMs,
      needsApproval: false,
    });
    if (tool === undefined || !isJsonObject(parameters)) return notRun();
    // Coerced as processCall coerces ('5' to 5): judged and hashed as the call that will run.
    const sent = this.#gate.coerce(this.#requestFor(tool.id, parameters, callId), tool);
    const request = this.#gate.assess(sent, tool);
    if (this.#gate.validationProblem(request, tool) !== undefined) return notRun();
    const verdict = await this.#gate.verdict(
      this.#gate.policyCall(request, tool, request.parameters),
      tool,
      sessionId,
    );
    return {
      owner: this,
      tool,
      sessionId,
      callId,
      sent: parameters,
      atMs,
      request,
      verdict,
      needsApproval:
        verdict.kind !== "ask"
          ? false
          : {
              reason: verdict.reason,
              riskLevel: request.riskLevel,
              summary: request.executionSummary,
              ...(verdict.warning === undefined ? {} : { warning: verdict.warning }),
              argumentsHash: hashToolCallArguments(request.parameters),
            },
    };
  }

  /** The check `processCall` may run on, or undefined: the call is then judged again. */
  #reusable(
    input: ProcessCallInput,
    checked: unknown,
    ids: { sessionId: string; callId: string | undefined },
  ): { request: ToolCallRequest; verdict: CallVerdict; tool: Tool } | undefined {
    if (!CheckedCall.isInstance(checked)) {
      throw new InvalidCallInputError(
        "processCall: checked must be what this processor's checkCall returned",
      );
    }
    const tool =
      typeof input.toolId === "string" ? this.executor.registry.getTool(input.toolId) : undefined;
    const parts = takeCheckedCall(checked, {
      owner: this,
      tool,
      sessionId: ids.sessionId,
      callId: ids.callId,
      sent: input.parameters,
    });
    return parts === undefined || tool === undefined
      ? undefined
      : { request: parts.request, verdict: parts.verdict, tool };
  }

  /**
   * Applies a decision a person made in the host framework's own approval flow: checks the call
   * (validation, policy: a deny rule still wins), checks the decision against the arguments
   * (hash, edits validated and never riskier), remembers what it asks to remember, and records
   * it on the call's lifecycle (stored with a `store`). A later `processCall` with the same
   * session, call id and arguments runs (or refuses) the call without asking again.
   *
   * @example
   * ```ts
   * await processor.recordDecision({
   *   toolId: "file-write", parameters, callId: "call_1",
   *   decision: { approved: true, rememberForSession: true },
   * });
   * const answer = await processor.processCall({ toolId: "file-write", parameters, callId: "call_1" });
   * ```
   */
  async recordDecision(input: RecordDecisionInput): Promise<RecordedDecision> {
    const checked = this.#checkInput(input, "recordDecision");
    const given = toDecision(input.decision, "recordDecision");
    if (given === undefined) {
      throw new InvalidCallInputError(
        "recordDecision needs a decision: { approved: true | false }",
      );
    }
    if (input.decidedBy !== undefined && typeof input.decidedBy !== "string") {
      throw new InvalidCallInputError(
        `recordDecision: decidedBy must be a string (a person's name or subject), got ${describeValue(input.decidedBy)}`,
      );
    }
    const decision = this.#forToolAsAsked(
      input.toolId,
      checked,
      input.decidedBy === undefined ? given : given.by(input.decidedBy),
    );
    const request = this.#requestFor(input.toolId, input.parameters, checked.callId);
    const lifecycle = await this.#handle(request, {
      sessionId: checked.sessionId,
      signal: undefined,
      onProgress: undefined,
      given: decision,
      decideOnly: true,
      onLifecycle: ignoreLifecycle,
      checked: undefined,
    });
    const applied = lifecycle.approvalDecision;
    const approved = lifecycle.status === ToolCallStatus.Approved;
    const keep = this.#config.store === undefined && checked.callId !== undefined;
    if (keep && checked.callId !== undefined && (approved || lifecycle.isTerminal)) {
      const tool = this.executor.registry.getTool(lifecycle.request.toolId);
      this.#keepRecorded(
        sessionCallKey(checked.sessionId, checked.callId),
        lifecycle,
        approved && tool !== undefined ? toolDefinitionDigest(tool) : undefined,
      );
    }
    const reason = approved
      ? undefined
      : (applied?.reason ?? lifecycle.errorMessage ?? "The call will not run");
    return {
      approved,
      decision:
        applied ??
        ApprovalDecision.deny(reason ?? "The call will not run").bindTo(lifecycle.request),
      ...(reason === undefined ? {} : { reason }),
      lifecycle,
    };
  }

  /** Calls stored as awaiting approval (for example, from before a restart). */
  async pendingApprovals(): Promise<ToolCallLifecycle[]> {
    const store = this.#config.store;
    if (store === undefined) return [];
    const stored = await store.list({ status: ToolCallStatus.AwaitingApproval });
    return stored.map((s) => ToolCallLifecycle.fromRecord(s.record));
  }

  // ------------------------------------------------------------------ one call

  /** Claims the call in this process, then handles it; a call already in hand is refused. */
  async #handle(sent: ToolCallRequest, scope: CallScope): Promise<ToolCallLifecycle> {
    // Coerced first, so a resubmission of the same call is recognised as the same call (a
    // checked request was coerced by the check).
    const original =
      scope.checked === undefined
        ? this.#gate.coerce(sent, this.executor.registry.getTool(sent.toolId))
        : sent;
    const callId = idempotencyKey(original);
    const key = sessionCallKey(scope.sessionId, callId);
    const claims = inProcessClaims(this.#config.store ?? this);
    if (claims.has(key)) {
      // The same call is being processed in this process right now (a resubmitted batch):
      // running it twice, or marking it interrupted, would both be wrong.
      return this.#refuse(original, scope, alreadyRunningMessage);
    }
    claims.add(key);
    try {
      return await this.#handleClaimed(original, callId, scope);
    } finally {
      claims.delete(key);
    }
  }

  async #handleClaimed(
    original: ToolCallRequest,
    callId: string,
    scope: CallScope,
  ): Promise<ToolCallLifecycle> {
    let prior: Prior;
    try {
      prior =
        this.#config.store === undefined
          ? this.#priorRecorded(original, callId, scope)
          : await this.#prior(original, callId, scope);
    } catch (error) {
      // Whether the call already ran cannot be told: it must not run (again).
      return this.#refuse(
        original,
        scope,
        `Could not read the call's stored state: ${errorText(error)}`,
      );
    }
    if (prior.kind === "answered") {
      scope.onLifecycle(prior.lifecycle);
      return prior.lifecycle;
    }

    const tool = this.executor.registry.getTool(original.toolId);
    if (prior.kind === "approved" && changedSinceApproved(prior.record, tool)) {
      // Approved for the tool as it was: decided again, as a denial saying why.
      prior = { kind: "none", stored: prior.stored };
      scope = {
        ...scope,
        given: ApprovalDecision.deny(
          `The approval recorded for this call was for tool '${original.toolId}' as it was then; the tool changed since (its definition was replaced), so nothing ran. Decide on the call again, about the tool as it is now.`,
        ),
      };
    }
    // The check's verdict holds while the registry holds the tool it was reached with.
    const verdict = scope.checked?.tool === tool ? scope.checked?.verdict : undefined;
    let lifecycle: ToolCallLifecycle;
    if (prior.kind === "approved") {
      // Decided earlier (recordDecision): run it as decided, without asking again.
      lifecycle = ToolCallLifecycle.fromRecord(
        resumedRecord(prior.record, original),
        this.#tracked,
      );
    } else {
      lifecycle = ToolCallLifecycle.forRequest(
        verdict === undefined ? this.#gate.assess(original, tool) : original,
        this.#tracked,
      );
    }
    scope.onLifecycle(lifecycle);
    const store = this.#config.store;
    // The stored state this process last read or wrote: every write is conditional on it.
    let expected = prior.stored;
    let lost = false;
    const save =
      store === undefined
        ? noSave
        : async (): Promise<void> => {
            if (lost) return;
            const record = storableRecord(lifecycle.toRecord(), tool);
            if (record.status === ToolCallStatus.Approved && tool !== undefined) {
              record.request.toolDefinition = toolDefinitionDigest(tool);
            }
            if (await store.save({ callId, sessionId: scope.sessionId, record, expected })) {
              expected = record.status;
              return;
            }
            lost = true;
            throw lostClaim;
          };
    let started = false;
    const note: DecisionNote = {};
    if (prior.kind === "approved") {
      const decision = lifecycle.approvalDecision;
      note.decidedBy = decision?.decidedBy ?? this.#config.approver ?? "host";
      if (decision !== undefined) note.approvalScope = approvalScopeOf(decision);
    }

    try {
      if (prior.kind === "none") {
        const deciding = this.#decide(lifecycle, tool, callId, scope, save, note, verdict);
        const decided = deciding instanceof Promise ? await deciding : deciding;
        if (!decided) return lifecycle;
      }
      if (scope.decideOnly) return lifecycle;
      if (tool === undefined) {
        lifecycle.cancel("The tool is no longer registered");
        return lifecycle;
      }
      if (isAborted(scope.signal)) {
        lifecycle.cancel("The call was cancelled");
        return lifecycle;
      }
      lifecycle.startExecution();
      started = true;
      // The claim: of processes meeting this call at once, one gets past here.
      if (store !== undefined) await save();
      const context = this.#context(lifecycle, scope, note, tool);
      // The tool judged and approved is the one that runs: a relisting since runs nothing.
      expectTool(context, tool);
      const execution = await this.executor.execute(tool.id, context, scope.signal);
      finishFromExecution(lifecycle, execution);
    } catch (error) {
      if (error === lostClaim) {
        // Another process claimed or moved the call since it was read: it is theirs to run.
        return this.#answerLost(original, callId, scope, lifecycle);
      }
      // A store or plug-in failure: end the call as failed rather than leave it hanging.
      endAfterError(lifecycle, error);
    } finally {
      if (store !== undefined) await save().catch(ignoreError);
      // A call that reached the executor is in the audit already (the executor records it).
      if (!lost && !started) await this.#auditNotRun(lifecycle, tool, note, scope);
    }
    return lifecycle;
  }

  /** Records the decision on a call the executor did not run (it records those it runs). */
  async #auditNotRun(
    lifecycle: ToolCallLifecycle,
    tool: Tool | undefined,
    note: DecisionNote,
    scope: CallScope,
  ): Promise<void> {
    const audit = this.#config.audit ?? this.executor.audit;
    if (audit === undefined) return;
    const request = lifecycle.request;
    const parameters = this.executor.options.logParameters
      ? tool === undefined || !toolHasSecrets(tool)
        ? request.parameters
        : redactSecretParameters(tool.inputSchema, request.parameters)
      : null;
    const record = notRunAuditRecord(lifecycle, note, {
      callId: request.providerCallId,
      sessionId: scope.sessionId,
      parameters,
    });
    if (record === undefined) return;
    // A failing audit log must not change the call's answer; the executor logs its own failures.
    await audit.complete(record).catch(() => undefined);
  }

  /**
   * The answer for a call another process claimed first: its stored outcome when it has one,
   * otherwise "already being processed". This process never ran it.
   */
  async #answerLost(
    original: ToolCallRequest,
    callId: string,
    scope: CallScope,
    lifecycle: ToolCallLifecycle,
  ): Promise<ToolCallLifecycle> {
    const now = await this.#config.store?.get(callId, scope.sessionId).catch(() => undefined);
    let answer: ToolCallLifecycle;
    if (
      now !== undefined &&
      isSameCall(now.record, original) &&
      isTerminalToolCallStatus(now.record.status)
    ) {
      answer = ToolCallLifecycle.fromRecord(withRequestId(now.record, original.id));
    } else {
      if (!lifecycle.isTerminal) lifecycle.cancel(alreadyRunningMessage);
      answer = lifecycle;
    }
    scope.onLifecycle(answer);
    return answer;
  }

  /**
   * Validation, policy and the person's decision; resolves whether the call was approved (the
   * lifecycle is then Approved; otherwise it ended). With `checked`, the verdict `checkCall`
   * reached on this validated request, only the person's decision (if any) is left.
   */
  #decide(
    lifecycle: ToolCallLifecycle,
    tool: Tool | undefined,
    callId: string,
    scope: CallScope,
    save: () => Promise<void>,
    note: DecisionNote,
    checked: CallVerdict | undefined,
  ): boolean | Promise<boolean> {
    const request = lifecycle.request;
    if (isAborted(scope.signal)) {
      lifecycle.cancel("The call was cancelled");
      return false;
    }
    lifecycle.startValidation();
    if (checked !== undefined && tool !== undefined) {
      return this.#decideOn(checked, lifecycle, tool, callId, scope, save, note);
    }
    const problem = this.#gate.validationProblem(request, tool);
    if (problem !== undefined || tool === undefined) {
      note.decidedBy = "validation";
      lifecycle.failValidation(problem ?? "Unknown tool");
      return false;
    }
    const call = this.#gate.policyCall(request, tool, request.parameters);
    const verdict = this.#gate.verdict(call, tool, scope.sessionId);
    // Synchronous until someone must be asked (or remembered permissions looked up): a call the
    // policy lets run costs no promise here.
    if (verdict instanceof Promise) {
      return verdict.then((v) => this.#decideOn(v, lifecycle, tool, callId, scope, save, note));
    }
    return this.#decideOn(verdict, lifecycle, tool, callId, scope, save, note);
  }

  /** {@link #decide} once the policy's verdict is known. */
  #decideOn(
    verdict: CallVerdict,
    lifecycle: ToolCallLifecycle,
    tool: Tool,
    callId: string,
    scope: CallScope,
    save: () => Promise<void>,
    note: DecisionNote,
  ): boolean | Promise<boolean> {
    if (verdict.kind === "allow" && scope.given === undefined) {
      note.decidedBy = verdict.grantId === undefined ? "policy" : "remembered";
      if (verdict.grantId !== undefined) note.grantId = verdict.grantId;
      if (verdict.grantScope !== undefined) note.approvalScope = verdict.grantScope;
      lifecycle.approve(
        verdict.grantId === undefined
          ? undefined
          : new ApprovalDecision({ approved: true, reason: verdict.reason }),
      );
      return true;
    }
    return this.#ask(verdict, lifecycle, tool, callId, scope, save, note);
  }

  /** Asks (or applies the given decision, or a deny rule): the call waits for approval first. */
  async #ask(
    verdict: CallVerdict,
    lifecycle: ToolCallLifecycle,
    tool: Tool,
    callId: string,
    scope: CallScope,
    save: () => Promise<void>,
    note: DecisionNote,
  ): Promise<boolean> {
    const request = lifecycle.request;
    lifecycle.requestApproval();
    await save();
    if (verdict.kind === "deny") {
      note.decidedBy = "rule";
      lifecycle.deny(ApprovalDecision.deny(verdict.reason).bindTo(request));
      return false;
    }
    const asked = await this.#rounds.ask({
      request,
      tool,
      verdict: verdict.kind === "ask" ? verdict : { kind: "ask", reason: verdict.reason },
      sessionId: scope.sessionId,
      callId: request.providerCallId === undefined ? undefined : callId,
      signal: scope.signal,
      given: scope.given,
    });
    if (asked.kind === "cancelled") {
      note.decidedBy = "caller";
      lifecycle.cancel("Approval was cancelled");
      return false;
    }
    // A person's or host's decision is recorded under the name of who made it, when known.
    note.decidedBy =
      asked.source === "person" || asked.source === "host"
        ? (asked.decision.decidedBy ?? this.#config.approver ?? asked.source)
        : asked.source;
    if (!asked.decision.approved) {
      lifecycle.deny(asked.decision);
      return false;
    }
    note.approvalScope = approvalScopeOf(asked.decision);
    if (asked.grantId !== undefined) note.grantId = asked.grantId;
    lifecycle.approve(asked.decision);
    return true;
  }

  /**
   * What is already known about the call: a decision recorded in this process, or its stored
   * record. A stored call that ended (or was left Executing by a process that stopped: it fails
   * as interrupted) is answered from its record; one that was decided is run as decided.
   * Throws when the store cannot be read.
   */
  async #prior(request: ToolCallRequest, callId: string, scope: CallScope): Promise<Prior> {
    const store = this.#config.store;
    if (store === undefined) return this.#priorRecorded(request, callId, scope);
    const stored = await store.get(callId, scope.sessionId);
    if (stored === undefined) return { kind: "none", stored: null };
    let record = stored.record;
    // Another call under the same id (a model reusing ids): it is replaced, as read.
    if (!isSameCall(record, request)) return { kind: "none", stored: record.status };
    if (record.status === ToolCallStatus.Executing) {
      if ((await store.isExecutingElsewhere?.(callId, scope.sessionId)) === true) {
        return { kind: "answered", lifecycle: this.#refused(request, alreadyRunningMessage) };
      }
      // It was executing when its process stopped and may have taken effect: never run it again;
      // it fails as interrupted (what `markInterrupted` does on open), unless its owner finished
      // it meanwhile: then the owner's record is the answer.
      const interrupted = interruptRecord(record, new Date());
      const wrote = await store
        .save({
          callId,
          sessionId: scope.sessionId,
          record: interrupted,
          expected: ToolCallStatus.Executing,
        })
        .catch(() => false);
      if (wrote) record = interrupted;
      else {
        const now = await store.get(callId, scope.sessionId);
        if (now === undefined || now.record.status === ToolCallStatus.Executing) {
          return { kind: "answered", lifecycle: this.#refused(request, alreadyRunningMessage) };
        }
        record = now.record;
      }
    }
    return this.#priorOf(record, request, record.status);
  }

  /** What the decisions recorded in this process (no store) know about the call. */
  #priorRecorded(request: ToolCallRequest, callId: string, scope: CallScope): Prior {
    if (this.#recorded.size === 0) return noPrior;
    const key = sessionCallKey(scope.sessionId, callId);
    const recorded = this.#recorded.get(key);
    if (recorded === undefined) return noPrior;
    this.#recorded.delete(key);
    const record = withToolDefinition(recorded.lifecycle.toRecord(), recorded.toolDefinition);
    if (!isSameCall(record, request)) return noPrior;
    return this.#priorOf(record, request, null);
  }

  #priorOf(
    record: ToolCallLifecycleRecord,
    request: ToolCallRequest,
    stored: ToolCallStatus | null,
  ): Prior {
    if (record.status === ToolCallStatus.Approved) return { kind: "approved", record, stored };
    if (!isTerminalToolCallStatus(record.status)) return { kind: "none", stored };
    // Idempotent: a call that already ended is answered from its record, never run again. The
    // record is put under this request's id (a re-parsed response has new request ids).
    // Not tracked: its transitions happened before, and were reported then.
    return {
      kind: "answered",
      lifecycle: ToolCallLifecycle.fromRecord(withRequestId(record, request.id)),
    };
  }

  /** Keeps a decided lifecycle for its `processCall`, the oldest dropped past the limit. */
  #keepRecorded(
    key: string,
    lifecycle: ToolCallLifecycle,
    toolDefinition: string | undefined,
  ): void {
    keepNewest(this.#recorded, key, { lifecycle, toolDefinition });
  }

  /** The request for a call given by its parts (`processCall`, `recordDecision`). */
  #requestFor(toolId: unknown, parameters: unknown, callId: string | undefined): ToolCallRequest {
    const name = typeof toolId === "string" ? toolId : "";
    const tool = this.executor.registry.getTool(name);
    const problem = !isJsonObject(parameters)
      ? `The arguments must be a JSON object, got ${describeValue(parameters)}.`
      : nestsDeeperThan(parameters, MAX_ARGUMENT_DEPTH)
        ? `The arguments nest more than ${MAX_ARGUMENT_DEPTH} levels deep; send them flatter.`
        : undefined;
    return new ToolCallRequest({
      toolId: tool?.id ?? name,
      toolName: tool?.name ?? name,
      // Arguments that cannot be taken are not kept (copying them is what could fail).
      parameters: problem === undefined ? (parameters as JsonObject) : {},
      ...(callId === undefined ? {} : { providerCallId: callId }),
      ...(problem === undefined
        ? {}
        : { validationResult: ToolValidationResult.invalidValue("(root)", problem) }),
    });
  }

  #checkInput(
    input: { readonly toolId: unknown; readonly callId?: unknown; readonly sessionId?: unknown },
    method: string,
  ): { sessionId: string; callId: string | undefined } {
    if (typeof input !== "object" || input === null) {
      throw new InvalidCallInputError(
        `${method} takes { toolId, parameters, callId?, sessionId? }`,
      );
    }
    const { callId } = input;
    if (callId !== undefined && (typeof callId !== "string" || callId === "")) {
      throw new InvalidCallInputError(
        `${method}: callId must be a non-empty string (convert a numeric request id with String(id)), got ${describeValue(callId)}`,
      );
    }
    return {
      sessionId: checkedSessionId(input.sessionId) ?? this.sessionId,
      callId: callId as string | undefined,
    };
  }

  #context(
    lifecycle: ToolCallLifecycle,
    scope: CallScope,
    note: DecisionNote,
    tool: Tool,
  ): ToolExecutionContext {
    const request = lifecycle.request;
    const parameters = lifecycle.effectiveParameters;
    const decision = lifecycle.approvalDecision;
    const workspacePath = this.#config.workspacePath;
    const approval: { -readonly [K in keyof ToolApprovalDetails]: ToolApprovalDetails[K] } = {
      automatic: decision === undefined || lifecycle.wasAutoApproved,
      decidedBy: note.decidedBy ?? "policy",
      scope: note.approvalScope ?? "once",
      argumentsHash: hashToolCallArguments(request.parameters),
    };
    if (decision !== undefined) approval.decidedAt = decision.decidedAt;
    const approvedBy = decision?.decidedBy ?? this.#config.approver;
    if (approvedBy !== undefined) approval.approvedBy = approvedBy;
    if (note.grantId !== undefined) approval.grantId = note.grantId;
    if (decision?.modifiedParameters !== undefined) {
      approval.editedArgumentsHash = hashToolCallArguments(decision.modifiedParameters);
    }
    // Members left undefined rather than spread in: the context reads each one, and this runs
    // on every call.
    const context = new ToolExecutionContext({
      services: this.#services,
      executionId: timeOrderedUuid(),
      sessionId: scope.sessionId,
      toolId: request.toolId,
      toolCallId: request.providerCallId,
      workspacePath,
      parameters: request.parameters,
      modifiedParameters: parameters === request.parameters ? undefined : parameters,
      progress: scope.onProgress,
      isApproved: true,
      approval,
    });
    // Validated by the gate: the executor and the tool need not validate them again.
    if (wasValidated(tool, parameters)) markValidated(tool, context.effectiveParameters);
    return context;
  }

  /** Answers the call as cancelled with `reason`, without running or storing it. */
  #refuse(request: ToolCallRequest, scope: CallScope, reason: string): ToolCallLifecycle {
    const lifecycle = this.#refused(request, reason);
    scope.onLifecycle(lifecycle);
    return lifecycle;
  }

  #refused(request: ToolCallRequest, reason: string): ToolCallLifecycle {
    const lifecycle = ToolCallLifecycle.forRequest(request, this.#tracked);
    lifecycle.cancel(reason);
    return lifecycle;
  }

  /** Lifecycles made with it report their transitions as the processor's `transition` events. */
  readonly #tracked: ToolCallLifecycleConfig = { forwardTo: this.events };
}

/** Nothing known about the call. */
const noPrior: Prior = Object.freeze({ kind: "none", stored: null });

/** Sets `key` as the newest entry of `map`, dropping the oldest past {@link maxRecordedDecisions}. */
function keepNewest<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > maxRecordedDecisions) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** `record` with the digest of the tool definition it was approved for, when there is one. */
function withToolDefinition(
  record: ToolCallLifecycleRecord,
  toolDefinition: string | undefined,
): ToolCallLifecycleRecord {
  return toolDefinition === undefined
    ? record
    : { ...record, request: { ...record.request, toolDefinition } };
}

/** Whether an approved record was approved for another definition of `tool` than it has now. */
function changedSinceApproved(record: ToolCallLifecycleRecord, tool: Tool | undefined): boolean {
  const approvedFor = record.request.toolDefinition;
  return (
    approvedFor !== undefined && tool !== undefined && toolDefinitionDigest(tool) !== approvedFor
  );
}

function ignoreError(): undefined {
  return undefined;
}

/** `onLifecycle` of a call whose caller only wants the end. */
function ignoreLifecycle(): void {}

/** `save` of a processor without a store. */
async function noSave(): Promise<void> {}

/** What a call gets when the same call is already being processed or executed. */
const alreadyRunningMessage =
  "This call is already being processed (a resubmission of a call still running); it was not run again.";

/** Ends a lifecycle that an unexpected error interrupted, in the state that fits where it was. */
function endAfterError(lifecycle: ToolCallLifecycle, error: unknown): void {
  if (lifecycle.isTerminal) return;
  const message = `Could not process the call: ${errorText(error)}`;
  if (lifecycle.status === ToolCallStatus.Validating) lifecycle.failValidation(message);
  else if (lifecycle.status === ToolCallStatus.Executing) lifecycle.fail(message, error);
  else lifecycle.cancel(message);
}

/** A function, not an inline check: TypeScript would keep a narrowing of `aborted` across awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

function checkedSessionId(sessionId: unknown): string | undefined {
  if (sessionId === undefined) return undefined;
  if (typeof sessionId !== "string" || sessionId === "") {
    throw new InvalidCallInputError(
      `sessionId must be a non-empty string, got ${describeValue(sessionId)}`,
    );
  }
  return sessionId;
}

function toDecision(
  decision: ApprovalDecision | ApprovalDecisionInit | undefined,
  method: string,
): ApprovalDecision | undefined {
  if (decision === undefined) return undefined;
  if (decision instanceof ApprovalDecision) return decision;
  if (typeof decision !== "object" || decision === null || typeof decision.approved !== "boolean") {
    throw new InvalidCallInputError(
      `${method}: decision must be an ApprovalDecision or { approved: boolean, ... }`,
    );
  }
  if (decision.modifiedParameters !== undefined && !isJsonObject(decision.modifiedParameters)) {
    throw new InvalidCallInputError(`${method}: decision.modifiedParameters must be a JSON object`);
  }
  return new ApprovalDecision(
    decision as ApprovalDecisionInit & { modifiedParameters?: JsonObject },
  );
}

function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "string" ? "a string" : typeof value;
}
