import { NIL_UUID } from "../context/index.js";
import { isJsonObject } from "../core/index.js";
import { redactSecretParameters } from "../schema/index.js";
import type { Logger } from "../telemetry/index.js";
import type { Tool } from "../tools/index.js";
import type { AuditLog, AuditRecord } from "./audit-log.js";
import { callDecisionColumns } from "./call-decision-columns.js";
import type { AuditIdentity, Execution, ExecutionPlan } from "./execution.js";
import type { ExecutionObserver } from "./execution-observer.js";
import { errorText, type Outcome } from "./execution-outcome.js";
import { ToolExecutionEventType } from "./tool-execution-event.js";
import type { ToolExecutionResult } from "./tool-execution-result.js";

/**
 * Writes each execution to the audit log: `begin` when `execute` accepts it (the crash
 * evidence, awaited before the tool runs), `complete` once the result is known, awaited before
 * the final event so the row is durable when `execute` resolves. A failing `complete` is logged and becomes a Warning event
 * on the execution's log; it never fails the execution.
 */
export class AuditObserver implements ExecutionObserver {
  readonly #audit: AuditLog;
  readonly #logger: Logger;
  readonly #logParameters: boolean;

  constructor(audit: AuditLog, logger: Logger, logParameters: boolean) {
    this.#audit = audit;
    this.#logger = logger;
    this.#logParameters = logParameters;
  }

  /**
   * `begin` as soon as `execute` accepts the execution, before it waits for anything (an
   * authorizer, a confirmation, a concurrency slot): an execution that is queued when the
   * process dies is found, as `interrupted`, on the next open.
   */
  onStarted(execution: Execution): void {
    const { plan } = execution;
    const identity = auditIdentity(plan);
    execution.identity = identity;
    let begun: Promise<void>;
    try {
      begun = this.#audit.begin({
        executionId: plan.executionId,
        toolName: plan.toolName,
        startedAt: execution.startedAt,
        batchId: plan.batchId ?? null,
        sandboxId: null,
        agentId: identity.agentId,
        userId: identity.userId,
        conversationId: identity.conversationId,
      });
    } catch (error) {
      begun = Promise.reject(error);
    }
    // Awaited in onRunning; an execution that ends before running never awaits it.
    begun.catch(() => undefined);
    execution.begun = begun;
  }

  /** The tool runs only once its start is durable: a `begin` that failed fails the execution. */
  onRunning(execution: Execution, _tool: Tool): Promise<void> | undefined {
    return execution.begun;
  }

  onSettling(execution: Execution, result: ToolExecutionResult, outcome: Outcome): Promise<void> {
    const record = this.#record(execution, result, outcome);
    // `then` rather than an async function: one promise less per execution on the hot path.
    let written: Promise<void>;
    try {
      written = Promise.resolve(this.#audit.complete(record));
    } catch (error) {
      written = Promise.reject(error);
    }
    return written.then(undefined, (error: unknown) => {
      this.#failed(record, error);
      execution.emit(
        ToolExecutionEventType.Warning,
        `Audit write failed: ${errorText(error)}`,
        execution.elapsed(),
      );
    });
  }

  /** Writes a row for something that never ran (a batch item); failures are logged, never thrown. */
  async write(record: AuditRecord): Promise<void> {
    try {
      await this.#audit.complete(record);
    } catch (error) {
      this.#failed(record, error);
    }
  }

  #failed(record: AuditRecord, error: unknown): void {
    this.#logger.error(
      { executionId: record.executionId, err: error },
      `[TLS-EXE] Audit write failed. ExecutionId: ${record.executionId}`,
    );
  }

  #record(execution: Execution, result: ToolExecutionResult, outcome: Outcome): AuditRecord {
    const { plan } = execution;
    const toolResult = result.result;
    const identity = execution.identity ?? auditIdentity(plan);
    return {
      executionId: result.executionId,
      toolName: result.toolId,
      status: result.status,
      parameters:
        this.#logParameters && isJsonObject(plan.parameters)
          ? redactSecretParameters(outcome.tool?.inputSchema, plan.parameters)
          : null,
      resultSummary: toolResult.success ? toolResult.toLogSummary() : null,
      errorMessage: outcome.redactedError ?? toolResult.error ?? null,
      errorCode: toolResult.errorCode ?? null,
      startedAt: result.startedAt,
      completedAt: result.completedAt,
      durationMs: result.durationMs,
      sandboxId: execution.sandboxId,
      batchId: result.batchId ?? null,
      agentId: identity.agentId,
      userId: identity.userId,
      conversationId: identity.conversationId,
      wasApproved: result.wasApproved,
      timedOut: result.timedOut,
      wasCancelled: result.wasCancelled,
      ...callDecisionColumns(plan.context),
      ...execution.gateDecision,
    };
  }
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
