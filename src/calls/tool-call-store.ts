import type { ToolCallLifecycleRecord } from "./tool-call-lifecycle-record.js";
import { ToolCallStatus } from "./tool-call-status.js";

/** One stored call: its key (session id, call id) and its lifecycle record. */
export interface StoredToolCall {
  readonly callId: string;
  /** The session the call belongs to (`"default"` for a call saved without one). */
  readonly sessionId: string;
  readonly record: ToolCallLifecycleRecord;
  readonly updatedAt: Date;
}

/** Filter for {@link ToolCallStore.list}. */
export interface ToolCallFilter {
  readonly status?: ToolCallStatus | readonly ToolCallStatus[];
  readonly sessionId?: string;
  readonly limit?: number;
}

/** The session of a call saved or read without one. */
export const defaultToolCallSessionId = "default";

/** What {@link ToolCallStore.save} is given. */
export interface ToolCallSave {
  readonly callId: string;
  /** Default {@link defaultToolCallSessionId}. */
  readonly sessionId?: string | null;
  readonly record: ToolCallLifecycleRecord;
  /**
   * Write only from the state the writer read (compare-and-set): `null` when the call must not
   * be stored yet (a claim: of writers racing on a new call, exactly one wins), a status when the
   * stored record must still have it. A write from `Executing` also replaces a record that
   * another process marked interrupted (the owner's real outcome wins). Left out, the record is
   * written whatever is stored.
   */
  readonly expected?: ToolCallStatus | null;
}

/**
 * Where the processor keeps each call's lifecycle (the `tool_calls` table of `openStore`, or
 * {@link MemoryToolCallStore}), keyed by (session id, call id): a call id seen in another
 * session is another call. After a restart, calls awaiting approval are still pending,
 * completed calls are never executed again, and calls that were executing when the process died
 * are marked failed as interrupted.
 */
export interface ToolCallStore {
  /** Writes the call's record (see {@link ToolCallSave.expected}); resolves whether it wrote. */
  save(call: ToolCallSave): Promise<boolean>;
  /** The call `callId` of `sessionId` (default {@link defaultToolCallSessionId}). */
  get(callId: string, sessionId?: string): Promise<StoredToolCall | undefined>;
  /** Newest first. */
  list(filter?: ToolCallFilter): Promise<StoredToolCall[]>;
  /**
   * Marks every call still `Executing` as `Failed` ("interrupted: the process stopped while the
   * call was executing"); returns how many. `openStore` runs it on open.
   */
  markInterrupted(): Promise<number>;
  /**
   * True when the call is `Executing` under an owner that is still alive elsewhere (another
   * process sharing the database), so it must be neither run again nor marked interrupted.
   * Optional: without it, a stored `Executing` call not running in this process counts as
   * abandoned.
   */
  isExecutingElsewhere?(callId: string, sessionId?: string): Promise<boolean>;
}

/** The message an interrupted call fails with. */
export const interruptedCallMessage =
  "Interrupted: the process stopped while the call was executing; it may or may not have taken effect.";

/** Turns an `Executing` record into a `Failed` one, as {@link ToolCallStore.markInterrupted} does. */
export function interruptRecord(
  record: ToolCallLifecycleRecord,
  at: Date,
): ToolCallLifecycleRecord {
  if (record.status !== ToolCallStatus.Executing) return record;
  return {
    ...record,
    status: ToolCallStatus.Failed,
    errorMessage: interruptedCallMessage,
    executionCompleted: at.toISOString(),
    transitions: [
      ...record.transitions,
      { from: ToolCallStatus.Executing, to: ToolCallStatus.Failed, at: at.toISOString() },
    ],
  };
}

/** Whether a stored record is one that was marked interrupted (its owner's save may replace it). */
export function isInterruptedRecord(record: ToolCallLifecycleRecord): boolean {
  return record.status === ToolCallStatus.Failed && record.errorMessage === interruptedCallMessage;
}

/** A {@link ToolCallStore} in memory (lost on restart). */
export class MemoryToolCallStore implements ToolCallStore {
  readonly #calls = new Map<string, StoredToolCall>();

  async save(call: ToolCallSave): Promise<boolean> {
    const sessionId = call.sessionId ?? defaultToolCallSessionId;
    const key = memoryKey(sessionId, call.callId);
    const current = this.#calls.get(key);
    if (call.expected !== undefined && !matchesExpected(current?.record, call.expected)) {
      return false;
    }
    this.#calls.delete(key); // re-insert: Map order is update order
    this.#calls.set(key, {
      callId: call.callId,
      sessionId,
      record: structuredClone(call.record),
      updatedAt: new Date(),
    });
    return true;
  }

  async get(
    callId: string,
    sessionId = defaultToolCallSessionId,
  ): Promise<StoredToolCall | undefined> {
    const stored = this.#calls.get(memoryKey(sessionId, callId));
    return stored === undefined ? undefined : { ...stored, record: structuredClone(stored.record) };
  }

  async list(filter: ToolCallFilter = {}): Promise<StoredToolCall[]> {
    const statuses = filter.status === undefined ? undefined : new Set([filter.status].flat());
    const out = [...this.#calls.values()]
      .reverse()
      .filter((c) => statuses === undefined || statuses.has(c.record.status))
      .filter((c) => filter.sessionId === undefined || c.sessionId === filter.sessionId);
    return out.slice(0, filter.limit ?? out.length);
  }

  async markInterrupted(): Promise<number> {
    let count = 0;
    const now = new Date();
    for (const [id, call] of this.#calls) {
      if (call.record.status === ToolCallStatus.Executing) {
        this.#calls.set(id, { ...call, record: interruptRecord(call.record, now), updatedAt: now });
        count++;
      }
    }
    return count;
  }
}

function memoryKey(sessionId: string, callId: string): string {
  return `${sessionId}\u0000${callId}`;
}

/** Whether the stored record (undefined: none) is in the state a conditional save expects. */
export function matchesExpected(
  record: ToolCallLifecycleRecord | undefined,
  expected: ToolCallStatus | null,
): boolean {
  if (expected === null) return record === undefined;
  if (record === undefined) return false;
  if (record.status === expected) return true;
  return expected === ToolCallStatus.Executing && isInterruptedRecord(record);
}
