import { randomUUID } from "node:crypto";
import { AinternError } from "../core/index.js";
import type { ToolCallFormat } from "../providers/index.js";
import type { ToolResult } from "../result/index.js";
import { type Clock, systemClock } from "./clock.js";
import { ToolCallLifecycle, type ToolCallLifecycleConfig } from "./tool-call-lifecycle.js";
import type { ToolCallRequest } from "./tool-call-request.js";

/** The fields of a {@link ToolCallBatch}. */
export interface ToolCallBatchInit {
  /** Default: a new UUID. */
  batchId?: string;
  calls: readonly ToolCallRequest[];
  iterationNumber?: number;
  isParallel?: boolean;
  /** The provider format the calls came in (`parseToolCalls` sets it); answers default to it. */
  format?: ToolCallFormat;
  /** Default: now, from `clock`. */
  createdAt?: Date;
  /** Where `createdAt` and `complete()` read the time (default: the system clock). */
  clock?: Clock;
}

/**
 * The tool calls of one model response, processed together (spec 002 `ToolCallBatch`).
 *
 * The call list is fixed; the lifecycles, one per call and keyed by request id, are created by
 * {@link initializeLifecycles} (which {@link parseToolCalls} already calls) and then move on
 * their own. The counts read the lifecycles live.
 *
 * @example
 * ```ts
 * const batch = ToolCallBatch.multiple(requests, iteration);
 * batch.initializeLifecycles();
 * for (const call of batch.calls) await process(batch.getLifecycle(call)!);
 * batch.complete();
 * ```
 */
export class ToolCallBatch {
  /** Unique id of the batch. */
  readonly batchId: string;
  /** The calls, in the order the model gave them. */
  readonly calls: readonly ToolCallRequest[];
  /** The agent-loop iteration that produced the batch. */
  readonly iterationNumber: number;
  /** Whether the calls may run in parallel (the provider returned several at once). */
  readonly isParallel: boolean;
  /** The provider format the calls came in, when known: `toProviderMessages` answers in it. */
  readonly format: ToolCallFormat | undefined;
  /** When the batch was created. */
  readonly createdAt: Date;
  readonly #clock: Clock;
  readonly #lifecycles = new Map<string, ToolCallLifecycle>();
  #completedAt: Date | undefined;

  constructor(init: ToolCallBatchInit) {
    this.#clock = init.clock ?? systemClock;
    this.batchId = init.batchId ?? randomUUID();
    this.calls = Object.freeze([...init.calls]);
    this.iterationNumber = init.iterationNumber ?? 0;
    this.isParallel = init.isParallel ?? false;
    this.format = init.format;
    this.createdAt = new Date((init.createdAt ?? this.#clock()).getTime());
  }

  /** A batch of one call, not parallel. */
  static single(request: ToolCallRequest, iteration: number, clock?: Clock): ToolCallBatch {
    return new ToolCallBatch({
      calls: [request],
      iterationNumber: iteration,
      isParallel: false,
      clock,
    });
  }

  /** A batch of several calls, parallel unless `parallel` is false. */
  static multiple(
    requests: Iterable<ToolCallRequest>,
    iteration: number,
    parallel = true,
    clock?: Clock,
  ): ToolCallBatch {
    return new ToolCallBatch({
      calls: [...requests],
      iterationNumber: iteration,
      isParallel: parallel,
      clock,
    });
  }

  /** The lifecycles, keyed by request id. */
  get lifecycles(): ReadonlyMap<string, ToolCallLifecycle> {
    return this.#lifecycles;
  }

  /** When the batch was marked complete. */
  get completedAt(): Date | undefined {
    return this.#completedAt === undefined ? undefined : new Date(this.#completedAt);
  }

  /** The number of calls. */
  get count(): number {
    return this.calls.length;
  }

  /** Whether the batch holds exactly one call. */
  get isSingleCall(): boolean {
    return this.count === 1;
  }

  /**
   * Whether every call has reached a terminal state. A call without a lifecycle counts as
   * pending (the spec looks at lifecycles only, so an uninitialized batch would read as done).
   */
  get allCompleted(): boolean {
    return this.calls.every((call) => this.#lifecycles.get(call.id)?.isTerminal === true);
  }

  /** Whether any call has not reached a terminal state. */
  get hasPending(): boolean {
    return !this.allCompleted;
  }

  /** Calls that completed with a successful result. */
  get successCount(): number {
    return this.#count((l) => l.succeeded);
  }

  /** Calls that ended Failed, ValidationFailed or TimedOut (the spec's `Failed`). */
  get failureCount(): number {
    return this.#count((l) => l.failed);
  }

  /** Calls that were denied. */
  get deniedCount(): number {
    return this.#count((l) => l.wasDenied);
  }

  /** The results of the calls that have one, in call order. */
  get results(): readonly ToolResult[] {
    const results: ToolResult[] = [];
    for (const call of this.calls) {
      const result = this.#lifecycles.get(call.id)?.result;
      if (result !== undefined) results.push(result);
    }
    return results;
  }

  /** Milliseconds from creation to {@link complete}; undefined before. */
  get totalDurationMs(): number | undefined {
    if (this.#completedAt === undefined) return undefined;
    return this.#completedAt.getTime() - this.createdAt.getTime();
  }

  /**
   * Creates a lifecycle, in Parsed, for every call that has none yet. Unlike the spec it never
   * replaces an existing lifecycle, so calling it twice loses no state.
   */
  initializeLifecycles(config?: ToolCallLifecycleConfig): void {
    for (const call of this.calls) {
      if (!this.#lifecycles.has(call.id)) {
        this.#lifecycles.set(call.id, ToolCallLifecycle.forRequest(call, config));
      }
    }
  }

  /**
   * Puts a lifecycle (a restored one, say) in place for its call; throws an `AinternError` with
   * code `"UNKNOWN_TOOL_CALL"` when the lifecycle's request is not one of this batch's calls.
   */
  setLifecycle(lifecycle: ToolCallLifecycle): void {
    if (!this.calls.some((call) => call.id === lifecycle.id)) {
      throw new AinternError(
        "UNKNOWN_TOOL_CALL",
        `Tool call ${lifecycle.id} is not part of batch ${this.batchId}.`,
      );
    }
    this.#lifecycles.set(lifecycle.id, lifecycle);
  }

  /** The lifecycle of a call, by request id or request. */
  getLifecycle(request: string | ToolCallRequest): ToolCallLifecycle | undefined {
    return this.#lifecycles.get(typeof request === "string" ? request : request.id);
  }

  /** Marks the batch complete, now. */
  complete(): void {
    this.#completedAt = new Date(this.#clock().getTime());
  }

  /** `ToolCallBatch(3 calls, Parallel=true, Completed=false)`. */
  toString(): string {
    return `ToolCallBatch(${this.count} calls, Parallel=${this.isParallel}, Completed=${this.allCompleted})`;
  }

  #count(predicate: (lifecycle: ToolCallLifecycle) => boolean): number {
    let count = 0;
    for (const call of this.calls) {
      const lifecycle = this.#lifecycles.get(call.id);
      if (lifecycle !== undefined && predicate(lifecycle)) count++;
    }
    return count;
  }
}
