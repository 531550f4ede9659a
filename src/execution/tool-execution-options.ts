import type { ToolProgress } from "../context/index.js";
import type { ToolInput } from "./tool-input.js";

/**
 * Per-call options of the Lexichord contract (`execute(input, options)`, `executeBatch`).
 * Everything is optional.
 */
export interface ToolExecutionOptions {
  /** The execution's id (a batch's id for `executeBatch`); a new UUID when absent. */
  readonly executionId?: string;
  /**
   * The call's timeout. It can shorten the tool's own `constraints.maxExecutionTimeMs` but never
   * extend it; without either, the executor's `defaultTimeoutMs` applies.
   */
  readonly timeoutMs?: number;
  /** Ask for confirmation even when the tool does not require it. */
  readonly requireConfirmation?: boolean;
  /**
   * Asked when confirmation is needed; resolve true to run. Without one, a call that needs
   * confirmation ends with status `requiresConfirmation`. A callback that throws counts as a no.
   */
  readonly confirmationCallback?: (
    input: ToolInput,
    signal: AbortSignal,
  ) => boolean | Promise<boolean>;
  /**
   * The call this execution answers (a provider's tool call id): carried on every event and
   * progress report of the execution and into the tool's context as `toolCallId`. Wins over
   * `ToolInput.callId`.
   */
  readonly callId?: string;
  /** The session (conversation) the call belongs to: carried like `callId`, and into the context. */
  readonly sessionId?: string;
  /**
   * Receives the tool's progress reports (`context.reportProgress`), whatever the license tier;
   * each report's execution is the one this call started. A callback that throws is ignored.
   */
  readonly onProgress?: (progress: ToolProgress) => void;
  /**
   * Says the call was already approved by whoever sent it, and by whom: a `ToolCallProcessor`
   * that ran its own policy and asked its handler, a host framework's approval flow (AI SDK
   * `needsApproval`, OpenAI Agents interruptions), a person in a console. The executor then skips
   * its approval gate and the confirmation step (the AIntern path's equivalent is a context
   * built with `isApproved: true`). Only for code that made the decision itself: never set it
   * from anything the model sent.
   */
  readonly approvedBy?: string;
  /** Extra context handed to the authorizer and into the tool's context metadata. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** Batches: keep going after an item fails (default true, as the spec has it). */
  readonly continueOnFailure?: boolean;
  /** Batches: run items in parallel where the license tier allows (default false). */
  readonly allowParallel?: boolean;
  /** Batches: the most items in flight at once (default 1); capped by the tier. */
  readonly maxParallelism?: number;
}

/**
 * The executor's own settings (the AIntern `ToolExecutionOptions`, renamed so the two option
 * types the specs share a name for stay apart).
 */
export interface ToolExecutorOptions {
  /** The timeout when neither the call nor the tool gives one. Default 60,000 ms (Lexichord). */
  readonly defaultTimeoutMs?: number;
  /**
   * How many tool runs may be in flight across the whole executor (a bulkhead). It always wins:
   * a parallel batch runs at most min(`maxParallelism`, the tier's limit, this) items at once.
   * Default: the widest parallelism the license allows, never below 3 (the AIntern spec's
   * default): 3 on Core and WriterPro, 10 on Teams, max(10, 2 x CPU cores) on Enterprise and
   * without a license (see {@link defaultMaxConcurrentExecutions}). Waiting for a confirmation
   * does not hold a slot, and a parallel batch takes one slot per running item, so a batch can
   * never deadlock the bulkhead.
   */
  readonly maxConcurrentExecutions?: number;
  /** How many runs may wait for a slot; one more is refused with `ConcurrencyLimit`. Default 1,000. */
  readonly maxQueuedExecutions?: number;
  /** Log parameters (default false: logs show them as `[redacted]`). */
  readonly logParameters?: boolean;
  /** Log a summary of each result (default true). */
  readonly logResults?: boolean;
  /** How many finished executions `observe()` can still replay: 0 to 1,000,000. Default 1,000. */
  readonly retainFinishedExecutions?: number;
}

/** {@link ToolExecutorOptions} with every default filled in. */
export type ResolvedToolExecutorOptions = Required<ToolExecutorOptions>;

/**
 * Fills in the defaults of {@link ToolExecutorOptions} and checks the numbers.
 * `maxConcurrentExecutions` defaults to `defaultConcurrency` (the executor passes
 * {@link defaultMaxConcurrentExecutions} of its license tier; 3 when not given).
 */
export function resolveExecutorOptions(
  options: ToolExecutorOptions = {},
  defaultConcurrency = 3,
): ResolvedToolExecutorOptions {
  const resolved: ResolvedToolExecutorOptions = {
    defaultTimeoutMs: options.defaultTimeoutMs ?? 60_000,
    maxConcurrentExecutions: options.maxConcurrentExecutions ?? defaultConcurrency,
    maxQueuedExecutions: options.maxQueuedExecutions ?? 1_000,
    logParameters: options.logParameters ?? false,
    logResults: options.logResults ?? true,
    retainFinishedExecutions: options.retainFinishedExecutions ?? 1_000,
  };
  positive("defaultTimeoutMs", resolved.defaultTimeoutMs);
  positive("maxConcurrentExecutions", resolved.maxConcurrentExecutions);
  nonNegative("maxQueuedExecutions", resolved.maxQueuedExecutions);
  integerUpTo("retainFinishedExecutions", resolved.retainFinishedExecutions, 1_000_000);
  return resolved;
}

function positive(name: string, value: number): void {
  if (!(value > 0)) throw new RangeError(`ToolExecutorOptions.${name} must be > 0, got ${value}`);
}

function nonNegative(name: string, value: number): void {
  if (!(value >= 0)) throw new RangeError(`ToolExecutorOptions.${name} must be >= 0, got ${value}`);
}

function integerUpTo(name: string, value: number, max: number): void {
  if (!(Number.isInteger(value) && value >= 0 && value <= max)) {
    throw new RangeError(
      `ToolExecutorOptions.${name} must be a whole number from 0 to ${max.toLocaleString("en-US")}, got ${value}`,
    );
  }
}

/**
 * The timeout of one execution: the smaller of the call's and the tool's limits; the executor
 * default when neither is given. A per-call timeout can shorten the tool's limit, never extend it.
 */
export function effectiveTimeoutMs(
  perCallMs: number | undefined,
  toolMaxMs: number | undefined,
  defaultMs: number,
): number {
  const limits = [perCallMs, toolMaxMs].filter(
    (ms): ms is number => ms !== undefined && Number.isFinite(ms) && ms > 0,
  );
  return limits.length === 0 ? defaultMs : Math.min(...limits);
}
