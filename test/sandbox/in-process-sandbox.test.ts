import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ToolExecutionContext, ToolExecutionContextBuilder } from "../../src/context/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import { ToolResult } from "../../src/result/index.js";
import { InProcessSandbox } from "../../src/sandbox/process.js";
import { JsonSchema } from "../../src/schema/index.js";
import type { Tool } from "../../src/tools/index.js";
import { ToolValidationResult } from "../../src/validation/index.js";

/** A bare tool (no ToolBase) whose execute is `run`. */
function toolRunning(run: Tool["execute"]): Tool {
  return {
    id: "bare",
    name: "Bare",
    description: "a bare tool",
    category: ToolCategory.Custom,
    defaultRiskLevel: RiskLevel.Safe,
    inputSchema: JsonSchema.empty(),
    isAvailable: true,
    tags: [],
    requiredPermissions: [],
    requiresConfirmation: false,
    execute: run,
    validate: () => ToolValidationResult.valid(),
    getExecutionSummary: () => "bare",
    getEffectiveRiskLevel: () => RiskLevel.Safe,
  };
}

function contextWith(signal: AbortSignal): ToolExecutionContext {
  return ToolExecutionContextBuilder.create().withCancellation(signal).buildForTesting();
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on("unhandledRejection", onUnhandled);
});
afterEach(() => {
  process.off("unhandledRejection", onUnhandled);
});

describe("InProcessSandbox", () => {
  const sandbox = new InProcessSandbox();

  it("is named in-process", () => {
    expect(sandbox.name).toBe("in-process");
  });

  it("runs the tool with the context and the signal, and resolves with its result", async () => {
    const controller = new AbortController();
    const context = contextWith(controller.signal);
    const result = ToolResult.succeeded({ n: 1 });
    let seen: [ToolExecutionContext, AbortSignal | undefined] | undefined;
    const tool = toolRunning(async (ctx, signal) => {
      seen = [ctx, signal];
      return result;
    });

    const outcome = await sandbox.run(tool, context, {
      signal: controller.signal,
      timeoutMs: 1_000,
    });

    expect(outcome).toEqual({ kind: "completed", result });
    expect(seen?.[0]).toBe(context);
    expect(seen?.[1]).toBe(controller.signal);
  });

  it("reports a tool that throws synchronously as threw", async () => {
    const error = new Error("sync boom");
    const tool = toolRunning(() => {
      throw error;
    });

    const outcome = await sandbox.run(tool, contextWith(new AbortController().signal), {
      signal: new AbortController().signal,
      timeoutMs: 1_000,
    });

    expect(outcome).toEqual({ kind: "threw", error });
  });

  it("reports a tool whose promise rejects as threw", async () => {
    const tool = toolRunning(async () => {
      throw new TypeError("async boom");
    });

    const outcome = await sandbox.run(tool, contextWith(new AbortController().signal), {
      signal: new AbortController().signal,
      timeoutMs: 1_000,
    });

    expect(outcome.kind).toBe("threw");
    expect(outcome.kind === "threw" && (outcome.error as Error).message).toBe("async boom");
  });

  it("does not start the tool when the signal is already aborted", async () => {
    let ran = false;
    const tool = toolRunning(async () => {
      ran = true;
      return ToolResult.succeeded();
    });

    const outcome = await sandbox.run(tool, contextWith(AbortSignal.abort()), {
      signal: AbortSignal.abort(),
      timeoutMs: 1_000,
    });

    expect(outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
    expect(ran).toBe(false);
  });

  it("reports a cooperative tool that stops on abort as stopped", async () => {
    const controller = new AbortController();
    const tool = toolRunning(
      (_ctx, signal) =>
        new Promise((resolve) => {
          signal?.addEventListener("abort", () => resolve(ToolResult.cancelled()), { once: true });
        }),
    );

    const running = sandbox.run(tool, contextWith(controller.signal), {
      signal: controller.signal,
      timeoutMs: 1_000,
    });
    controller.abort();

    expect(await running).toEqual({ kind: "aborted", mayStillBeRunning: false });
  });

  it("reports a cooperative tool that rejects on abort as stopped, with no unhandled rejection", async () => {
    const controller = new AbortController();
    const tool = toolRunning(
      (_ctx, signal) =>
        new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
        }),
    );

    const running = sandbox.run(tool, contextWith(controller.signal), {
      signal: controller.signal,
      timeoutMs: 1_000,
    });
    controller.abort();

    expect(await running).toEqual({ kind: "aborted", mayStillBeRunning: false });
    await sleep(5);
    expect(unhandled).toEqual([]);
  });

  it("resolves at once when a tool ignores the abort, saying it may still be running", async () => {
    const controller = new AbortController();
    let finished = false;
    const tool = toolRunning(async () => {
      await sleep(100);
      finished = true;
      throw new Error("late failure nobody awaits");
    });

    const running = sandbox.run(tool, contextWith(controller.signal), {
      signal: controller.signal,
      timeoutMs: 1_000,
    });
    await sleep(5);
    controller.abort();
    const outcome = await running;

    // The outcome came before the tool's 100 ms were over: the sandbox did not wait for it.
    expect(outcome).toEqual({ kind: "aborted", mayStillBeRunning: true });
    expect(finished).toBe(false);
    await sleep(130);
    expect(finished).toBe(true);
    expect(unhandled).toEqual([]);
  });

  it("ignores the tool's result when the signal aborted first", async () => {
    const controller = new AbortController();
    const tool = toolRunning(async () => {
      controller.abort();
      return ToolResult.succeeded("too late");
    });

    const outcome = await sandbox.run(tool, contextWith(controller.signal), {
      signal: controller.signal,
      timeoutMs: 1_000,
    });

    expect(outcome).toEqual({ kind: "aborted", mayStillBeRunning: false });
  });

  it("removes its abort listener once the run is over", async () => {
    const controller = new AbortController();
    const tool = toolRunning(async () => ToolResult.succeeded());

    for (let i = 0; i < 10; i++) {
      await sandbox.run(tool, contextWith(controller.signal), {
        signal: controller.signal,
        timeoutMs: 1_000,
      });
    }

    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });
});
