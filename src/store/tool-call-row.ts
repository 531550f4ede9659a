import {
  defaultToolCallSessionId,
  isToolCallStatus,
  type StoredToolCall,
  type ToolCallFilter,
  type ToolCallLifecycleRecord,
  type ToolCallSave,
  type ToolCallStatus,
} from "../calls/index.js";
import { isJsonObject, keyTextProblem } from "../core/index.js";
import { InvalidToolCallError } from "./invalid-tool-call-error.js";
import { fromStoredTime } from "./stored-time.js";

export type { ToolCallSave };

/** A `calls.save` argument, checked and ready for the `tool_calls` row. */
export interface ToolCallValues {
  readonly callId: string;
  readonly sessionId: string;
  readonly status: ToolCallStatus;
  readonly recordJson: string;
  /** The state the write is conditional on (see `ToolCallSave.expected`). */
  readonly expected: ToolCallStatus | null | undefined;
}

function key(field: string, value: unknown, callId?: string): string {
  if (typeof value !== "string" || value.length === 0) {
    throw new InvalidToolCallError(field, `Tool call ${field} must be a non-empty string.`, callId);
  }
  const problem = keyTextProblem(value);
  if (problem !== undefined) {
    throw new InvalidToolCallError(
      field,
      `Tool call ${field} ${problem}; nothing was saved.`,
      field === "callId" ? undefined : callId,
    );
  }
  return value;
}

/** Validates a `calls.save` argument: a call id, an optional session id, a record with a status. */
export function toToolCallValues(call: ToolCallSave): ToolCallValues {
  if (typeof call !== "object" || call === null) {
    throw new InvalidToolCallError(
      "call",
      "calls.save takes { callId, sessionId?, record, expected? }.",
    );
  }
  const callId = key("callId", call.callId);
  const sessionId =
    call.sessionId === undefined || call.sessionId === null
      ? defaultToolCallSessionId
      : key("sessionId", call.sessionId, callId);
  const expected = call.expected;
  if (expected !== undefined && expected !== null && !isToolCallStatus(expected)) {
    throw new InvalidToolCallError(
      "expected",
      `calls.save expected must be null or a ToolCallStatus, got ${String(expected)}.`,
      callId,
    );
  }
  const record: unknown = call.record;
  if (!isJsonObject(record) || !isToolCallStatus(record.status)) {
    throw new InvalidToolCallError(
      "record",
      `The record of tool call '${callId}' is not a tool call lifecycle record with a known status.`,
      callId,
    );
  }
  let recordJson: string;
  try {
    recordJson = JSON.stringify(record);
  } catch (error) {
    throw new InvalidToolCallError(
      "record",
      `The record of tool call '${callId}' cannot be written as JSON: ${String(error)}`,
      callId,
    );
  }
  return { callId, sessionId, status: record.status, recordJson, expected };
}

/** A checked list filter: statuses (undefined for any), session, and limit. */
export interface ToolCallQuery {
  readonly statuses: readonly ToolCallStatus[] | undefined;
  readonly sessionId: string | undefined;
  readonly limit: number | undefined;
}

/** Validates a `calls.list` filter; throws {@link InvalidToolCallError} for an unknown status. */
export function toToolCallQuery(filter: ToolCallFilter): ToolCallQuery {
  let statuses: ToolCallStatus[] | undefined;
  if (filter.status !== undefined) {
    statuses = [filter.status].flat();
    for (const status of statuses) {
      if (!isToolCallStatus(status)) {
        throw new InvalidToolCallError(
          "status",
          `'${String(status)}' is not a ToolCallStatus; use one of the ToolCallStatus values.`,
        );
      }
    }
  }
  const { limit } = filter;
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0)) {
    throw new InvalidToolCallError(
      "limit",
      `calls.list limit must be a whole number of at least 0, got ${String(limit)}.`,
    );
  }
  return {
    statuses,
    sessionId: filter.sessionId === undefined ? undefined : String(filter.sessionId),
    limit,
  };
}

/** A `tool_calls` row read back; throws {@link InvalidToolCallError} for a record that is not JSON. */
export function toStoredToolCall(row: {
  call_id: string;
  session_id: string;
  record_json: string;
  updated_at: Date | string;
}): StoredToolCall {
  let record: ToolCallLifecycleRecord;
  try {
    record = JSON.parse(row.record_json) as ToolCallLifecycleRecord;
  } catch (error) {
    throw new InvalidToolCallError(
      "record",
      `The stored record of tool call '${row.call_id}' is not JSON (was the row written by something else?): ${String(error)}`,
      row.call_id,
    );
  }
  return {
    callId: row.call_id,
    sessionId: row.session_id,
    record,
    updatedAt: fromStoredTime(row.updated_at),
  };
}
