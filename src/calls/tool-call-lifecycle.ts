import { type JsonObject, TypedEventEmitter } from "../core/index.js";
import type { ToolResult } from "../result/index.js";
import type { ApprovalDecision } from "./approval-decision.js";
import { type Clock, systemClock } from "./clock.js";
import { InvalidDecisionError } from "./invalid-decision-error.js";
import { InvalidTransitionError } from "./invalid-transition-error.js";
import {
  lifecycleFromRecord,
  lifecycleToRecord,
  type ToolCallLifecycleRecord,
} from "./tool-call-lifecycle-record.js";
import type { ToolCallRequest } from "./tool-call-request.js";
import { isTerminalToolCallStatus, ToolCallStatus } from "./tool-call-status.js";
import { canTransition } from "./tool-call-transitions.js";

/** One move of a lifecycle, as kept in {@link ToolCallLifecycle.transitions}. */
export interface ToolCallTransitionEntry {
  readonly from: ToolCallStatus;
  readonly to: ToolCallStatus;
  readonly at: Date;
}

/** What {@link ToolCallLifecycle.onTransition} listeners receive, once per move. */
export interface ToolCallTransition extends ToolCallTransitionEntry {
  readonly lifecycle: ToolCallLifecycle;
  readonly requestId: string;
  readonly toolId: string;
}

/** A listener of lifecycle moves. */
export type ToolCallTransitionListener = (transition: ToolCallTransition) => void;

/** Construction options of a {@link ToolCallLifecycle}. */
export interface ToolCallLifecycleConfig {
  /** Where timestamps come from (default: the system clock). */
  clock?: Clock;
  /** A first transition listener (more can be added with `onTransition`). */
  onTransition?: ToolCallTransitionListener;
  /** Where a throwing listener's error goes (default: `console.error`). */
  onListenerError?: (error: unknown) => void;
  /**
   * An emitter that also receives every move as its `transition` event (a processor's `events`):
   * the event is only built while that emitter has listeners.
   */
  forwardTo?: TypedEventEmitter<{ transition: ToolCallTransition }>;
}

/** The state a lifecycle holds besides its request: what a record restores. */
export interface ToolCallLifecycleState {
  status: ToolCallStatus;
  approvalDecision: ApprovalDecision | undefined;
  approvalRequired: boolean;
  result: ToolResult | undefined;
  validationStarted: Date | undefined;
  approvalRequested: Date | undefined;
  executionStarted: Date | undefined;
  executionCompleted: Date | undefined;
  errorMessage: string | undefined;
  exception: unknown;
  transitions: ToolCallTransitionEntry[];
}

/**
 * Follows one tool call from parsing to its end (spec 002 `ToolCallLifecycle`) as an enforced
 * state machine: the moves of spec 002's flow diagram are the only legal ones, and any other
 * throws {@link InvalidTransitionError} and changes nothing.
 *
 *     Parsed -> Validating -> ValidationFailed | AwaitingApproval | Approved
 *     AwaitingApproval -> Approved | Denied;  Approved -> Executing
 *     Executing -> Completed | Failed | TimedOut;  any non-terminal -> Cancelled
 *
 * Mutable, as in the spec (its methods move it along), but only through those methods: the state
 * is private and read through getters. Each move is timestamped from the injected clock, kept in
 * {@link transitions}, and reported to `onTransition` listeners after it is applied (a listener
 * that throws cannot undo it). {@link toRecord} / {@link fromRecord} save and restore it.
 *
 * @example
 * ```ts
 * const lifecycle = ToolCallLifecycle.forRequest(request, { onTransition: (t) => emit(t) });
 * lifecycle.startValidation();
 * lifecycle.approve(); // auto-approved
 * lifecycle.startExecution();
 * lifecycle.complete(await tool.execute(context));
 * ```
 */
export class ToolCallLifecycle {
  /** The original request. */
  readonly request: ToolCallRequest;
  readonly #clock: Clock;
  readonly #onListenerError: ((error: unknown) => void) | undefined;
  readonly #forwardTo: TypedEventEmitter<{ transition: ToolCallTransition }> | undefined;
  /** Made on the first `onTransition`: most lifecycles have none. */
  #events: TypedEventEmitter<{ transition: ToolCallTransition }> | undefined;
  #state: ToolCallLifecycleState = {
    status: ToolCallStatus.Parsed,
    approvalDecision: undefined,
    approvalRequired: false,
    result: undefined,
    validationStarted: undefined,
    approvalRequested: undefined,
    executionStarted: undefined,
    executionCompleted: undefined,
    errorMessage: undefined,
    exception: undefined,
    transitions: [],
  };

  constructor(request: ToolCallRequest, config: ToolCallLifecycleConfig = {}) {
    this.request = request;
    this.#clock = config.clock ?? systemClock;
    this.#onListenerError = config.onListenerError;
    this.#forwardTo = config.forwardTo;
    if (config.onTransition !== undefined) this.onTransition(config.onTransition);
  }

  /** A new lifecycle, in Parsed, for `request`. */
  static forRequest(request: ToolCallRequest, config?: ToolCallLifecycleConfig): ToolCallLifecycle {
    return new ToolCallLifecycle(request, config);
  }

  /**
   * Restores a lifecycle saved with {@link toRecord}, in the state it was saved in (no
   * transition is emitted). A call that was Executing when its process died is restored as
   * Executing; the caller decides what to do with it (typically `fail` or `cancel`).
   */
  static fromRecord(
    record: ToolCallLifecycleRecord,
    config?: ToolCallLifecycleConfig,
  ): ToolCallLifecycle {
    const { request, state } = lifecycleFromRecord(record);
    const lifecycle = new ToolCallLifecycle(request, config);
    lifecycle.#state = state;
    return lifecycle;
  }

  /** A plain, JSON-safe record of the whole lifecycle (request included), for storage. */
  toRecord(): ToolCallLifecycleRecord {
    return lifecycleToRecord(this.request, this.#state);
  }

  /** Adds a listener called after every move; returns a function that removes it. */
  onTransition(listener: ToolCallTransitionListener): () => void {
    if (this.#events === undefined) {
      const onListenerError = this.#onListenerError;
      this.#events = new TypedEventEmitter(
        onListenerError === undefined ? undefined : { onListenerError: (e) => onListenerError(e) },
      );
    }
    return this.#events.on("transition", listener);
  }

  // ---- Core properties

  /** The current state. */
  get status(): ToolCallStatus {
    return this.#state.status;
  }

  /** The lifecycle id: the request's id. */
  get id(): string {
    return this.request.id;
  }

  /** The request's tool id. */
  get toolId(): string {
    return this.request.toolId;
  }

  /**
   * The parameters the tool should run with: the person's edits when the decision has any, the
   * request's parameters otherwise.
   */
  get effectiveParameters(): JsonObject {
    return this.#state.approvalDecision?.modifiedParameters ?? this.request.parameters;
  }

  // ---- Approval

  /** The approval decision; undefined when none was needed or none was made yet. */
  get approvalDecision(): ApprovalDecision | undefined {
    return this.#state.approvalDecision;
  }

  /** Whether approval was asked for ({@link requestApproval} was called). */
  get approvalRequired(): boolean {
    return this.#state.approvalRequired;
  }

  /** Whether the call was approved without asking anyone. */
  get wasAutoApproved(): boolean {
    return !this.approvalRequired && this.isApproved;
  }

  /** Whether the call is approved: by a decision, or because no approval was required. */
  get isApproved(): boolean {
    return this.#state.approvalDecision?.approved ?? !this.approvalRequired;
  }

  /** Whether a decision denied the call. */
  get wasDenied(): boolean {
    return this.#state.approvalDecision?.denied ?? false;
  }

  // ---- Execution

  /** The tool's result, once completed. */
  get result(): ToolResult | undefined {
    return this.#state.result;
  }

  /** When validation started. */
  get validationStarted(): Date | undefined {
    return copy(this.#state.validationStarted);
  }

  /** When approval was requested. */
  get approvalRequested(): Date | undefined {
    return copy(this.#state.approvalRequested);
  }

  /** When execution started. */
  get executionStarted(): Date | undefined {
    return copy(this.#state.executionStarted);
  }

  /** When execution ended (completed, failed, timed out or cancelled). */
  get executionCompleted(): Date | undefined {
    return copy(this.#state.executionCompleted);
  }

  /** Milliseconds between the approval request and the decision; undefined until decided. */
  get approvalWaitMs(): number | undefined {
    const requested = this.#state.approvalRequested;
    const decision = this.#state.approvalDecision;
    if (requested === undefined || decision === undefined) return undefined;
    return decision.decidedAt.getTime() - requested.getTime();
  }

  /** Execution time in milliseconds; undefined until execution has started and ended. */
  get durationMs(): number | undefined {
    const started = this.#state.executionStarted;
    const completed = this.#state.executionCompleted;
    if (started === undefined || completed === undefined) return undefined;
    return completed.getTime() - started.getTime();
  }

  /**
   * Milliseconds from the request to the end of the lifecycle, or to now while it runs. (The
   * spec always measures to now; a finished call's total should not keep growing.)
   */
  get totalDurationMs(): number {
    const end = this.endedAt ?? this.#clock();
    return end.getTime() - this.request.requestedAt.getTime();
  }

  /** When the lifecycle reached its terminal state; undefined while it runs. */
  get endedAt(): Date | undefined {
    if (!this.isTerminal) return undefined;
    return copy(this.#state.transitions.at(-1)?.at ?? this.#state.executionCompleted);
  }

  /** Every move so far, oldest first. */
  get transitions(): readonly ToolCallTransitionEntry[] {
    return this.#state.transitions.map((t) => Object.freeze({ ...t, at: new Date(t.at) }));
  }

  // ---- Errors

  /** The error message of a failed, timed-out, cancelled or invalid call. */
  get errorMessage(): string | undefined {
    return this.#state.errorMessage;
  }

  /** What was thrown, when a failure came from an exception. */
  get exception(): unknown {
    return this.#state.exception;
  }

  /** Whether the lifecycle ended in Failed, ValidationFailed or TimedOut (as in the spec). */
  get failed(): boolean {
    const s = this.status;
    return (
      s === ToolCallStatus.Failed ||
      s === ToolCallStatus.ValidationFailed ||
      s === ToolCallStatus.TimedOut
    );
  }

  /** Whether the call completed with a successful result. */
  get succeeded(): boolean {
    return this.status === ToolCallStatus.Completed && this.#state.result?.success === true;
  }

  // ---- State queries

  /** Whether the lifecycle is in a final state. */
  get isTerminal(): boolean {
    return isTerminalToolCallStatus(this.status);
  }

  /** Whether it is waiting for a decision. */
  get isWaiting(): boolean {
    return this.status === ToolCallStatus.AwaitingApproval;
  }

  /** Whether it is validating or executing. */
  get isActive(): boolean {
    return this.status === ToolCallStatus.Validating || this.status === ToolCallStatus.Executing;
  }

  // ---- Moves

  /** Parsed -> Validating. */
  startValidation(): void {
    this.#move(ToolCallStatus.Validating, markValidationStarted);
  }

  /** Validating -> ValidationFailed, with the error the model will see. */
  failValidation(error: string): void {
    this.#move(ToolCallStatus.ValidationFailed, (s) => {
      s.errorMessage = error;
    });
  }

  /** Validating -> AwaitingApproval. */
  requestApproval(): void {
    this.#move(ToolCallStatus.AwaitingApproval, (s, now) => {
      s.approvalRequired = true;
      s.approvalRequested = now;
    });
  }

  /**
   * Validating -> Approved (auto-approval; `decision` optional, e.g. a remembered permission), or
   * AwaitingApproval -> Approved (a person's `decision`, required). The decision must approve,
   * and when bound it must be bound to this request and its arguments.
   */
  approve(decision?: ApprovalDecision): void {
    this.#check(ToolCallStatus.Approved);
    if (decision === undefined) {
      if (this.status === ToolCallStatus.AwaitingApproval) {
        throw this.#decisionError("it awaited approval, so approve needs the person's decision");
      }
    } else {
      this.#checkDecision(decision, true);
    }
    this.#move(ToolCallStatus.Approved, (s) => {
      s.approvalDecision = decision;
    });
  }

  /** AwaitingApproval -> Denied, with a decision that denies. */
  deny(decision: ApprovalDecision): void {
    this.#check(ToolCallStatus.Denied);
    this.#checkDecision(decision, false);
    this.#move(ToolCallStatus.Denied, (s) => {
      s.approvalDecision = decision;
    });
  }

  /** Approved -> Executing. */
  startExecution(): void {
    this.#move(ToolCallStatus.Executing, markExecutionStarted);
  }

  /** Executing -> Completed, with the tool's result (which may itself report a failure). */
  complete(result: ToolResult): void {
    this.#move(ToolCallStatus.Completed, (s, now) => {
      s.executionCompleted = now;
      s.result = result;
    });
  }

  /** Executing -> Failed, with the error message and, optionally, what was thrown. */
  fail(error: string, exception?: unknown): void {
    this.#move(ToolCallStatus.Failed, (s, now) => {
      s.executionCompleted = now;
      s.errorMessage = error;
      s.exception = exception;
    });
  }

  /** Executing -> TimedOut ("Tool execution timed out"). */
  timeout(): void {
    this.#move(ToolCallStatus.TimedOut, (s, now) => {
      s.executionCompleted = now;
      s.errorMessage = "Tool execution timed out";
    });
  }

  /** Any non-terminal state -> Cancelled ("Tool execution was cancelled", or `reason`). */
  cancel(reason?: string): void {
    this.#move(ToolCallStatus.Cancelled, (s, now) => {
      s.executionCompleted = now;
      s.errorMessage = reason ?? "Tool execution was cancelled";
    });
  }

  /** Whether a move to `to` is legal from the current state. */
  canMoveTo(to: ToolCallStatus): boolean {
    return canTransition(this.status, to);
  }

  /** `ToolCallLifecycle(Read File, Status=Completed, Duration=12ms)`. */
  toString(): string {
    const duration = this.durationMs === undefined ? "" : `${Math.round(this.durationMs)}`;
    return `ToolCallLifecycle(${this.request.toolName}, Status=${this.status}, Duration=${duration}ms)`;
  }

  #check(to: ToolCallStatus): void {
    if (!canTransition(this.status, to)) {
      throw new InvalidTransitionError(this.status, to, this.request.id, this.request.toolId);
    }
  }

  #checkDecision(decision: ApprovalDecision, approving: boolean): void {
    if (decision.approved !== approving) {
      throw this.#decisionError(
        approving ? "approve was given a decision that denies" : "deny was given an approval",
      );
    }
    const mismatch = decision.mismatch(this.request);
    if (mismatch !== undefined) throw this.#decisionError(mismatch);
  }

  #decisionError(why: string): InvalidDecisionError {
    return new InvalidDecisionError(
      this.request.id,
      `Cannot apply the decision to tool call ${this.request.id} ('${this.request.toolId}'): ${why}.`,
    );
  }

  #move(to: ToolCallStatus, apply: (state: ToolCallLifecycleState, now: Date) => void): void {
    this.#check(to);
    const state = this.#state;
    const from = state.status;
    // The system clock's Date is new already; another clock's may be shared, so it is copied.
    const now = this.#clock === systemClock ? new Date() : new Date(this.#clock().getTime());
    // In place: the state is private, every getter and record copies what it hands out, and no
    // `apply` can throw half way (they only assign).
    apply(state, now);
    state.status = to;
    state.transitions.push({ from, to, at: now });
    const events = this.#events?.hasListeners("transition") === true ? this.#events : undefined;
    const forward =
      this.#forwardTo?.hasListeners("transition") === true ? this.#forwardTo : undefined;
    if (events === undefined && forward === undefined) return;
    const event: ToolCallTransition = Object.freeze({
      lifecycle: this,
      requestId: this.request.id,
      toolId: this.request.toolId,
      from,
      to,
      at: new Date(now),
    });
    events?.emit("transition", event);
    forward?.emit("transition", event);
  }
}

// Moves that record only their time, shared rather than made per move.
function markValidationStarted(state: ToolCallLifecycleState, now: Date): void {
  state.validationStarted = now;
}

function markExecutionStarted(state: ToolCallLifecycleState, now: Date): void {
  state.executionStarted = now;
}

function copy(date: Date | undefined): Date | undefined {
  return date === undefined ? undefined : new Date(date);
}
