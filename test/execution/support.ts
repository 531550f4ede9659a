import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolExecutionContext } from "../../src/context/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import {
  ToolExecutor,
  type ToolExecutorConfig,
  type ToolExecutorEvents,
} from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchema } from "../../src/schema/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { MockTool, type MockToolConfig } from "../../src/testing/index.js";
import type { Tool } from "../../src/tools/index.js";
import { ToolValidationResult } from "../../src/validation/index.js";

/** An executor over a fresh registry holding `tools`. */
export function executorWith(
  tools: readonly Tool[],
  config: Omit<ToolExecutorConfig, "registry"> = {},
): ToolExecutor {
  return new ToolExecutor({ registry: new ToolRegistry({ tools }), ...config });
}

/** Every event name on the executor's bus. */
export const allEventNames: readonly (keyof ToolExecutorEvents)[] = [
  "executionStarted",
  "executionProgress",
  "executionCompleted",
  "executionEvent",
  "toolExecutionStarted",
  "toolExecutionCompleted",
  "toolExecutionFailed",
  "toolExecutionTimeout",
  "batchExecutionStarted",
  "batchExecutionCompleted",
];

/** One event as the bus carried it. */
export interface BusRecord {
  readonly name: keyof ToolExecutorEvents;
  readonly event: ToolExecutorEvents[keyof ToolExecutorEvents];
}

/** Records everything the executor's bus emits, in order. */
export function recordBus(executor: ToolExecutor): BusRecord[] {
  const records: BusRecord[] = [];
  for (const name of allEventNames) {
    executor.events.on(name, (event) => records.push({ name, event }));
  }
  return records;
}

/** A bus record's name, or `executionEvent:<eventType>` for per-execution events. */
export function busLabel(record: BusRecord): string {
  if (record.name === "executionEvent") {
    return `executionEvent:${(record.event as ToolExecutorEvents["executionEvent"]).eventType}`;
  }
  return record.name;
}

/** Reads an async iterable to its end. */
export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A promise with its resolve function outside. */
export interface Deferred<T> {
  readonly promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

/** A new {@link Deferred}. */
export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Resolves after `ms` milliseconds of real time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves after the pending microtasks and one turn of the event loop. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Polls `condition` every few milliseconds until it holds (or fails after `timeoutMs`). */
export async function waitFor(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("waitFor: condition not met in time");
    await sleep(2);
  }
}

/** A tool that stays running until its signal aborts (then reports a cancelled result). */
export function blockingTool(id: string, config: MockToolConfig = {}): MockTool {
  return new MockTool({
    id,
    ...config,
    executeFunc: (_context, signal) =>
      new Promise<ToolResult>((resolve) => {
        signal.addEventListener("abort", () => resolve(ToolResult.cancelled()), { once: true });
      }),
  });
}

/** A bare tool (no ToolBase: nothing validates or catches around `execute`). */
export function bareTool(id: string, name: string, execute: Tool["execute"]): Tool {
  return {
    id,
    name,
    description: "a bare tool, no ToolBase",
    category: ToolCategory.Custom,
    defaultRiskLevel: RiskLevel.Safe,
    inputSchema: JsonSchema.empty(),
    isAvailable: true,
    tags: [],
    requiredPermissions: [],
    requiresConfirmation: false,
    execute,
    validate: () => ToolValidationResult.valid(),
    getExecutionSummary: () => "raw",
    getEffectiveRiskLevel: () => RiskLevel.Safe,
  };
}

/** A bare tool whose `execute` rejects with a new `Error(message)`: it throws past ToolBase. */
export function rawThrowingTool(id: string, name: string, message: string): Tool {
  return bareTool(id, name, async () => {
    throw new Error(message);
  });
}

/** A tool that holds until `gate` resolves, counting how many of its runs are in flight. */
export function gatedTool(
  id: string,
  gate: () => Promise<void>,
  counter: { inFlight: number; maxInFlight: number; started: number },
): MockTool {
  return new MockTool({
    id,
    executeFunc: async (context: ToolExecutionContext) => {
      counter.started++;
      counter.inFlight++;
      counter.maxInFlight = Math.max(counter.maxInFlight, counter.inFlight);
      try {
        await gate();
        return ToolResult.succeeded({ executionId: context.executionId });
      } finally {
        counter.inFlight--;
      }
    },
  });
}

/** A SQLite store in its own temporary folder; `dispose` closes it and removes the folder. */
export interface TempStore {
  readonly store: Store;
  readonly path: string;
  dispose(): Promise<void>;
}

/** Opens `sqlite:<tmp>/audit.db`. */
export async function openTempStore(): Promise<TempStore> {
  const folder = mkdtempSync(join(tmpdir(), "aintern-exec-test-"));
  const path = join(folder, "audit.db");
  const store = await openStore(`sqlite:${path}`);
  return {
    store,
    path,
    async dispose() {
      await store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
