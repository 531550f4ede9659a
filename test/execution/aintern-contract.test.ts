import { describe, expect, it } from "vitest";
import {
  ServiceContainer,
  type ToolExecutionContext,
  ToolExecutionContextBuilder,
  type ToolProgress,
} from "../../src/context/index.js";
import { RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import {
  type ExecutionCompletedEvent,
  type ExecutionProgressEvent,
  type ExecutionStartedEvent,
  LicenseTier,
  staticLicense,
  ToolExecutionError,
  ToolExecutionStatus,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchemaBuilder } from "../../src/schema/index.js";
import { MockTool } from "../../src/testing/index.js";
import { bareTool, executorWith } from "./support.js";

function createContext(toolId: string, parameters: Record<string, unknown> = {}) {
  return ToolExecutionContextBuilder.create()
    .withToolId(toolId)
    .withServices(new ServiceContainer())
    .withParametersFromObject(parameters)
    .build();
}

const nameSchema = () =>
  JsonSchemaBuilder.create().addString("name", "The name", { required: true }).build();

describe("ToolExecutor: the AIntern execution service (spec 001 i / j)", () => {
  it("ExecuteAsync_Success_ReturnsSuccessResult: a succeeding tool gives a completed result", async () => {
    const executor = executorWith([MockTool.succeeding("test-tool", { value: 42 })]);
    const context = createContext("test-tool");

    const result = await executor.execute("test-tool", context);

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.result.success).toBe(true);
    expect(result.result.data).toEqual({ value: 42 });
    expect(result.success).toBe(true);
    expect(result.wasApproved).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.wasCancelled).toBe(false);
    expect(result.toolId).toBe("test-tool");
    expect(result.executionId).toBe(context.executionId);
    expect(result.completedAt.getTime()).toBeGreaterThanOrEqual(result.startedAt.getTime());
  });

  it("ExecuteAsync_Failure_ReturnsFailedResult: a failing tool gives a failed result with its error", async () => {
    const executor = executorWith([MockTool.failing("test-tool", "Test failure")]);

    const result = await executor.execute("test-tool", createContext("test-tool"));

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.result.error).toBe("Test failure");
    expect(result.errorMessage).toBe("Test failure");
  });

  it("ExecuteAsync_ToolNotFound_ReturnsNotFoundResult: an unknown id fails with ToolNotFound", async () => {
    const executor = executorWith([MockTool.succeeding("test-tool")]);

    const result = await executor.execute("nonexistent", createContext("nonexistent"));

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.result.errorCode).toBe("ToolNotFound");
    expect(result.errorCode).toBe(ToolErrorCode.ToolNotFound);
    expect(result.errorMessage).toContain("Tool 'nonexistent' not found");
    expect(result.errorMessage).toContain("Available: test-tool");
  });

  it("suggests the closest tool id when the requested one is misspelt", async () => {
    const executor = executorWith([MockTool.succeeding("file-read")]);

    const result = await executor.execute("file-raed", createContext("file-raed"));

    expect(result.errorMessage).toBe(
      "Tool 'file-raed' not found. Did you mean 'file-read'? Available: file-read",
    );
  });

  it("ExecuteAsync_Cancellation_ReturnsCancelledResult: aborting the signal cancels a long run promptly", async () => {
    const executor = executorWith([MockTool.delayed("test-tool", 10_000)]);
    const controller = new AbortController();

    const started = performance.now();
    const task = executor.execute("test-tool", createContext("test-tool"), controller.signal);
    controller.abort();
    const result = await task;

    expect(result.wasCancelled).toBe(true);
    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
    expect(result.timedOut).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("cancels through the context's own signal too", async () => {
    const executor = executorWith([MockTool.delayed("test-tool", 10_000)]);
    const controller = new AbortController();
    const context = ToolExecutionContextBuilder.create()
      .withToolId("test-tool")
      .withCancellation(controller.signal)
      .buildForTesting();

    const task = executor.execute("test-tool", context);
    setTimeout(() => controller.abort(), 10);
    const result = await task;

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
  });

  it("cancels when either the context's signal or the call's signal aborts", async () => {
    const executor = executorWith([MockTool.delayed("test-tool", 10_000)]);
    const contextController = new AbortController();
    const callController = new AbortController();
    const context = ToolExecutionContextBuilder.create()
      .withCancellation(contextController.signal)
      .buildForTesting();

    const task = executor.execute("test-tool", context, callController.signal);
    callController.abort();

    expect((await task).status).toBe(ToolExecutionStatus.Cancelled);
  });

  it("returns a cancelled result without running the tool when the signal is already aborted", async () => {
    const tool = MockTool.succeeding("test-tool");
    const executor = executorWith([tool]);

    const result = await executor.execute(
      "test-tool",
      createContext("test-tool"),
      AbortSignal.abort(),
    );

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(tool.executeCallCount).toBe(0);
  });

  it("Validate_MissingRequired_ReturnsError: a missing required parameter is reported by name", () => {
    const executor = executorWith([new MockTool({ id: "named", schema: nameSchema() })]);

    const result = executor.validate("named", {});

    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.parameterName).toBe("name");
  });

  it("Validate_AllPresent_ReturnsValid: all required parameters present is valid", () => {
    const executor = executorWith([new MockTool({ id: "named", schema: nameSchema() })]);

    expect(executor.validate("named", { name: "test" }).isValid).toBe(true);
  });

  it("validates an unknown tool id as an error on toolId with code tool_not_found", () => {
    const executor = executorWith([MockTool.succeeding("file-read")]);

    const result = executor.validate("file-raed", {});

    expect(result.isValid).toBe(false);
    expect(result.errors[0]?.parameterName).toBe("toolId");
    expect(result.errors[0]?.errorCode).toBe("tool_not_found");
    expect(result.errors[0]?.message).toContain("Did you mean 'file-read'?");
  });

  it("gives the tool's execution summary and effective risk, with defaults for an unknown tool", () => {
    const tool = new (class extends MockTool {
      override getExecutionSummary(parameters: Record<string, unknown>): string {
        return `Delete '${String(parameters.path)}'`;
      }
      override getEffectiveRiskLevel(): RiskLevel {
        return RiskLevel.Critical;
      }
    })({ id: "file-delete" });
    const executor = executorWith([tool]);

    expect(executor.getExecutionSummary("file-delete", { path: "a.txt" })).toBe("Delete 'a.txt'");
    expect(executor.getEffectiveRiskLevel("file-delete", {})).toBe(RiskLevel.Critical);
    expect(executor.getExecutionSummary("missing", {})).toBe("Execute missing");
    expect(executor.getEffectiveRiskLevel("missing", {})).toBe(RiskLevel.Medium);
  });

  it("raises executionStarted, executionProgress and executionCompleted for a run", async () => {
    const tool = new MockTool({
      id: "progress-tool",
      name: "Progress Tool",
      executeFunc: async (context) => {
        context.reportProgress("Halfway", 50);
        context.reportProgress("Items", 3, 4);
        return ToolResult.succeeded("done");
      },
    });
    const executor = executorWith([tool], { license: staticLicense(LicenseTier.Teams) });
    const started: ExecutionStartedEvent[] = [];
    const progress: ExecutionProgressEvent[] = [];
    const completed: ExecutionCompletedEvent[] = [];
    executor.events.on("executionStarted", (e) => started.push(e));
    executor.events.on("executionProgress", (e) => progress.push(e));
    executor.events.on("executionCompleted", (e) => completed.push(e));
    const context = createContext("progress-tool");

    const result = await executor.execute("progress-tool", context);

    expect(started).toEqual([
      {
        toolId: "progress-tool",
        toolName: "Progress Tool",
        executionId: context.executionId,
        startedAt: result.startedAt,
      },
    ]);
    expect(progress.map((e) => [e.executionId, e.toolId, e.progress.message])).toEqual([
      [context.executionId, "progress-tool", "Halfway"],
      [context.executionId, "progress-tool", "Items"],
    ]);
    expect(progress[1]?.progress.percentComplete).toBe(75);
    expect(completed).toHaveLength(1);
    expect(completed[0]?.result).toBe(result);
    expect(completed[0]?.executionId).toBe(context.executionId);
    expect(completed[0]?.completedAt).toEqual(result.completedAt);
  });

  it("raises executionCompleted but not executionStarted for an unknown tool", async () => {
    const executor = executorWith([]);
    const names: string[] = [];
    executor.events.on("executionStarted", () => names.push("started"));
    executor.events.on("executionCompleted", (e) => names.push(`completed:${e.result.status}`));

    await executor.execute("missing", createContext("missing"));

    expect(names).toEqual(["completed:failed"]);
  });

  it("still delivers progress to a callback the caller put on the context", async () => {
    const seen: ToolProgress[] = [];
    const tool = new MockTool({
      id: "progress-tool",
      executeFunc: async (context) => {
        context.reportProgress("Step", 10);
        return ToolResult.succeeded();
      },
    });
    const executor = executorWith([tool]);
    const context = ToolExecutionContextBuilder.create()
      .withProgress((p) => seen.push(p))
      .buildForTesting();

    await executor.execute("progress-tool", context);

    expect(seen.map((p) => p.message)).toEqual(["Step"]);
  });

  it("on Full progress tiers, gives progress to both the caller's callback and executionProgress", async () => {
    const seen: string[] = [];
    const tool = new MockTool({
      id: "progress-tool",
      executeFunc: async (context) => {
        context.reportProgress("Step", 10);
        return ToolResult.succeeded();
      },
    });
    const executor = executorWith([tool], { license: staticLicense(LicenseTier.Teams) });
    executor.events.on("executionProgress", (e) => seen.push(`event:${e.progress.message}`));
    const context = ToolExecutionContextBuilder.create()
      .withProgress((p) => {
        seen.push(`own:${p.message}`);
        throw new Error("a broken progress display");
      })
      .buildForTesting();

    const result = await executor.execute("progress-tool", context);

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(seen).toEqual(["own:Step", "event:Step"]);
  });

  it("runs a confirmation-requiring tool when the context is approved, and asks otherwise", async () => {
    const tool = new MockTool({ id: "guarded", requiresConfirmation: true });
    const executor = executorWith([tool]);
    const approved = ToolExecutionContextBuilder.create().withApproval().buildForTesting();
    const unapproved = ToolExecutionContextBuilder.create().buildForTesting();

    const ran = await executor.execute("guarded", approved);
    const asked = await executor.execute("guarded", unapproved);

    expect(ran.status).toBe(ToolExecutionStatus.Completed);
    expect(ran.wasApproved).toBe(true);
    expect(asked.status).toBe(ToolExecutionStatus.RequiresConfirmation);
    expect(asked.errorCode).toBe(ToolErrorCode.ConfirmationRequired);
    expect(tool.executeCallCount).toBe(1);
  });

  it("runs the tool with the person's edited parameters and the context's services", async () => {
    const services = new ServiceContainer();
    let seen: { params: unknown; services: unknown; executionId: string } | undefined;
    const tool = new MockTool({
      id: "edit",
      schema: nameSchema(),
      executeFunc: async (context) => {
        seen = {
          params: context.effectiveParameters,
          services: context.services,
          executionId: context.executionId,
        };
        return ToolResult.succeeded();
      },
    });
    const executor = executorWith([tool]);
    const context = ToolExecutionContextBuilder.create()
      .withServices(services)
      .withParameters({ name: 1 })
      .withModifiedParameters({ name: "edited" })
      .build();

    const result = await executor.execute("edit", context);

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(seen).toEqual({
      params: { name: "edited" },
      services,
      executionId: context.executionId,
    });
  });

  it("turns an exception thrown past a tool that is not a ToolBase into ExecutionError, keeping its name in the message (spec 003)", async () => {
    const error = new TypeError("boom");
    const raw = bareTool("raw", "Raw", () => {
      throw error;
    });
    const executor = executorWith([raw]);

    const result = await executor.execute("raw", createContext("raw"));

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.errorCode).toBe(ToolErrorCode.ExecutionError);
    expect(result.errorMessage).toBe("TypeError: boom");
    expect(result.result.exception).toBe(error);
  });

  it("names the class of a thrown error that left its name at Error, and takes thrown non-errors as they are", async () => {
    class FileLockedError extends Error {}
    const executor = executorWith([
      bareTool("locked", "Locked", () => {
        throw new FileLockedError("locked by pid 7");
      }),
      bareTool("string", "String", () => {
        throw "plain text";
      }),
    ]);

    const locked = await executor.execute("locked", createContext("locked"));
    const text = await executor.execute("string", createContext("string"));

    expect([locked.errorCode, locked.errorMessage]).toEqual([
      ToolErrorCode.ExecutionError,
      "FileLockedError: locked by pid 7",
    ]);
    expect([text.errorCode, text.errorMessage]).toEqual([
      ToolErrorCode.ExecutionError,
      "plain text",
    ]);
  });

  it("turns an exception thrown by a ToolBase tool into a failed result", async () => {
    const executor = executorWith([MockTool.throwing("throws", new RangeError("bad range"))]);

    const result = await executor.execute("throws", createContext("throws"));

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.errorMessage).toBe("bad range");
    expect(result.errorCode).toBe("RangeError");
  });

  it("throws ToolExecutionError when execute(toolId, ...) gets no ToolExecutionContext", () => {
    const executor = executorWith([MockTool.succeeding("test-tool")]);

    expect(() => executor.execute("test-tool", {} as unknown as ToolExecutionContext)).toThrow(
      ToolExecutionError,
    );
  });

  it("FullExecutionLifecycle_WorksCorrectly: validate then execute an approved tool end to end", async () => {
    const tool = new MockTool({
      id: "integration-tool",
      schema: JsonSchemaBuilder.create()
        .addString("input", "Input value", { required: true })
        .build(),
      executeFunc: async (context) =>
        ToolResult.succeeded({ output: `${context.getRequiredString("input")} processed` }),
    });
    const executor = executorWith([tool], { options: { defaultTimeoutMs: 5_000 } });
    const parameters = { input: "test" };

    expect(executor.validate("integration-tool", parameters).isValid).toBe(true);
    const context = new ToolExecutionContextBuilder()
      .withToolId("integration-tool")
      .withServices(new ServiceContainer())
      .withParameters(parameters)
      .withApproval()
      .build();
    const result = await executor.execute("integration-tool", context);

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.result.success).toBe(true);
    expect(result.result.data).toEqual({ output: "test processed" });
  });
});
