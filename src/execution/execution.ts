import type { Span } from "@opentelemetry/api";
import { NIL_UUID, type ToolExecutionContext } from "../context/index.js";
import { Cancellation, type JsonObject } from "../core/index.js";
import type { AuditCallDecision } from "./audit-log.js";
import type { ExecutionObservers } from "./execution-observer.js";
import { timedOutReason } from "./execution-outcome.js";
import { ExecutionTracker } from "./execution-tracker.js";
import type { ToolExecutionEventType } from "./tool-execution-event.js";
import type { ToolExecutionOptions } from "./tool-execution-options.js";
import type { ExecutionIds } from "./tool-executor-events.js";
import type { ToolInput } from "./tool-input.js";

/** Everything one run through the pipeline needs, as the public API received it. */
export interface ExecutionPlan {
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

/** The audit columns that say who an execution ran for. */
export interface AuditIdentity {
  readonly agentId: string | null;
  readonly userId: string | null;
  readonly conversationId: string | null;
}

/**
 * One execution in flight: the state every step of the pipeline and every observer shares, and
 * its event log (what `observe()` streams).
 */
export class Execution {
  readonly plan: ExecutionPlan;
  /** Stops the execution (timeout, cancel, the caller's signal); its signal is made on demand. */
  readonly cancellation = new Cancellation();
  readonly tracker: ExecutionTracker;
  readonly startedAt = new Date();
  readonly t0 = performance.now();
  /** The effective timeout, once the run holds a slot. */
  timeoutMs = 0;
  /** The timeout's timer while it runs (a sandbox may hold it: see `holdTimeout`). */
  timer: NodeJS.Timeout | undefined;
  /** Owned by the audit observer: the `begin` made when the execution was accepted. */
  begun: Promise<void> | undefined;
  /** The sandbox that ran the tool (`in-process`, `process`), once one was chosen. */
  sandboxId: string | null = null;
  /** The arguments an approver edited, when they did: the tool runs with these. */
  editedParameters: JsonObject | undefined;
  /** What the executor's own approval gate decided, for the audit row (when it was asked). */
  gateDecision: AuditCallDecision | undefined;
  /** Owned by the audit observer: who the execution ran for (begin and complete share it). */
  identity: AuditIdentity | undefined;
  /** Owned by the telemetry observer: the execution's `execute_tool` span. */
  span: Span | undefined;
  readonly #observers: ExecutionObservers;

  constructor(plan: ExecutionPlan, observers: ExecutionObservers) {
    this.plan = plan;
    this.#observers = observers;
    const { options, input, context } = plan;
    const callId = options.callId ?? input.callId ?? context?.toolCallId;
    const sessionId = options.sessionId ?? input.sessionId ?? context?.sessionId;
    this.tracker = new ExecutionTracker(
      plan.executionId,
      callId,
      sessionId === NIL_UUID ? undefined : sessionId,
    );
  }

  /** The execution's id, and its call's and session's when known: what every event carries. */
  ids(): ExecutionIds {
    const { executionId, callId, sessionId } = this.tracker;
    if (callId === undefined && sessionId === undefined) return { executionId };
    return {
      executionId,
      ...(callId === undefined ? {} : { callId }),
      ...(sessionId === undefined ? {} : { sessionId }),
    };
  }

  /** Milliseconds since the execution started. */
  elapsed(): number {
    return performance.now() - this.t0;
  }

  /**
   * Appends an event to the execution's log and tells the observers; does nothing once the log
   * has ended (a progress report after the final event, say).
   */
  emit(
    eventType: ToolExecutionEventType,
    message: string | undefined,
    elapsedMs: number,
    progressPercent?: number,
    data?: Readonly<Record<string, unknown>>,
    timeMs: number = Date.now(),
  ): void {
    const tracker = this.tracker;
    if (tracker.finished) return;
    tracker.record(
      eventType,
      this.plan.toolName,
      message,
      elapsedMs,
      timeMs,
      progressPercent,
      data,
    );
    this.#observers.onEvent(this, tracker.size - 1);
  }
}

/** What the logs and the toolExecutionStarted notification show of an execution's parameters. */
export function shownParameters(
  plan: ExecutionPlan,
  logParameters: boolean,
): Readonly<Record<string, unknown>> | "[redacted]" {
  return logParameters ? (plan.input.parameters ?? {}) : "[redacted]";
}

/** Starts (or restarts, with the whole timeout) the execution's timeout clock. */
export function armTimeout(execution: Execution): void {
  clearTimeout(execution.timer);
  execution.timer = setTimeout(abortOnTimeout, execution.timeoutMs, execution);
}

/** The timeout timer's callback: a plain function, so no closure is made per execution. */
function abortOnTimeout(execution: Execution): void {
  execution.cancellation.abort(timedOutReason(execution.timeoutMs));
}
