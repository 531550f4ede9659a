import {
  isJsonObject,
  type JsonObject,
  type JsonValue,
  keyTextProblem,
  MAX_KEY_LENGTH,
  replaceControlCharacters,
  ToolErrorCode,
} from "../core/index.js";
import type { AuditEntry, AuditRecord, AuditStart } from "../execution/audit-log.js";
import { AuditStatus, auditStatusCode, auditStatusFromCode } from "../execution/audit-status.js";
import { defaultMaxDataLength, truncateText } from "../result/index.js";
import { InvalidAuditRecordError } from "./invalid-audit-record-error.js";

/** Each column of `tool_executions`, in the order the store inserts them, and its row field. */
const AUDIT_COLUMN_FIELDS: readonly (readonly [string, keyof AuditRowValues])[] = [
  ["id", "id"],
  ["execution_id", "executionId"],
  ["tool_name", "toolName"],
  ["parameters_json", "parametersJson"],
  ["status", "status"],
  ["error_message", "errorMessage"],
  ["error_code", "errorCode"],
  ["started_at", "startedAt"],
  ["completed_at", "completedAt"],
  ["duration_ms", "durationMs"],
  ["output_size_bytes", "outputSizeBytes"],
  ["sandbox_id", "sandboxId"],
  ["agent_id", "agentId"],
  ["user_id", "userId"],
  ["batch_id", "batchId"],
  ["metadata_json", "metadataJson"],
  ["conversation_id", "conversationId"],
  ["result_summary", "resultSummary"],
  ["was_approved", "wasApproved"],
  ["timed_out", "timedOut"],
  ["was_cancelled", "wasCancelled"],
  ["call_id", "callId"],
  ["session_id", "sessionId"],
  ["decision", "decision"],
  ["decided_by", "decidedBy"],
  ["approval_scope", "approvalScope"],
  ["grant_id", "grantId"],
  ["arguments_hash", "argumentsHash"],
  ["edited_arguments_hash", "editedArgumentsHash"],
];

/** The decision columns (issue 11), each text, in insert order. */
export const AUDIT_DECISION_COLUMNS: readonly string[] = Object.freeze([
  "call_id",
  "session_id",
  "decision",
  "decided_by",
  "approval_scope",
  "grant_id",
  "arguments_hash",
  "edited_arguments_hash",
]);

/** The columns of `tool_executions` in the order the store inserts them. */
export const AUDIT_COLUMNS: readonly string[] = Object.freeze(
  AUDIT_COLUMN_FIELDS.map(([column]) => column),
);

/** A row's values in {@link AUDIT_COLUMNS} order, dialect-neutral. */
export function auditRowValues(row: AuditRowValues): AuditRowValues[keyof AuditRowValues][] {
  return AUDIT_COLUMN_FIELDS.map(([, field]) => row[field]);
}

/** Longest `tool_name` (spec 003 `AsString(64)`); longer names are cut. */
export const TOOL_NAME_MAX = 64;
/** Longest `error_message` (spec 003 `AsString(1024)`). */
export const ERROR_MESSAGE_MAX = 1024;
/** Longest `error_code` (spec 003 `AsString(64)`). */
export const ERROR_CODE_MAX = 64;
/** Longest `sandbox_id` (spec 003 `AsString(64)`). */
export const SANDBOX_ID_MAX = 64;

/** An execution between `begin` and `complete`, as the store keeps it. */
export interface InflightExecution {
  /** The id its audit row will have. */
  readonly id: string;
  readonly executionId: string;
  readonly toolName: string;
  readonly startedAt: Date;
  readonly parametersJson: string | null;
  readonly batchId: string | null;
  readonly userId: string | null;
  readonly agentId: string | null;
  readonly conversationId: string | null;
  readonly sandboxId: string | null;
  readonly metadataJson: string | null;
}

/** One audit row's values, dialect-neutral (dates as `Date`, flags as booleans). */
export interface AuditRowValues {
  readonly id: string;
  readonly executionId: string;
  readonly toolName: string;
  readonly parametersJson: string | null;
  readonly status: number;
  readonly errorMessage: string | null;
  readonly errorCode: string | null;
  readonly startedAt: Date;
  readonly completedAt: Date;
  readonly durationMs: number;
  readonly outputSizeBytes: number | null;
  readonly sandboxId: string | null;
  readonly agentId: string | null;
  readonly userId: string | null;
  readonly batchId: string | null;
  readonly metadataJson: string | null;
  readonly conversationId: string | null;
  readonly resultSummary: string | null;
  readonly wasApproved: boolean;
  readonly timedOut: boolean;
  readonly wasCancelled: boolean;
  readonly callId: string | null;
  readonly sessionId: string | null;
  readonly decision: string | null;
  readonly decidedBy: string | null;
  readonly approvalScope: string | null;
  readonly grantId: string | null;
  readonly argumentsHash: string | null;
  readonly editedArgumentsHash: string | null;
}

/** Decision columns of a row that has none (an interrupted execution's). */
const NO_DECISION = {
  callId: null,
  sessionId: null,
  decision: null,
  decidedBy: null,
  approvalScope: null,
  grantId: null,
  argumentsHash: null,
  editedArgumentsHash: null,
} as const;

/** The decision columns' values of a record (ids capped like other ids, names at 64). */
function decisionValues(record: AuditRecord): Pick<AuditRowValues, keyof typeof NO_DECISION> {
  return {
    callId: optionalText(record.callId),
    sessionId: optionalText(record.sessionId),
    decision: optionalText(record.decision, 64),
    decidedBy: optionalText(record.decidedBy, 64),
    approvalScope: optionalText(record.approvalScope, 64),
    grantId: optionalText(record.grantId),
    argumentsHash: optionalText(record.argumentsHash, 128),
    editedArgumentsHash: optionalText(record.editedArgumentsHash, 128),
  };
}

/**
 * Text as both databases will take it: PostgreSQL refuses the NUL character in text, so it
 * becomes U+FFFD on both dialects; past `max` characters (code points, as PostgreSQL's
 * `varchar(n)` counts them) the text is cut and ends with "…".
 */
export function cleanText(value: string, max?: number): string {
  let text = value.includes("\0") ? value.replaceAll("\0", "\uFFFD") : value;
  if (max !== undefined && text.length > max) {
    const points = Array.from(text);
    if (points.length > max) text = `${points.slice(0, max - 1).join("")}…`;
  }
  return text;
}

function optionalText(value: string | null | undefined, max?: number): string | null {
  return value === undefined || value === null ? null : cleanText(String(value), max);
}

function requireText(field: string, value: unknown, executionId?: string): string {
  if (typeof value !== "string") {
    throw new InvalidAuditRecordError(field, `Audit ${field} must be a string.`, executionId);
  }
  return value;
}

function requireDate(field: string, value: unknown, executionId: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new InvalidAuditRecordError(
      field,
      `Audit ${field} of execution '${executionId}' must be a valid Date.`,
      executionId,
    );
  }
  return value;
}

/**
 * Longest `parameters_json`, `metadata_json` and `result_summary`, in characters: the limit of
 * result data for the model (50,000). Longer JSON is stored as `{"truncatedJson": "<its first
 * characters>… [truncated N of M characters]"}`, still an object when read back.
 */
export const STORED_TEXT_MAX = defaultMaxDataLength;

function capJson(text: string): string {
  if (text.length <= STORED_TEXT_MAX) return text;
  let room = STORED_TEXT_MAX - 20;
  let capped = JSON.stringify({ truncatedJson: truncateText(text, room) });
  // Escaping may lengthen the cut text: cut again by what it grew.
  while (capped.length > STORED_TEXT_MAX && room > 0) {
    room -= capped.length - STORED_TEXT_MAX;
    capped = JSON.stringify({ truncatedJson: truncateText(text, Math.max(0, room)) });
  }
  return capped;
}

function toJsonText(field: string, value: unknown, executionId: string): string | null {
  if (value === undefined || value === null) return null;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? null : capJson(text);
  } catch (error) {
    throw new InvalidAuditRecordError(
      field,
      `Audit ${field} of execution '${executionId}' cannot be written as JSON: ${String(error)}`,
      executionId,
    );
  }
}

function checkExecutionId(value: unknown): string {
  const executionId = requireText("executionId", value);
  const problem = keyTextProblem(executionId);
  if (problem !== undefined) {
    throw new InvalidAuditRecordError(
      "executionId",
      `Audit executionId ${problem}; nothing was written. Give the execution a shorter, printable id (a UUID is ideal).`,
    );
  }
  return executionId;
}

/** A batch id is indexed: refused, like an execution id, when it cannot be a key. */
function checkBatchId(value: string | null | undefined, executionId: string): string | null {
  if (value === undefined || value === null) return null;
  const batchId = requireText("batchId", value, executionId);
  const problem = keyTextProblem(batchId);
  if (problem !== undefined) {
    throw new InvalidAuditRecordError(
      "batchId",
      `Audit batchId of execution '${executionId}' ${problem}; nothing was written.`,
      executionId,
    );
  }
  return batchId;
}

/**
 * A key as recovery writes it: a row that a store before these checks let in (or that was
 * damaged) is cut and cleaned rather than allowed to stop the recovery of every other row.
 */
export function salvageKey(value: string): string {
  return keyTextProblem(value) === undefined
    ? value
    : cleanText(replaceControlCharacters(value), MAX_KEY_LENGTH) || "\uFFFD";
}

/** An in-flight execution with its keys made storable (see {@link salvageKey}). */
export function salvageInflight(execution: InflightExecution): InflightExecution {
  const executionId = salvageKey(execution.executionId);
  const batchId = execution.batchId === null ? null : salvageKey(execution.batchId);
  return executionId === execution.executionId && batchId === execution.batchId
    ? execution
    : { ...execution, executionId, batchId };
}

/** Validates a `begin` argument and turns it into the in-flight form, with a new row id. */
export function toInflight(start: AuditStart, id: string): InflightExecution {
  const executionId = checkExecutionId(start.executionId);
  return {
    id,
    executionId,
    toolName: cleanText(requireText("toolName", start.toolName, executionId), TOOL_NAME_MAX),
    startedAt: requireDate("startedAt", start.startedAt, executionId),
    parametersJson: toJsonText("parameters", start.parameters, executionId),
    batchId: checkBatchId(start.batchId, executionId),
    userId: optionalText(start.userId),
    agentId: optionalText(start.agentId),
    conversationId: optionalText(start.conversationId),
    sandboxId: optionalText(start.sandboxId, SANDBOX_ID_MAX),
    metadataJson: toJsonText("metadata", start.metadata, executionId),
  };
}

/**
 * Validates a `complete` argument and turns it into row values. Fields the record leaves out
 * come from the execution's `begin`, when there was one.
 */
export function toAuditRow(
  record: AuditRecord,
  id: string,
  begun: InflightExecution | undefined,
): AuditRowValues {
  const executionId = checkExecutionId(record.executionId);
  const status = auditStatusCode(record.status);
  if (status === undefined) {
    throw new InvalidAuditRecordError(
      "status",
      `Audit status '${String(record.status)}' of execution '${executionId}' is not one of: ${Object.values(AuditStatus).join(", ")}.`,
      executionId,
    );
  }
  const startedAt = requireDate("startedAt", record.startedAt, executionId);
  const completedAt = requireDate("completedAt", record.completedAt, executionId);
  const durationMs =
    record.durationMs !== undefined && Number.isFinite(record.durationMs) && record.durationMs >= 0
      ? Math.round(record.durationMs)
      : Math.max(0, completedAt.getTime() - startedAt.getTime());
  const outputSizeBytes =
    record.outputSizeBytes === undefined ||
    record.outputSizeBytes === null ||
    !Number.isFinite(record.outputSizeBytes)
      ? null
      : Math.round(record.outputSizeBytes);
  return {
    id,
    executionId,
    toolName: cleanText(requireText("toolName", record.toolName, executionId), TOOL_NAME_MAX),
    parametersJson:
      record.parameters === undefined
        ? (begun?.parametersJson ?? null)
        : toJsonText("parameters", record.parameters, executionId),
    status,
    errorMessage: optionalText(record.errorMessage, ERROR_MESSAGE_MAX),
    errorCode: optionalText(record.errorCode, ERROR_CODE_MAX),
    startedAt,
    completedAt,
    durationMs,
    outputSizeBytes,
    sandboxId:
      record.sandboxId === undefined
        ? (begun?.sandboxId ?? null)
        : optionalText(record.sandboxId, SANDBOX_ID_MAX),
    agentId: record.agentId === undefined ? (begun?.agentId ?? null) : optionalText(record.agentId),
    userId: record.userId === undefined ? (begun?.userId ?? null) : optionalText(record.userId),
    batchId:
      record.batchId === undefined
        ? (begun?.batchId ?? null)
        : checkBatchId(record.batchId, executionId),
    metadataJson:
      record.metadata === undefined
        ? (begun?.metadataJson ?? null)
        : toJsonText("metadata", record.metadata, executionId),
    conversationId:
      record.conversationId === undefined
        ? (begun?.conversationId ?? null)
        : optionalText(record.conversationId),
    resultSummary:
      record.resultSummary === undefined || record.resultSummary === null
        ? null
        : truncateText(cleanText(String(record.resultSummary)), STORED_TEXT_MAX),
    wasApproved: record.wasApproved === true,
    timedOut: record.timedOut === true,
    wasCancelled: record.wasCancelled === true,
    ...decisionValues(record),
  };
}

/** The message of an `interrupted` row. */
export const INTERRUPTED_MESSAGE =
  "The process running this execution stopped before it finished; found when the store was next opened. completedAt is when it was found.";

/** The row that stands for an execution whose process died (status `interrupted`). */
export function interruptedRow(begun: InflightExecution, foundAt: Date): AuditRowValues {
  return {
    id: begun.id,
    executionId: begun.executionId,
    toolName: begun.toolName,
    parametersJson: begun.parametersJson,
    status: auditStatusCode(AuditStatus.Interrupted)!,
    errorMessage: INTERRUPTED_MESSAGE,
    errorCode: ToolErrorCode.Interrupted,
    startedAt: begun.startedAt,
    completedAt: foundAt,
    durationMs: Math.max(0, foundAt.getTime() - begun.startedAt.getTime()),
    outputSizeBytes: null,
    sandboxId: begun.sandboxId,
    agentId: begun.agentId,
    userId: begun.userId,
    batchId: begun.batchId,
    metadataJson: begun.metadataJson,
    conversationId: begun.conversationId,
    resultSummary: null,
    wasApproved: false,
    timedOut: false,
    wasCancelled: false,
    ...NO_DECISION,
  };
}

/** A row as a database driver returns it (column names as keys). */
export type StoredAuditRow = Record<string, unknown>;

function parseJson(text: unknown): JsonValue | null {
  if (typeof text !== "string") return null;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    // A row written by something else; show what is there rather than fail the whole page.
    return text;
  }
}

function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

function toNullableString(value: unknown): string | null {
  return value === null || value === undefined ? null : String(value);
}

function toFlag(value: unknown): boolean {
  return value === true || value === 1 || value === "1" || value === "t";
}

/** Reads a stored row back into a frozen {@link AuditEntry}, whichever dialect stored it. */
export function toAuditEntry(row: StoredAuditRow): AuditEntry {
  const metadata = parseJson(row.metadata_json);
  const status = auditStatusFromCode(Number(row.status));
  return Object.freeze({
    id: String(row.id),
    executionId: String(row.execution_id),
    toolName: String(row.tool_name),
    // An unknown code can only come from a newer writer; report it as failed, not crash.
    status: status ?? AuditStatus.Failed,
    parameters: parseJson(row.parameters_json),
    resultSummary: toNullableString(row.result_summary),
    errorMessage: toNullableString(row.error_message),
    errorCode: toNullableString(row.error_code),
    startedAt: toDate(row.started_at),
    completedAt: toDate(row.completed_at),
    durationMs: Number(row.duration_ms),
    outputSizeBytes:
      row.output_size_bytes === null || row.output_size_bytes === undefined
        ? null
        : Number(row.output_size_bytes),
    sandboxId: toNullableString(row.sandbox_id),
    agentId: toNullableString(row.agent_id),
    userId: toNullableString(row.user_id),
    conversationId: toNullableString(row.conversation_id),
    batchId: toNullableString(row.batch_id),
    metadata: isJsonObject(metadata) ? (metadata as JsonObject) : null,
    wasApproved: toFlag(row.was_approved),
    timedOut: toFlag(row.timed_out),
    wasCancelled: toFlag(row.was_cancelled),
    callId: toNullableString(row.call_id),
    sessionId: toNullableString(row.session_id),
    decision: toNullableString(row.decision) as AuditEntry["decision"],
    decidedBy: toNullableString(row.decided_by),
    approvalScope: toNullableString(row.approval_scope),
    grantId: toNullableString(row.grant_id),
    argumentsHash: toNullableString(row.arguments_hash),
    editedArgumentsHash: toNullableString(row.edited_arguments_hash),
  });
}

/**
 * A row as a journal's done line holds it (values in {@link AUDIT_COLUMNS} order, bound for
 * SQLite: dates as ISO text, flags as 0 / 1), checked and cleaned as `complete` would make it;
 * `undefined` when it cannot be a row. A journal is a file anyone with the folder can write.
 */
export function doneRowFrom(values: readonly unknown[]): AuditRowValues | undefined {
  if (values.length !== AUDIT_COLUMN_FIELDS.length) return undefined;
  const raw: Record<string, unknown> = {};
  AUDIT_COLUMN_FIELDS.forEach(([, field], index) => {
    raw[field] = values[index];
  });
  const text = (value: unknown, max?: number): string | null =>
    typeof value === "string" ? cleanText(replaceControlCharacters(value), max) : null;
  const date = (value: unknown): Date | undefined => {
    const parsed = typeof value === "string" ? new Date(value) : undefined;
    return parsed !== undefined && Number.isFinite(parsed.getTime()) ? parsed : undefined;
  };
  const count = (value: unknown): number | null =>
    typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.round(value) : null;
  const { id, executionId, toolName, status } = raw;
  const startedAt = date(raw.startedAt);
  const completedAt = date(raw.completedAt);
  if (typeof id !== "string" || keyTextProblem(id) !== undefined) return undefined;
  if (typeof executionId !== "string" || typeof toolName !== "string") return undefined;
  if (typeof status !== "number" || auditStatusFromCode(status) === undefined) return undefined;
  if (startedAt === undefined || completedAt === undefined) return undefined;
  const jsonText = (value: unknown): string | null =>
    typeof value === "string" ? capJson(value) : null;
  return {
    id,
    executionId: salvageKey(executionId),
    toolName: cleanText(replaceControlCharacters(toolName), TOOL_NAME_MAX),
    parametersJson: jsonText(raw.parametersJson),
    status,
    errorMessage: text(raw.errorMessage, ERROR_MESSAGE_MAX),
    errorCode: text(raw.errorCode, ERROR_CODE_MAX),
    startedAt,
    completedAt,
    durationMs: count(raw.durationMs) ?? Math.max(0, completedAt.getTime() - startedAt.getTime()),
    outputSizeBytes: count(raw.outputSizeBytes),
    sandboxId: text(raw.sandboxId, SANDBOX_ID_MAX),
    agentId: text(raw.agentId),
    userId: text(raw.userId),
    batchId: typeof raw.batchId === "string" ? salvageKey(raw.batchId) : null,
    metadataJson: jsonText(raw.metadataJson),
    conversationId: text(raw.conversationId),
    resultSummary:
      typeof raw.resultSummary === "string"
        ? truncateText(cleanText(replaceControlCharacters(raw.resultSummary)), STORED_TEXT_MAX)
        : null,
    wasApproved: raw.wasApproved === 1,
    timedOut: raw.timedOut === 1,
    wasCancelled: raw.wasCancelled === 1,
    callId: text(raw.callId),
    sessionId: text(raw.sessionId),
    decision: text(raw.decision),
    decidedBy: text(raw.decidedBy),
    approvalScope: text(raw.approvalScope),
    grantId: text(raw.grantId),
    argumentsHash: text(raw.argumentsHash),
    editedArgumentsHash: text(raw.editedArgumentsHash),
  };
}
