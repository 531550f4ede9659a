import { ToolErrorCode, type TypedEventEmitter, timeOrderedUuid } from "../core/index.js";
import { ToolResult } from "../result/index.js";
import type { ExecutionTelemetrySink, Logger } from "../telemetry/index.js";
import type { AuditRecord } from "./index.js";
import {
  canExecuteParallel,
  type LicenseTier,
  licenseTierName,
  maxBatchSizeForTier,
  maxParallelismForTier,
} from "./license.js";
import { ToolExecutionError } from "./tool-execution-error.js";
import type { ToolExecutionOptions } from "./tool-execution-options.js";
import { ToolExecutionResult } from "./tool-execution-result.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";
import type { ToolExecutorEvents } from "./tool-executor-events.js";
import type { ToolInput } from "./tool-input.js";

/** What {@link executeBatch} needs from the executor. */
export interface BatchRunner {
  runInput(
    input: ToolInput,
    options: ToolExecutionOptions,
    signal: AbortSignal | undefined,
    batchId: string,
  ): Promise<ToolExecutionResult>;
  readonly tier: LicenseTier;
  /** The executor's bulkhead: it wins over the batch's and the tier's parallelism. */
  readonly maxConcurrentExecutions: number;
  readonly events: TypedEventEmitter<ToolExecutorEvents>;
  readonly logger: Logger;
  readonly telemetry: ExecutionTelemetrySink;
  audit(record: AuditRecord): Promise<void>;
}

/**
 * Runs a batch (Lexichord `ExecuteBatchAsync`).
 *
 * - The batch id is `options.executionId` (or a new UUID); every item gets its own execution id.
 * - Over the tier's size limit: throws {@link ToolExecutionError} (code `BATCH_TOO_LARGE`) before
 *   anything runs.
 * - Parallel when `allowParallel` and the tier allows it, with at most
 *   min(`maxParallelism`, the tier's limit, `maxConcurrentExecutions`) in flight (the executor's
 *   bulkhead wins, and a cap below what was asked is logged as a warning); otherwise sequential
 *   (the spec's fallback).
 * - `continueOnFailure: false` stops at the first item that does not complete: the items not yet
 *   started are reported as not run (status `cancelled`, error code `NotRun`).
 * - Aborting `signal` cancels the running items and skips the pending ones (also `NotRun`).
 * - Results come back in input order, one per input.
 */
export async function executeBatch(
  runner: BatchRunner,
  inputs: readonly ToolInput[],
  options: ToolExecutionOptions,
  signal: AbortSignal | undefined,
): Promise<ToolExecutionResult[]> {
  if (!Array.isArray(inputs)) {
    throw new ToolExecutionError(
      "INVALID_ARGUMENT",
      "executeBatch(inputs) needs an array of ToolInput",
    );
  }
  const tier = runner.tier;
  const maxSize = maxBatchSizeForTier(tier);
  if (inputs.length > maxSize) {
    runner.logger.warn(
      { count: inputs.length, max: maxSize, tier: licenseTierName(tier) },
      `[TLS-EXE] Batch size exceeds limit. Count: ${inputs.length}, Max: ${maxSize}, Tier: ${licenseTierName(tier)}`,
    );
    throw new ToolExecutionError(
      "BATCH_TOO_LARGE",
      `Batch size (${inputs.length}) exceeds limit (${maxSize}) for ${licenseTierName(tier)} tier.`,
    );
  }

  const batchId = options.executionId ?? timeOrderedUuid();
  const parallel = options.allowParallel === true && canExecuteParallel(tier);
  const asked = Math.max(1, Math.min(options.maxParallelism ?? 1, maxParallelismForTier(tier)));
  const concurrency = parallel ? Math.min(asked, runner.maxConcurrentExecutions) : 1;
  if (parallel && concurrency < asked && concurrency < inputs.length) {
    runner.logger.warn(
      { batchId, asked, maxConcurrentExecutions: concurrency },
      `[TLS-EXE] Batch parallelism ${asked} capped by maxConcurrentExecutions (${concurrency}); raise it in ToolExecutorOptions to run more at once.`,
    );
  }
  const continueOnFailure = options.continueOnFailure ?? true;
  const itemOptions = { ...options, executionId: undefined };
  runner.telemetry.recordBatch(inputs.length, parallel);
  runner.events.emit("batchExecutionStarted", {
    batchId,
    toolCount: inputs.length,
    isParallel: parallel,
    timestamp: new Date(),
  });

  const results: (ToolExecutionResult | undefined)[] = new Array(inputs.length).fill(undefined);
  let stopReason: string | undefined;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < inputs.length) {
      if (signal?.aborted === true) stopReason ??= "the batch was cancelled";
      if (stopReason !== undefined) return;
      const index = next++;
      const input = inputs[index]!;
      const result = await runner.runInput(input, itemOptions, signal, batchId);
      results[index] = result;
      if (!continueOnFailure && result.status !== ToolExecutionStatus.Completed) {
        stopReason ??= `an earlier call ('${input.toolName}') ended with status ${result.status} and continueOnFailure is false`;
        runner.logger.info(
          { toolName: input.toolName, status: result.status },
          `[TLS-EXE] Batch execution stopped due to failure. Tool: ${input.toolName}, Status: ${result.status}`,
        );
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.min(concurrency, Math.max(1, inputs.length)) }, worker),
  );

  const finished: ToolExecutionResult[] = [];
  for (let i = 0; i < inputs.length; i++) {
    finished.push(results[i] ?? (await notRun(runner, inputs[i]!, batchId, stopReason)));
  }
  const successCount = finished.filter((r) => r.status === ToolExecutionStatus.Completed).length;
  runner.logger.info(
    {
      batchId,
      total: finished.length,
      success: successCount,
      failed: finished.length - successCount,
    },
    `[TLS-EXE] Batch execution completed. ExecutionId: ${batchId}, Total: ${finished.length}, Success: ${successCount}, Failed: ${finished.length - successCount}`,
  );
  runner.events.emit("batchExecutionCompleted", {
    batchId,
    totalCount: finished.length,
    successCount,
    failedCount: finished.length - successCount,
    timestamp: new Date(),
  });
  return finished;
}

/** The result of an item that never ran; audited too, so every item id has its row. */
async function notRun(
  runner: BatchRunner,
  input: ToolInput,
  batchId: string,
  reason: string | undefined,
): Promise<ToolExecutionResult> {
  const now = new Date();
  const result = new ToolExecutionResult({
    toolId: input.toolName,
    executionId: timeOrderedUuid(),
    result: ToolResult.failed(`Not run: ${reason ?? "the batch stopped"}.`, ToolErrorCode.NotRun),
    status: ToolExecutionStatus.Cancelled,
    startedAt: now,
    completedAt: now,
    durationMs: 0,
    wasCancelled: true,
    input,
    batchId,
  });
  await runner.audit({
    executionId: result.executionId,
    toolName: input.toolName,
    status: result.status,
    errorMessage: result.errorMessage ?? null,
    errorCode: ToolErrorCode.NotRun,
    startedAt: now,
    completedAt: now,
    durationMs: 0,
    batchId,
    wasCancelled: true,
  });
  return result;
}
