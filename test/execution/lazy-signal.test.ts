import { afterEach, describe, expect, it, vi } from "vitest";
import { ServiceContainer, ToolExecutionContext } from "../../src/context/index.js";
import { Cancellation } from "../../src/core/index.js";
import { ToolExecutionStatus } from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchema } from "../../src/schema/index.js";
import { defineTool } from "../../src/tools/index.js";
import { bareTool, executorWith } from "./support.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** A defineTool tool that waits until its context is cancelled, then reports why. */
function waitsForCancellation(id: string, reasons: unknown[]) {
  return defineTool({
    id,
    name: id,
    description: "waits until cancelled",
    inputSchema: JsonSchema.empty(),
    execute: (_input, context) =>
      new Promise<ToolResult>((resolve) => {
        context.signal.addEventListener(
          "abort",
          () => {
            reasons.push(context.signal.reason);
            resolve(ToolResult.cancelled());
          },
          { once: true },
        );
      }),
  });
}

describe("the execution's abort signal is made only when something reads it", () => {
  it("makes no AbortSignal for an in-process tool that never reads its signal", async () => {
    const tool = defineTool({
      id: "quick",
      name: "Quick",
      description: "returns at once",
      inputSchema: JsonSchema.empty(),
      execute: () => ({ ok: true }),
    });
    const executor = executorWith([tool]);
    await executor.execute({ toolName: "quick" }); // warm: the registry and validator settle
    const made = vi.spyOn(AbortController.prototype, "signal", "get");
    const result = await executor.execute({ toolName: "quick" });
    expect(result.success).toBe(true);
    expect(made).not.toHaveBeenCalled();
  });

  it("still aborts the signal of a defineTool tool that reads it, with the timeout's reason", async () => {
    const reasons: unknown[] = [];
    const executor = executorWith([waitsForCancellation("waits", reasons)]);
    const result = await executor.execute({ toolName: "waits" }, { timeoutMs: 30 });
    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(reasons).toHaveLength(1);
    expect((reasons[0] as DOMException).name).toBe("TimeoutError");
  });

  it("passes a bare tool that declares a signal parameter the context's signal", async () => {
    const seen: { same: boolean; aborted: boolean }[] = [];
    const tool = bareTool("bare", "Bare", (context, signal) => {
      return new Promise<ToolResult>((resolve) => {
        signal?.addEventListener("abort", () => {
          seen.push({ same: signal === context.signal, aborted: context.signal.aborted });
          resolve(ToolResult.cancelled());
        });
      });
    });
    const executor = executorWith([tool]);
    const running = executor.execute({ toolName: "bare" }, { executionId: "bare-1" });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(executor.cancel("bare-1")).toBe(true);
    const result = await running;
    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(seen).toEqual([{ same: true, aborted: true }]);
  });

  it("cancels an AIntern execution when the caller's context cancellation aborts", async () => {
    const reasons: unknown[] = [];
    const executor = executorWith([waitsForCancellation("waits", reasons)]);
    const cancellation = new Cancellation();
    const context = new ToolExecutionContext({
      services: new ServiceContainer(),
      cancellation,
    });
    const running = executor.execute("waits", context);
    await new Promise((resolve) => setTimeout(resolve, 10));
    cancellation.abort("user stopped");
    const result = await running;
    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect((reasons[0] as DOMException).name).toBe("AbortError");
  });

  it("ends an AIntern execution whose context was cancelled before it started without running it", async () => {
    const run = vi.fn(() => ({ ok: true }));
    const tool = defineTool({
      id: "never",
      name: "Never",
      description: "must not run",
      inputSchema: JsonSchema.empty(),
      execute: run,
    });
    const executor = executorWith([tool]);
    const cancellation = new Cancellation();
    cancellation.abort();
    const context = new ToolExecutionContext({ services: new ServiceContainer(), cancellation });
    const result = await executor.execute("never", context);
    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(run).not.toHaveBeenCalled();
  });
});
