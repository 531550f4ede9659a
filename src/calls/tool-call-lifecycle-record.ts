import {
  AinternError,
  isJsonObject,
  isRiskLevel,
  type JsonObject,
  type JsonValue,
} from "../core/index.js";
import { type ToolResult, type ToolResultJson, toolResultFromJson } from "../result/index.js";
import {
  ToolValidationError,
  ToolValidationResult,
  ToolValidationWarning,
} from "../validation/index.js";
import { ApprovalDecision } from "./approval-decision.js";
import { toJsonValue } from "./json-utils.js";
import type { ToolCallLifecycleState, ToolCallTransitionEntry } from "./tool-call-lifecycle.js";
import { ToolCallRequest } from "./tool-call-request.js";
import { isToolCallStatus, type ToolCallStatus } from "./tool-call-status.js";

/** A {@link ToolValidationResult} as plain JSON. */
export interface ToolValidationResultRecord {
  isValid: boolean;
  errors: {
    parameterName: string;
    message: string;
    errorCode: string;
    expectedDescription?: string;
    providedValue?: JsonValue;
  }[];
  warnings: { parameterName: string; message: string; warningCode: string }[];
}

/** A {@link ToolCallRequest} as plain JSON (dates as ISO 8601, absent values as null). */
export interface ToolCallRequestRecord {
  id: string;
  providerCallId: string | null;
  callIdSynthesized: boolean;
  toolId: string;
  toolName: string;
  iterationNumber: number;
  parameters: JsonObject;
  rawJson: string | null;
  validationResult: ToolValidationResultRecord | null;
  riskLevel: number;
  executionSummary: string;
  warnings: string[] | null;
  requiresApproval: boolean;
  requestedAt: string;
  /**
   * {@link hashToolCallArguments} of the real arguments, set when the stored `parameters` were
   * redacted (a parameter the schema marks `x-secret`): what tells a resubmitted call apart.
   */
  argumentsHash?: string;
  /**
   * On a call stored as approved and not yet run (`recordDecision`, a console's decision): the
   * digest of the tool's definition it was approved for. It runs only while the tool is that
   * one; a tool replaced since (an MCP upstream's relisting) is another tool to the person who
   * approved.
   */
  toolDefinition?: string;
}

/** An {@link ApprovalDecision} as plain JSON. */
export interface ApprovalDecisionRecord {
  approved: boolean;
  reason: string | null;
  modifiedParameters: JsonObject | null;
  rememberForSession: boolean;
  rememberForTool: boolean;
  rememberPattern: string | null;
  decidedAt: string;
  decisionDurationMs: number;
  requestId: string | null;
  argumentsHash: string | null;
  /** Who decided, when known (absent in records written before it was kept). */
  decidedBy?: string | null;
}

/**
 * A {@link ToolCallLifecycle} as a plain, JSON-safe record: everything needed to restore it after
 * a restart, for a `tool_calls` table (one JSON column, or one column per top-level field).
 * The result is `ToolResult.toJSON()`; a thrown exception keeps only its name and message.
 */
export interface ToolCallLifecycleRecord {
  /** The record layout version, for migrations. */
  version: 1;
  request: ToolCallRequestRecord;
  status: ToolCallStatus;
  approvalRequired: boolean;
  approvalDecision: ApprovalDecisionRecord | null;
  result: ToolResultJson | null;
  validationStarted: string | null;
  approvalRequested: string | null;
  executionStarted: string | null;
  executionCompleted: string | null;
  errorMessage: string | null;
  exception: { name: string; message: string } | null;
  transitions: { from: ToolCallStatus; to: ToolCallStatus; at: string }[];
}

/** The record of a lifecycle's request and state. */
export function lifecycleToRecord(
  request: ToolCallRequest,
  state: ToolCallLifecycleState,
): ToolCallLifecycleRecord {
  return {
    version: 1,
    request: requestToRecord(request),
    status: state.status,
    approvalRequired: state.approvalRequired,
    approvalDecision:
      state.approvalDecision === undefined ? null : decisionToRecord(state.approvalDecision),
    result: state.result === undefined ? null : resultToRecord(state.result),
    validationStarted: iso(state.validationStarted),
    approvalRequested: iso(state.approvalRequested),
    executionStarted: iso(state.executionStarted),
    executionCompleted: iso(state.executionCompleted),
    errorMessage: state.errorMessage ?? null,
    exception: exceptionToRecord(state.exception),
    transitions: state.transitions.map((t) => ({ from: t.from, to: t.to, at: t.at.toISOString() })),
  };
}

/**
 * The request and state a record describes. Throws an `AinternError` (`"INVALID_RECORD"`) for a
 * record that is not one (wrong version, unknown status, missing request).
 */
export function lifecycleFromRecord(record: ToolCallLifecycleRecord): {
  request: ToolCallRequest;
  state: ToolCallLifecycleState;
} {
  if (!isJsonObject(record as unknown) || record.version !== 1) {
    throw invalid("it is not a version 1 tool call lifecycle record");
  }
  if (!isToolCallStatus(record.status)) throw invalid(`unknown status '${String(record.status)}'`);
  if (!isJsonObject(record.request as unknown) || typeof record.request.id !== "string") {
    throw invalid("it has no request");
  }
  const transitions: ToolCallTransitionEntry[] = (record.transitions ?? []).map((t) => {
    if (!isToolCallStatus(t.from) || !isToolCallStatus(t.to)) throw invalid("a bad transition");
    return { from: t.from, to: t.to, at: date(t.at) };
  });
  return {
    request: requestFromRecord(record.request),
    state: {
      status: record.status,
      approvalRequired: record.approvalRequired === true,
      approvalDecision:
        record.approvalDecision === null || record.approvalDecision === undefined
          ? undefined
          : decisionFromRecord(record.approvalDecision),
      result:
        record.result === null || record.result === undefined
          ? undefined
          : resultFromRecord(record.result),
      validationStarted: optionalDate(record.validationStarted),
      approvalRequested: optionalDate(record.approvalRequested),
      executionStarted: optionalDate(record.executionStarted),
      executionCompleted: optionalDate(record.executionCompleted),
      errorMessage: record.errorMessage ?? undefined,
      exception: exceptionFromRecord(record.exception),
      transitions,
    },
  };
}

/** The record of a request. */
export function requestToRecord(request: ToolCallRequest): ToolCallRequestRecord {
  return {
    id: request.id,
    providerCallId: request.providerCallId ?? null,
    callIdSynthesized: request.callIdSynthesized,
    toolId: request.toolId,
    toolName: request.toolName,
    iterationNumber: request.iterationNumber,
    parameters: request.parameters,
    rawJson: request.rawJson ?? null,
    validationResult:
      request.validationResult === undefined ? null : validationToRecord(request.validationResult),
    riskLevel: request.riskLevel,
    executionSummary: request.executionSummary,
    warnings: request.warnings === undefined ? null : [...request.warnings],
    requiresApproval: request.requiresApproval,
    requestedAt: request.requestedAt.toISOString(),
  };
}

/** The request a record describes. */
export function requestFromRecord(record: ToolCallRequestRecord): ToolCallRequest {
  if (!isRiskLevel(record.riskLevel)) throw invalid(`unknown risk level ${record.riskLevel}`);
  if (!isJsonObject(record.parameters as unknown))
    throw invalid("its parameters are not an object");
  return new ToolCallRequest({
    id: record.id,
    providerCallId: record.providerCallId ?? undefined,
    callIdSynthesized: record.callIdSynthesized === true,
    toolId: record.toolId,
    toolName: record.toolName,
    iterationNumber: record.iterationNumber,
    parameters: record.parameters,
    rawJson: record.rawJson ?? undefined,
    validationResult:
      record.validationResult === null || record.validationResult === undefined
        ? undefined
        : validationFromRecord(record.validationResult),
    riskLevel: record.riskLevel,
    executionSummary: record.executionSummary,
    warnings: record.warnings ?? undefined,
    requiresApproval: record.requiresApproval === true,
    requestedAt: date(record.requestedAt),
  });
}

/** The record of a decision. */
export function decisionToRecord(decision: ApprovalDecision): ApprovalDecisionRecord {
  return {
    approved: decision.approved,
    reason: decision.reason ?? null,
    modifiedParameters: decision.modifiedParameters ?? null,
    rememberForSession: decision.rememberForSession,
    rememberForTool: decision.rememberForTool,
    rememberPattern: decision.rememberPattern ?? null,
    decidedAt: decision.decidedAt.toISOString(),
    decisionDurationMs: decision.decisionDurationMs,
    requestId: decision.requestId ?? null,
    argumentsHash: decision.argumentsHash ?? null,
    ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
  };
}

/** The decision a record describes. */
export function decisionFromRecord(record: ApprovalDecisionRecord): ApprovalDecision {
  return new ApprovalDecision({
    approved: record.approved === true,
    reason: record.reason ?? undefined,
    modifiedParameters: record.modifiedParameters ?? undefined,
    rememberForSession: record.rememberForSession === true,
    rememberForTool: record.rememberForTool === true,
    rememberPattern: record.rememberPattern ?? undefined,
    decidedAt: date(record.decidedAt),
    decisionDurationMs: record.decisionDurationMs,
    requestId: record.requestId ?? undefined,
    argumentsHash: record.argumentsHash ?? undefined,
    ...(typeof record.decidedBy === "string" ? { decidedBy: record.decidedBy } : {}),
  });
}

function validationToRecord(result: ToolValidationResult): ToolValidationResultRecord {
  return {
    isValid: result.isValid,
    errors: result.errors.map((e) => {
      const providedValue = safeJson(e.providedValue);
      return {
        parameterName: e.parameterName,
        message: e.message,
        errorCode: e.errorCode,
        ...(e.expectedDescription !== undefined && { expectedDescription: e.expectedDescription }),
        ...(providedValue !== undefined && { providedValue }),
      };
    }),
    warnings: result.warnings.map((w) => ({
      parameterName: w.parameterName,
      message: w.message,
      warningCode: w.warningCode,
    })),
  };
}

function validationFromRecord(record: ToolValidationResultRecord): ToolValidationResult {
  const errors = (record.errors ?? []).map((e) => new ToolValidationError(e));
  const warnings = (record.warnings ?? []).map((w) => new ToolValidationWarning(w));
  if (record.isValid && errors.length === 0) {
    return ToolValidationResult.validWithWarnings(...warnings);
  }
  return ToolValidationResult.invalidWithWarnings(errors, warnings);
}

function resultToRecord(result: ToolResult): ToolResultJson {
  // toJSON() is JSON-safe by contract; the round trip drops undefined members.
  return JSON.parse(JSON.stringify(result.toJSON())) as ToolResultJson;
}

// The result module rebuilds it, checking every member (a record may come from a database).
function resultFromRecord(record: ToolResultJson): ToolResult {
  try {
    return toolResultFromJson(record);
  } catch (error) {
    throw invalid(`its result is not a tool result (${(error as Error).message})`);
  }
}

function exceptionToRecord(exception: unknown): { name: string; message: string } | null {
  if (exception === undefined || exception === null) return null;
  if (exception instanceof Error) return { name: exception.name, message: exception.message };
  return { name: "Error", message: String(exception) };
}

function exceptionFromRecord(
  record: { name: string; message: string } | null | undefined,
): unknown {
  if (record === null || record === undefined) return undefined;
  const error = new Error(record.message);
  error.name = record.name;
  return error;
}

function safeJson(value: unknown): JsonValue | undefined {
  try {
    return toJsonValue(value);
  } catch {
    return undefined;
  }
}

function iso(value: Date | undefined): string | null {
  return value === undefined ? null : value.toISOString();
}

function date(value: string): Date {
  const parsed = new Date(value);
  if (Number.isNaN(parsed.getTime())) throw invalid(`'${String(value)}' is not a date`);
  return parsed;
}

function optionalDate(value: string | null | undefined): Date | undefined {
  return value === null || value === undefined ? undefined : date(value);
}

function invalid(why: string): AinternError {
  return new AinternError("INVALID_RECORD", `Cannot restore the tool call lifecycle: ${why}.`);
}
