import { describe, expect, it } from "vitest";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchema } from "../../src/schema/index.js";
import { defineTool } from "../../src/tools/index.js";
import { executorWith, openTempStore } from "./support.js";

const sync = defineTool({
  id: "sync",
  name: "sync",
  description: "returns at once, never awaits",
  inputSchema: JsonSchema.empty(),
  execute: () => ToolResult.succeeded(),
});

describe("a long stream of synchronous executions", () => {
  it("lets a timer fire while it runs (no audit log)", async () => {
    const executor = executorWith([sync], { options: { maxConcurrentExecutions: 64 } });
    let fired = false;
    setTimeout(() => {
      fired = true;
    }, 1);
    let done = 0;
    // Stops as soon as the timer has fired; without yielding it could never fire mid-stream.
    const worker = async () => {
      while (!fired && done < 200_000) {
        await executor.execute({ toolName: "sync" });
        done++;
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    expect(fired).toBe(true);
    expect(done).toBeLessThan(200_000);
  });

  it("lets a timer fire while it runs with a SQLite audit log", async () => {
    const temp = await openTempStore();
    const store = temp.store;
    try {
      const executor = executorWith([sync], {
        audit: store.audit,
        options: { maxConcurrentExecutions: 64 },
      });
      let fired = false;
      setTimeout(() => {
        fired = true;
      }, 1);
      let done = 0;
      const worker = async () => {
        while (!fired && done < 50_000) {
          await executor.execute({ toolName: "sync" });
          done++;
        }
      };
      await Promise.all(Array.from({ length: 64 }, worker));
      expect(fired).toBe(true);
      expect(done).toBeLessThan(50_000);
    } finally {
      await temp.dispose();
    }
  });
});

describe("an execution id that cannot be stored", () => {
  it.each([
    ["3,000 characters", "x".repeat(3000)],
    ["a NUL byte", "a\u0000b"],
    ["a newline", "a\nb"],
  ])("is refused before anything runs: %s", async (_what, executionId) => {
    let ran = false;
    const executor = executorWith([
      defineTool({
        id: "spy",
        name: "spy",
        description: "spy",
        inputSchema: JsonSchema.empty(),
        execute: () => {
          ran = true;
          return ToolResult.succeeded();
        },
      }),
    ]);
    await expect(executor.execute({ toolName: "spy" }, { executionId })).rejects.toMatchObject({
      code: "INVALID_EXECUTION_ID",
    });
    expect(ran).toBe(false);
    expect(executor.isExecuting(executionId)).toBe(false);
  });
});
