import { describe, expect, it } from "vitest";
import { ToolErrorCode } from "../../src/core/index.js";
import {
  allowAllAuthorizer,
  LicenseTier,
  staticLicense,
  ToolExecutionError,
  type ToolExecutionEvent,
  ToolExecutionStatus,
  ToolExecutor,
  type ToolExecutorConfig,
  type ToolInput,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchemaBuilder } from "../../src/schema/index.js";
import { MockTool } from "../../src/testing/index.js";
import {
  blockingTool,
  collect,
  deferred,
  executorWith,
  openTempStore,
  waitFor,
} from "./support.js";

/** The spec's fixture: a Teams license and an authorizer that says yes. */
function teamsExecutor(...tools: MockTool[]) {
  return executorWith(tools, {
    license: staticLicense(LicenseTier.Teams),
    authorizer: allowAllAuthorizer,
  });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

describe("ToolExecutor: the Lexichord executor (spec 003 section 11 unit tests)", () => {
  it("ExecuteAsync_ValidTool_ReturnsSuccess", async () => {
    const executor = teamsExecutor(MockTool.succeeding("test-tool"));

    const result = await executor.execute({ toolName: "test-tool" }, {});

    expect(result.status).toBe(ToolExecutionStatus.Completed);
  });

  it("ExecuteAsync_ToolNotFound_ReturnsFailed", async () => {
    const executor = teamsExecutor();

    const result = await executor.execute({ toolName: "missing" }, {});

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.errorCode).toBe(ToolErrorCode.ToolNotFound);
  });

  it("ExecuteAsync_Timeout_ReturnsTimeout", async () => {
    const executor = teamsExecutor(MockTool.delayed("slow-tool", 5_000));

    const started = performance.now();
    const result = await executor.execute({ toolName: "slow-tool" }, { timeoutMs: 100 });

    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(result.timedOut).toBe(true);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("ExecuteBatchAsync_MultipleTools_ExecutesAll", async () => {
    const executor = teamsExecutor(MockTool.succeeding("batch-tool"));
    const inputs = Array.from({ length: 5 }, () => ({ toolName: "batch-tool" }));

    const results = await executor.executeBatch(inputs, {});

    expect(results).toHaveLength(5);
    for (const result of results) expect(result.status).toBe(ToolExecutionStatus.Completed);
  });
});

describe("ToolExecutor: acceptance criteria of spec 003 section 9", () => {
  it("1. a single tool execution completes successfully, with the input and metadata on its result", async () => {
    const executor = teamsExecutor(MockTool.succeeding("test-tool", { ok: 1 }));
    const input: ToolInput = { toolName: "test-tool", parameters: { a: 1 } };

    const result = await executor.execute(input, { executionId: "exec-1" });

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.input).toBe(input);
    expect(result.result.data).toEqual({ ok: 1 });
    expect(result.metadata.executionId).toBe("exec-1");
    expect(result.metadata.durationMs).toBe(result.durationMs);
    expect(result.metadata.startedAt).toBe(result.startedAt);
    expect(result.metadata.completedAt).toBe(result.completedAt);
  });

  it("2. a tool that is not registered gives a failed result with ToolNotFound and the known ids", async () => {
    const executor = teamsExecutor(MockTool.succeeding("file-read"));

    const result = await executor.execute({ toolName: "file-write" });

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.errorCode).toBe(ToolErrorCode.ToolNotFound);
    expect(result.errorMessage).toContain("Available: file-read");
  });

  it("3. an authorization failure gives PermissionDenied and does not run the tool", async () => {
    const tool = new MockTool({ id: "admin", requiredPermissions: ["admin"] });
    const executor = executorWith([tool]);

    const result = await executor.execute({ toolName: "admin" });

    expect(result.status).toBe(ToolExecutionStatus.PermissionDenied);
    expect(result.errorCode).toBe(ToolErrorCode.PermissionDenied);
    expect(tool.executeCallCount).toBe(0);
  });

  it("4. parameters that fail the tool's schema give ValidationError with field-level errors", async () => {
    const tool = new MockTool({
      id: "named",
      schema: JsonSchemaBuilder.create().addString("name", "Name", { required: true }).build(),
    });
    const executor = teamsExecutor(tool);

    const result = await executor.execute({ toolName: "named", parameters: { name: 5 } });

    expect(result.status).toBe(ToolExecutionStatus.ValidationError);
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(result.result.data).toMatchObject({ errors: [{ parameterName: "name" }] });
    expect(tool.executeCallCount).toBe(0);
  });

  it("4b. parameters that are not a JSON object give ValidationError", async () => {
    const tool = MockTool.succeeding("any");
    const executor = teamsExecutor(tool);

    const result = await executor.execute({
      toolName: "any",
      parameters: [1, 2] as unknown as Record<string, unknown>,
    });

    expect(result.status).toBe(ToolExecutionStatus.ValidationError);
    expect(tool.executeCallCount).toBe(0);
  });

  it("5. a run past its timeout gives the Timeout status", async () => {
    const executor = teamsExecutor(MockTool.delayed("slow", 5_000));

    const result = await executor.execute({ toolName: "slow" }, { timeoutMs: 30 });

    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(result.errorCode).toBe(ToolErrorCode.Timeout);
  });

  it("6. cancel(executionId) gives the Cancelled status", async () => {
    const executor = teamsExecutor(blockingTool("blocker"));

    const task = executor.execute({ toolName: "blocker" }, { executionId: "to-cancel" });
    await waitFor(() => executor.isExecuting("to-cancel"));
    expect(executor.cancel("to-cancel")).toBe(true);
    const result = await task;

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(result.wasCancelled).toBe(true);
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
  });

  it("7. a confirmation-required tool waits for the callback before it runs", async () => {
    const tool = new MockTool({ id: "guarded", requiresConfirmation: true });
    const executor = teamsExecutor(tool);
    const answer = deferred<boolean>();
    let asked: ToolInput | undefined;

    const task = executor.execute(
      { toolName: "guarded", parameters: { x: 1 } },
      {
        confirmationCallback: (input) => {
          asked = input;
          return answer.promise;
        },
      },
    );
    await waitFor(() => asked !== undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(tool.executeCallCount).toBe(0);
    answer.resolve(true);
    const result = await task;

    expect(asked).toEqual({ toolName: "guarded", parameters: { x: 1 } });
    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.wasApproved).toBe(true);
    expect(tool.executeCallCount).toBe(1);
  });

  it("8. a batch processes all inputs, in order, each with its own result", async () => {
    const tool = new MockTool({
      id: "echo",
      executeFunc: async (context) => ToolResult.succeeded(context.parameters.n),
    });
    const executor = teamsExecutor(tool);
    const inputs = [1, 2, 3].map((n) => ({ toolName: "echo", parameters: { n } }));

    const results = await executor.executeBatch(inputs);

    expect(results.map((r) => r.result.data)).toEqual([1, 2, 3]);
    expect(results.map((r) => r.input)).toEqual(inputs);
  });

  it("9. a batch over the tier's size limit throws ToolExecutionError before running anything", async () => {
    const tool = MockTool.succeeding("t");
    const executor = executorWith([tool], { license: staticLicense(LicenseTier.Core) });
    const inputs = Array.from({ length: 6 }, () => ({ toolName: "t" }));

    await expect(executor.executeBatch(inputs)).rejects.toThrow(ToolExecutionError);
    expect(tool.executeCallCount).toBe(0);
  });

  it("10. parallel batch execution only happens on Teams and up", async () => {
    const starts: boolean[] = [];
    for (const tier of [LicenseTier.WriterPro, LicenseTier.Teams]) {
      const executor = executorWith([MockTool.succeeding("t")], {
        license: staticLicense(tier),
      });
      executor.events.on("batchExecutionStarted", (e) => starts.push(e.isParallel));
      await executor.executeBatch([{ toolName: "t" }, { toolName: "t" }], {
        allowParallel: true,
        maxParallelism: 4,
      });
    }
    expect(starts).toEqual([false, true]);
  });

  it("11 and 12. single executions and batches of 10 are well inside the spec's P95 targets", async () => {
    const temp = await openTempStore();
    try {
      const executor = executorWith([MockTool.succeeding("fast")], {
        audit: temp.store.audit,
        license: staticLicense(LicenseTier.Teams),
      });
      const singles: number[] = [];
      const batches: number[] = [];
      for (let i = 0; i < 40; i++) {
        const t0 = performance.now();
        await executor.execute({ toolName: "fast" });
        singles.push(performance.now() - t0);
      }
      const ten = Array.from({ length: 10 }, () => ({ toolName: "fast" }));
      for (let i = 0; i < 10; i++) {
        const t0 = performance.now();
        await executor.executeBatch(ten);
        batches.push(performance.now() - t0);
      }
      expect(percentile(singles, 95)).toBeLessThan(500);
      expect(percentile(batches, 95)).toBeLessThan(5_000);
    } finally {
      await temp.dispose();
    }
  });
});

describe("ToolExecutor: Lexichord members and input checks", () => {
  it("reports whether an execution is running, true while it runs and false after", async () => {
    const gate = deferred();
    const tool = new MockTool({
      id: "gated",
      executeFunc: async () => {
        await gate.promise;
        return ToolResult.succeeded();
      },
    });
    const executor = teamsExecutor(tool);

    expect(executor.isExecuting("run-1")).toBe(false);
    const task = executor.execute({ toolName: "gated" }, { executionId: "run-1" });
    expect(executor.isExecuting("run-1")).toBe(true);
    gate.resolve();
    await task;
    expect(executor.isExecuting("run-1")).toBe(false);
  });

  it("cancel returns false for an unknown id, a finished one, and a second cancel of the same run", async () => {
    const executor = teamsExecutor(blockingTool("blocker"), MockTool.succeeding("fast"));
    await executor.execute({ toolName: "fast" }, { executionId: "done" });

    expect(executor.cancel("never-started")).toBe(false);
    expect(executor.cancel("done")).toBe(false);
    const task = executor.execute({ toolName: "blocker" }, { executionId: "twice" });
    expect(executor.cancel("twice")).toBe(true);
    expect(executor.cancel("twice")).toBe(false);
    expect((await task).status).toBe(ToolExecutionStatus.Cancelled);
  });

  it("gives every execution a fresh UUID unless the options name one", async () => {
    const executor = teamsExecutor(MockTool.succeeding("t"));

    const a = await executor.execute({ toolName: "t" });
    const b = await executor.execute({ toolName: "t" });
    const named = await executor.execute({ toolName: "t" }, { executionId: "mine" });

    expect(a.executionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.executionId).not.toBe(a.executionId);
    expect(named.executionId).toBe("mine");
  });

  it("refuses a second execution with the id of one still running", async () => {
    const executor = teamsExecutor(blockingTool("blocker"));
    const first = executor.execute({ toolName: "blocker" }, { executionId: "same" });

    await expect(
      executor.execute({ toolName: "blocker" }, { executionId: "same" }),
    ).rejects.toMatchObject({ code: "DUPLICATE_EXECUTION_ID" });
    executor.cancel("same");
    expect((await first).status).toBe(ToolExecutionStatus.Cancelled);
  });

  it("throws ToolExecutionError for an input without a string toolName", () => {
    const executor = teamsExecutor();

    expect(() => executor.execute(null as unknown as ToolInput)).toThrow(ToolExecutionError);
    expect(() => executor.execute({ toolName: 3 } as unknown as ToolInput)).toThrow(
      /string toolName/,
    );
  });

  it("throws ToolExecutionError when constructed without a registry", () => {
    expect(() => new ToolExecutor({} as ToolExecutorConfig)).toThrow(ToolExecutionError);
  });

  it("looks tools up case-insensitively and reports the tool's own id", async () => {
    const executor = teamsExecutor(MockTool.succeeding("file-read"));

    const result = await executor.execute({ toolName: "File-Read" });

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.toolId).toBe("file-read");
    expect(result.input.toolName).toBe("File-Read");
  });

  it("treats a tool id like __proto__ or constructor as not found", async () => {
    const executor = teamsExecutor(MockTool.succeeding("t"));

    for (const name of ["__proto__", "constructor", "toString"]) {
      const result = await executor.execute({ toolName: name });
      expect(result.errorCode).toBe(ToolErrorCode.ToolNotFound);
    }
  });

  it("hands the input's metadata and the options' context to the tool's context", async () => {
    let seen: Record<string, unknown> | undefined;
    const tool = new MockTool({
      id: "meta",
      executeFunc: async (context) => {
        seen = { ...context.metadata, isApproved: context.isApproved };
        return ToolResult.succeeded();
      },
    });
    const executor = teamsExecutor(tool);

    await executor.execute(
      { toolName: "meta", metadata: { requestId: "r1" } },
      { context: { agentId: "agent-7" } },
    );

    expect(seen).toEqual({ requestId: "r1", agentId: "agent-7", isApproved: true });
  });

  it("resolves with a failed result when a plug-in (the authorizer) throws", async () => {
    const executor = executorWith([new MockTool({ id: "p", requiredPermissions: ["x"] })], {
      authorizer: {
        authorize: () => {
          throw new Error("auth service down");
        },
      },
    });

    const result = await executor.execute({ toolName: "p" });

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.errorCode).toBe(ToolErrorCode.ExecutionError);
    expect(result.errorMessage).toBe("Error: auth service down");
  });

  it("closes its sandbox on close()", async () => {
    let closed = 0;
    const executor = executorWith([], {
      sandbox: {
        name: "test",
        run: async () => ({ kind: "completed", result: ToolResult.succeeded() }),
        close: async () => {
          closed++;
        },
      },
    });
    await executor.close();
    expect(closed).toBe(1);
    await executorWith([]).close();
  });

  it("observes a run started with a known id from the same tick on", async () => {
    const executor = teamsExecutor(MockTool.succeeding("t"));

    const task = executor.execute({ toolName: "t" }, { executionId: "watched" });
    const events: ToolExecutionEvent[] = await collect(executor.observe("watched"));
    await task;

    expect(events.map((e) => e.eventType)).toEqual(["Started", "InProgress", "Completed"]);
  });
});
