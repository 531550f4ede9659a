import type { ToolCallLifecycleRecord } from "./tool-call-lifecycle-record.js";
import { ToolCallStatus } from "./tool-call-status.js";

/** One stored call: its idempotency key (the provider's call id) and its lifecycle record. */
export interface StoredToolCall {
  readonly callId: string;
  readonly sessionId: string | null;
  readonly record: ToolCallLifecycleRecord;
  readonly updatedAt: Date;
}

/** Filter for {@link ToolCallStore.list}. */
export interface ToolCallFilter {
  readonly status?: ToolCallStatus | readonly ToolCallStatus[];
  readonly sessionId?: string;
  readonly limit?: number;
}

/**
 * Where the processor keeps each call's lifecycle (the `tool_calls` table of `openStore`, or
 * {@link MemoryToolCallStore}), keyed by the provider's call id: after a restart, calls awaiting
 * approval are still pending, completed calls are never executed again, and calls that were
 * executing when the process died are marked failed as interrupted.
 */
export interface ToolCallStore {
  /** Inserts or replaces the call's record. */
  save(call: {
    callId: string;
    sessionId?: string | null;
    record: ToolCallLifecycleRecord;
  }): Promise<void>;
  get(callId: string): Promise<StoredToolCall | undefined>;
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
  isExecutingElsewhere?(callId: string): Promise<boolean>;
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

/** A {@link ToolCallStore} in memory (lost on restart). */
export class MemoryToolCallStore implements ToolCallStore {
  readonly #calls = new Map<string, StoredToolCall>();

  async save(call: { callId: string; sessionId?: string | null; record: ToolCallLifecycleRecord }) {
    this.#calls.delete(call.callId); // re-insert: Map order is update order
    this.#calls.set(call.callId, {
      callId: call.callId,
      sessionId: call.sessionId ?? null,
      record: structuredClone(call.record),
      updatedAt: new Date(),
    });
  }

  async get(callId: string): Promise<StoredToolCall | undefined> {
    const stored = this.#calls.get(callId);
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
