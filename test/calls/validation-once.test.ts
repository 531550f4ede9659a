import { describe, expect, it, vi } from "vitest";
import { ToolCallBatch, ToolCallProcessor, ToolCallStatus } from "../../src/calls/index.js";
import type { ToolExecutionContext } from "../../src/context/index.js";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import type { JsonSchema } from "../../src/schema/index.js";
import { ToolBase } from "../../src/tools/index.js";
import type { ToolValidationResult } from "../../src/validation/index.js";
import { ToolValidator } from "../../src/validation/index.js";

/** A ToolBase whose schema getter builds a new object on every read, counting reads and validations. */
class CountingTool extends ToolBase {
  schemaReads = 0;
  validations = 0;
  runs = 0;
  readonly id = "counting";
  readonly name = "Counting";
  readonly description = "Counts.";
  readonly category = ToolCategory.Custom;
  override get defaultRiskLevel() {
    return RiskLevel.Safe;
  }
  get inputSchema(): JsonSchema {
    this.schemaReads++;
    return {
      type: "object",
      properties: { n: { type: "integer" } },
      required: ["n"],
    };
  }
  override validate(parameters: unknown): ToolValidationResult {
    this.validations++;
    return super.validate(parameters);
  }
  protected async executeCore(_context: ToolExecutionContext): Promise<ToolResult> {
    this.runs++;
    return ToolResult.succeeded("ok");
  }
}

function processorFor(tool: CountingTool): ToolCallProcessor {
  return new ToolCallProcessor({
    executor: new ToolExecutor({ registry: new ToolRegistry({ tools: [tool] }) }),
  });
}

describe("one validation per call", () => {
  it("validates a call once through processor, executor and tool", async () => {
    const tool = new CountingTool();
    const processor = processorFor(tool);
    const validationsBefore = tool.validations;
    const answer = await processor.processCall({ toolId: "counting", parameters: { n: 1 } });
    expect(answer.status).toBe(ToolCallStatus.Completed);
    expect(tool.validations - validationsBefore).toBe(1);
    expect(tool.runs).toBe(1);
  });

  it("a ToolBase tool called directly still validates, and refuses bad parameters", async () => {
    const tool = new CountingTool();
    const context = (parameters: Record<string, unknown>) =>
      new ToolExecutionContextBuilder().withParameters(parameters as never).buildForTesting();
    expect((await tool.execute(context({ n: 1 }))).success).toBe(true);
    const bad = await tool.execute(context({ n: "x" }));
    expect(bad.success).toBe(false);
    expect(tool.validations).toBe(2);
    expect(tool.runs).toBe(1);
  });

  it("a schema getter that builds a new object is read once, and never recompiled per call", async () => {
    const tool = new CountingTool();
    const processor = processorFor(tool);
    await processor.processCall({ toolId: "counting", parameters: { n: 1 } });
    const reads = tool.schemaReads;
    const stringify = vi.spyOn(JSON, "stringify");
    for (let i = 0; i < 20; i++) {
      await processor.processCall({ toolId: "counting", parameters: { n: i } });
    }
    const schemaStringified = stringify.mock.calls.some(
      ([value]) =>
        typeof value === "object" && value !== null && "properties" in value && "required" in value,
    );
    stringify.mockRestore();
    expect(schemaStringified).toBe(false);
    // Reading the schema for risk or summaries is the tool's business; validation reads it once.
    expect(tool.schemaReads - reads).toBeLessThanOrEqual(20);
    expect(tool.runs).toBe(21);
  });
});

describe("registration checks schemas cheaply and still refuses invalid ones", () => {
  it("registers 1,000 tools with distinct schemas and compiles none of them", () => {
    const tools = Array.from({ length: 1_000 }, (_, i) => {
      const tool = new CountingTool();
      Object.defineProperty(tool, "id", { value: `tool-${i}` });
      Object.defineProperty(tool, "inputSchema", {
        value: {
          type: "object",
          properties: { [`p${i}`]: { type: "string", maxLength: i + 1 } },
          required: [],
        },
      });
      return tool;
    });
    const registry = new ToolRegistry({ tools });
    expect(registry.tools).toHaveLength(1_000);
  });

  it("refuses a schema with a bad type, a bad pattern or an unsupported $schema", () => {
    const bad = [
      { type: "object", properties: { a: { type: "strin" } }, required: [] },
      { type: "object", properties: { a: { type: "string", pattern: "([" } }, required: [] },
      { type: "object", $schema: "https://example.com/schema", properties: {}, required: [] },
    ];
    for (const schema of bad) {
      const tool = new CountingTool();
      Object.defineProperty(tool, "inputSchema", { value: schema });
      expect(() => new ToolRegistry({ tools: [tool] })).toThrow(
        /inputSchema is not a valid JSON Schema/,
      );
    }
  });
});

describe("validation as JSON Schema says", () => {
  it("a required parameter named constructor or __proto__ is really required", () => {
    const validator = new ToolValidator();
    const schema: JsonSchema = {
      type: "object",
      properties: { constructor: { type: "string" }, __proto__: { type: "string" } } as never,
      required: ["constructor", "__proto__"],
    };
    const result = validator.validateAgainstSchema({}, schema);
    expect(result.isValid).toBe(false);
    expect(result.getErrorMessage()).toContain("constructor");
    const ok = validator.validateAgainstSchema(
      JSON.parse('{"constructor": "a", "__proto__": "b"}'),
      schema,
    );
    expect(ok.isValid).toBe(true);
  });

  it("an unknown format passes, goes to the logger once per schema, and never to the console", () => {
    const warnings: string[] = [];
    const validator = new ToolValidator({
      logger: { warn: (_o, message) => warnings.push(String(message)) },
    });
    const schema: JsonSchema = {
      type: "object",
      properties: { when: { type: "string", format: "lunar-date" } },
      required: ["when"],
    };
    const consoleWarn = vi.spyOn(console, "warn");
    const consoleLog = vi.spyOn(console, "log");
    const consoleError = vi.spyOn(console, "error");
    for (let i = 0; i < 3; i++) {
      expect(validator.validateAgainstSchema({ when: "full moon" }, schema).isValid).toBe(true);
    }
    expect(new ToolValidator().validateAgainstSchema({ when: "x" }, { ...schema }).isValid).toBe(
      true,
    );
    const printed =
      consoleWarn.mock.calls.length + consoleLog.mock.calls.length + consoleError.mock.calls.length;
    consoleWarn.mockRestore();
    consoleLog.mockRestore();
    consoleError.mockRestore();
    expect(printed).toBe(0);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("lunar-date");
  });
});

describe("ToolCallBatch", () => {
  it("an empty batch is all completed and has nothing pending", () => {
    const batch = new ToolCallBatch({ calls: [] });
    expect(batch.allCompleted).toBe(true);
    expect(batch.hasPending).toBe(false);
  });
});
