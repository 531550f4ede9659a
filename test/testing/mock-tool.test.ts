// Imported through the package's testing entry, as a user would (`aintern/testing`).
import { describe, expect, it } from "vitest";
import { type ToolExecutionContext, ToolExecutionContextBuilder } from "../../src/context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../../src/core/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchema, JsonSchemaBuilder } from "../../src/schema/index.js";
import { MockTool, type MockToolConfig } from "../../src/testing/index.js";
import { ToolBase } from "../../src/tools/index.js";
import { ToolValidationError, ToolValidationResult } from "../../src/validation/index.js";

function contextWith(parameters: JsonObject = {}, signal?: AbortSignal): ToolExecutionContext {
  const builder = ToolExecutionContextBuilder.create().withParameters(parameters);
  if (signal !== undefined) builder.withCancellation(signal);
  return builder.buildForTesting();
}

describe("MockTool", () => {
  it("has the spec's defaults and succeeds with { executed: true }", async () => {
    const tool = new MockTool();
    expect(tool).toBeInstanceOf(ToolBase);
    expect(tool.id).toBe("mock-tool");
    expect(tool.name).toBe("Mock Tool");
    expect(tool.description).toBe("A mock tool for testing");
    expect(tool.category).toBe(ToolCategory.Custom);
    expect(tool.defaultRiskLevel).toBe(RiskLevel.Safe);
    expect(tool.inputSchema).toEqual(JsonSchema.empty());
    expect(tool.isAvailable).toBe(true);
    expect(tool.tags).toEqual([]);
    expect(tool.requiredPermissions).toEqual([]);
    expect(tool.requiresConfirmation).toBe(false);
    expect(tool.constraints).toBeUndefined();
    const result = await tool.execute(contextWith());
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ executed: true });
    expect(result.message).toBe("Mock tool executed");
  });

  it("takes every member from its config", () => {
    const schema = JsonSchemaBuilder.create().addString("q", "Query", { required: true }).build();
    const config: MockToolConfig = {
      id: "custom",
      name: "Custom",
      description: "Custom mock",
      category: ToolCategory.Network,
      riskLevel: RiskLevel.Critical,
      schema,
      tags: ["net"],
      requiredPermissions: ["net:fetch"],
      requiresConfirmation: true,
      constraints: { maxExecutionTimeMs: 100 },
      isAvailable: false,
    };
    const tool = new MockTool(config);
    expect(tool.id).toBe("custom");
    expect(tool.name).toBe("Custom");
    expect(tool.description).toBe("Custom mock");
    expect(tool.category).toBe(ToolCategory.Network);
    expect(tool.defaultRiskLevel).toBe(RiskLevel.Critical);
    expect(tool.inputSchema).toBe(schema);
    expect(tool.tags).toEqual(["net"]);
    expect(tool.requiredPermissions).toEqual(["net:fetch"]);
    expect(tool.requiresConfirmation).toBe(true);
    expect(tool.constraints).toEqual({ maxExecutionTimeMs: 100 });
    expect(tool.isAvailable).toBe(false);
  });

  it("counts executions and records the effective parameters of each", async () => {
    const tool = new MockTool();
    expect(tool.executeCallCount).toBe(0);
    await tool.execute(contextWith({ n: 1 }));
    await tool.execute(
      ToolExecutionContextBuilder.create()
        .withParameters({ n: 2 })
        .withModifiedParameters({ n: 3 })
        .buildForTesting(),
    );
    expect(tool.executeCallCount).toBe(2);
    expect(tool.executedParameters).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it("counts validations, including those execute makes", async () => {
    const tool = new MockTool();
    tool.validate({});
    expect(tool.validateCallCount).toBe(1);
    await tool.execute(contextWith());
    expect(tool.validateCallCount).toBe(2);
  });

  it("validates against its schema and does not run or count a rejected execution", async () => {
    const tool = new MockTool({
      schema: JsonSchemaBuilder.create().addString("name", "The name", { required: true }).build(),
    });
    const missing = tool.validate({});
    expect(missing.isValid).toBe(false);
    expect(missing.errors).toHaveLength(1);
    expect(missing.errors[0]?.parameterName).toBe("name");
    expect(tool.validate({ name: "test" }).isValid).toBe(true);
    const result = await tool.execute(contextWith({}));
    expect(result.isValidationFailure).toBe(true);
    expect(tool.executeCallCount).toBe(0);
    expect(tool.executedParameters).toEqual([]);
  });

  it("uses validateFunc in place of schema validation", async () => {
    const seen: unknown[] = [];
    const tool = new MockTool({
      validateFunc: (parameters) => {
        seen.push(parameters);
        return ToolValidationResult.invalid(ToolValidationError.invalidValue("x", "always wrong"));
      },
    });
    const result = await tool.execute(contextWith({ x: 1 }));
    expect(seen).toEqual([{ x: 1 }]);
    expect(result.isValidationFailure).toBe(true);
    expect(result.error).toContain("always wrong");
    expect(tool.validateCallCount).toBe(1);
    expect(tool.executeCallCount).toBe(0);
  });

  it("runs executeFunc with the context and signal", async () => {
    const controller = new AbortController();
    let seen: { context?: ToolExecutionContext; signal?: AbortSignal } = {};
    const tool = new MockTool({
      executeFunc: async (context, signal) => {
        seen = { context, signal };
        return ToolResult.succeeded(context.getRequiredInt("n") * 2);
      },
    });
    const context = contextWith({ n: 21 });
    const result = await tool.execute(context, controller.signal);
    expect(result.data).toBe(42);
    expect(seen.context).toBe(context);
    expect(seen.signal).toBe(controller.signal);
  });

  it("can be registered and found in a registry", () => {
    const registry = new ToolRegistry();
    const tool = MockTool.succeeding("found-tool");
    registry.registerTool(tool);
    expect(registry.getTool("found-tool")).toBe(tool);
  });
});

describe("MockTool variants", () => {
  it("succeeding returns its data, { success: true } by default", async () => {
    const byDefault = MockTool.succeeding();
    expect(byDefault.id).toBe("success-tool");
    const result = await byDefault.execute(contextWith());
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ success: true });
    const withData = MockTool.succeeding("test-tool", { value: 42 });
    expect(withData.id).toBe("test-tool");
    expect((await withData.execute(contextWith())).data).toEqual({ value: 42 });
    expect(withData.executeCallCount).toBe(1);
  });

  it("failing returns a failed result with its error", async () => {
    const byDefault = MockTool.failing();
    expect(byDefault.id).toBe("fail-tool");
    expect((await byDefault.execute(contextWith())).error).toBe("Test error");
    const result = await MockTool.failing("test-tool", "Test failure").execute(contextWith());
    expect(result.success).toBe(false);
    expect(result.error).toBe("Test failure");
    expect(result.isCancelled).toBe(false);
  });

  it("throwing throws, and ToolBase turns the throw into a failed result", async () => {
    const byDefault = MockTool.throwing();
    expect(byDefault.id).toBe("throw-tool");
    const result = await byDefault.execute(contextWith());
    expect(result.success).toBe(false);
    expect(result.error).toBe("Test exception");
    expect(result.exception?.message).toBe("Test exception");
    const custom = new RangeError("custom");
    const customResult = await MockTool.throwing("t", custom).execute(contextWith());
    expect(customResult.exception).toBe(custom);
    expect(customResult.errorCode).toBe("RangeError");
    expect(MockTool.throwing("t").executeCallCount).toBe(0);
  });

  it("delayed succeeds after its delay (100 ms by default)", async () => {
    const tool = MockTool.delayed();
    expect(tool.id).toBe("delay-tool");
    const result = await tool.execute(contextWith());
    expect(result.success).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(90);
    const short = await MockTool.delayed("short", 5).execute(contextWith());
    expect(short.success).toBe(true);
    expect(short.durationMs).toBeLessThan(1_000);
  });

  it("delayed stops early and reports cancellation when its signal aborts", async () => {
    const controller = new AbortController();
    const tool = MockTool.delayed("slow", 10_000);
    const pending = tool.execute(contextWith({}, controller.signal));
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    const result = await pending;
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(result.isCancelled).toBe(true);
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
    expect(tool.executeCallCount).toBe(1);
  });

  it("delayed reports cancellation when given an already aborted signal", async () => {
    const result = await MockTool.delayed("slow", 10_000).execute(
      contextWith({}, AbortSignal.abort()),
    );
    expect(result.isCancelled).toBe(true);
  });

  it("ignoringSignal keeps running after an abort and succeeds", async () => {
    const controller = new AbortController();
    const tool = MockTool.ignoringSignal("stubborn", 80);
    expect(MockTool.ignoringSignal().id).toBe("stubborn-tool");
    const pending = tool.execute(contextWith({}, controller.signal));
    setTimeout(() => controller.abort(), 5);
    const result = await pending;
    expect(controller.signal.aborted).toBe(true);
    expect(result.success).toBe(true);
    expect(result.durationMs).toBeGreaterThanOrEqual(70);
  });
});
