import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { type ToolExecutionContext, ToolExecutionContextBuilder } from "../../src/context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../../src/core/index.js";
import { ToolResult } from "../../src/result/index.js";
import { InvalidSchemaError, type JsonSchema, JsonSchemaBuilder } from "../../src/schema/index.js";
import { type DefinedTool, defineTool, type Tool, ToolBase } from "../../src/tools/index.js";

function contextWith(parameters: JsonObject, signal?: AbortSignal): ToolExecutionContext {
  const builder = ToolExecutionContextBuilder.create().withParameters(parameters);
  if (signal !== undefined) builder.withCancellation(signal);
  return builder.buildForTesting();
}

const searchSchema = z.object({
  query: z.string().min(1).describe("Text to find"),
  limit: z.number().int().default(10),
  caseSensitive: z.boolean().optional(),
});

describe("defineTool with a zod schema", () => {
  it("infers execute's input type from the schema", () => {
    defineTool({
      id: "search",
      name: "Search",
      description: "Searches",
      inputSchema: searchSchema,
      execute(input) {
        expectTypeOf(input).toEqualTypeOf<{
          query: string;
          limit: number;
          caseSensitive?: boolean | undefined;
        }>();
        expectTypeOf(input.limit).toBeNumber();
        // @ts-expect-error: not a member of the schema
        void input.missing;
        return input.query;
      },
    });
    const tool = defineTool({
      id: "search",
      name: "Search",
      description: "Searches",
      inputSchema: searchSchema,
      execute: () => undefined,
    });
    expectTypeOf(tool).toEqualTypeOf<DefinedTool<typeof searchSchema>>();
    expectTypeOf(tool).toMatchTypeOf<Tool>();
  });

  it("advertises the schema as JSON Schema, with defaulted members not required", () => {
    const tool = defineTool({
      id: "search",
      name: "Search",
      description: "Searches",
      inputSchema: searchSchema,
      execute: () => undefined,
    });
    expect(tool.inputSchema.type).toBe("object");
    expect(tool.inputSchema.required).toEqual(["query"]);
    expect(tool.inputSchema.properties?.query).toMatchObject({
      type: "string",
      minLength: 1,
      description: "Text to find",
    });
    expect(tool.inputSchema.properties?.limit).toMatchObject({ default: 10 });
    expect(tool.schema).toBe(searchSchema);
    expect(tool).toBeInstanceOf(ToolBase);
  });

  it("applies zod defaults before execute sees the input", async () => {
    let seen: unknown;
    const tool = defineTool({
      id: "search",
      name: "Search",
      description: "Searches",
      inputSchema: searchSchema,
      execute(input) {
        seen = input;
        return { count: input.limit };
      },
    });
    const result = await tool.execute(contextWith({ query: "needle" }));
    expect(result.success).toBe(true);
    expect(seen).toEqual({ query: "needle", limit: 10 });
    expect(result.data).toEqual({ count: 10 });
  });

  it("applies zod transforms, so execute gets the parsed value", async () => {
    const tool = defineTool({
      id: "shout",
      name: "Shout",
      description: "Upper-cases",
      inputSchema: z.object({ text: z.string().transform((s) => s.toUpperCase()) }),
      execute: ({ text }) => text,
    });
    expect((await tool.execute(contextWith({ text: "hi" }))).data).toBe("HI");
  });

  it("fails a zod refinement that JSON Schema cannot express as a validation failure", async () => {
    let ran = false;
    const tool = defineTool({
      id: "range",
      name: "Range",
      description: "A range",
      inputSchema: z
        .object({ from: z.number(), to: z.number() })
        .refine((r) => r.from <= r.to, { message: "'from' must not exceed 'to'", path: ["to"] }),
      execute: () => {
        ran = true;
        return "ran";
      },
    });
    // JSON Schema alone accepts it...
    expect(tool.validate({ from: 5, to: 1 }).isValid).toBe(true);
    // ...but the zod parse refuses it before execute runs.
    const result = await tool.execute(contextWith({ from: 5, to: 1 }));
    expect(ran).toBe(false);
    expect(result.success).toBe(false);
    expect(result.isValidationFailure).toBe(true);
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(result.error).toContain("'from' must not exceed 'to'");
    expect(result.data).toMatchObject({ errors: [{ parameterName: "to" }] });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it("names nested and root-level refinement failures by their path", async () => {
    const nested = defineTool({
      id: "nested",
      name: "Nested",
      description: "Nested",
      inputSchema: z.object({
        items: z.array(z.object({ name: z.string().refine((s) => s !== "bad", "no bad names") })),
      }),
      execute: () => "ok",
    });
    const result = await nested.execute(contextWith({ items: [{ name: "ok" }, { name: "bad" }] }));
    expect(result.data).toMatchObject({ errors: [{ parameterName: "items[1].name" }] });

    const root = defineTool({
      id: "root",
      name: "Root",
      description: "Root",
      inputSchema: z.object({ a: z.number() }).refine((v) => v.a > 0, "a must be positive"),
      execute: () => "ok",
    });
    const rootResult = await root.execute(contextWith({ a: -1 }));
    expect(rootResult.data).toMatchObject({ errors: [{ parameterName: "(root)" }] });
  });

  it("rejects parameters the JSON Schema refuses without running execute", async () => {
    let ran = false;
    const tool = defineTool({
      id: "search",
      name: "Search",
      description: "Searches",
      inputSchema: searchSchema,
      execute: () => {
        ran = true;
      },
    });
    const result = await tool.execute(contextWith({ query: 42 }));
    expect(result.isValidationFailure).toBe(true);
    expect(result.error).toContain("query");
    expect(ran).toBe(false);
  });

  it("throws at definition for a zod schema that is not an object", () => {
    expect(() =>
      defineTool({
        id: "bad",
        name: "Bad",
        description: "Bad",
        inputSchema: z.string(),
        execute: () => undefined,
      }),
    ).toThrow(InvalidSchemaError);
    expect(() =>
      defineTool({
        id: "bad",
        name: "Bad",
        description: "Bad",
        inputSchema: z.array(z.string()),
        execute: () => undefined,
      }),
    ).toThrow(/object/);
  });
});

describe("defineTool with a JSON Schema", () => {
  const schema = JsonSchemaBuilder.create()
    .addString("path", "File path", { required: true })
    .addInteger("maxLines", "Lines", { minimum: 1 })
    .build();

  it("passes the effective parameters as a JsonObject", async () => {
    let seen: unknown;
    const tool = defineTool({
      id: "file-read",
      name: "Read File",
      description: "Reads",
      inputSchema: schema,
      execute(input) {
        expectTypeOf(input).toEqualTypeOf<JsonObject>();
        seen = input;
        return ToolResult.succeeded({ read: input.path }, "Read it");
      },
    });
    expect(tool.inputSchema).toBe(schema);
    const result = await tool.execute(contextWith({ path: "a.txt" }));
    expect(seen).toEqual({ path: "a.txt" });
    expect(result.data).toEqual({ read: "a.txt" });
    expect(result.message).toBe("Read it");
  });

  it("validates against the JSON Schema", async () => {
    const tool = defineTool({
      id: "file-read",
      name: "Read File",
      description: "Reads",
      inputSchema: schema,
      execute: () => "ok",
    });
    const result = await tool.execute(contextWith({ path: "a", maxLines: 0 }));
    expect(result.isValidationFailure).toBe(true);
    expect(result.error).toContain("maxLines");
  });

  it("fills in properties and required for a minimal JSON Schema from untyped code", () => {
    const tool = defineTool({
      id: "ping",
      name: "Ping",
      description: "Ping",
      inputSchema: { type: "object" } as JsonSchema,
      execute: () => "pong",
    });
    expect(tool.inputSchema).toEqual({ type: "object", properties: {}, required: [] });
  });
});

describe("defineTool with another Standard Schema", () => {
  /** A minimal Standard Schema (with Standard JSON Schema) whose issues use `{ key }` segments. */
  function pointSchema(): StandardSchemaV1<unknown, { x: number }> & StandardJSONSchemaV1 {
    return {
      "~standard": {
        version: 1,
        vendor: "test-vendor",
        validate(value) {
          const x = (value as { x?: unknown }).x;
          if (typeof x === "number" && x >= 0) return { value: { x } };
          return { issues: [{ message: "x must be non-negative", path: [{ key: "x" }] }] };
        },
        jsonSchema: {
          input: () => ({
            type: "object",
            properties: { x: { type: "number" } },
            required: ["x"],
          }),
          output: () => ({ type: "object" }),
        },
      },
    } as StandardSchemaV1<unknown, { x: number }> & StandardJSONSchemaV1;
  }

  it("parses with the schema's own validate and reports its issues", async () => {
    const tool = defineTool({
      id: "point",
      name: "Point",
      description: "Point",
      inputSchema: pointSchema(),
      execute(input) {
        expectTypeOf(input).toEqualTypeOf<{ x: number }>();
        return input.x * 2;
      },
    });
    expect((await tool.execute(contextWith({ x: 2 }))).data).toBe(4);
    const failed = await tool.execute(contextWith({ x: -1 }));
    expect(failed.isValidationFailure).toBe(true);
    expect(failed.data).toEqual({
      errors: [{ parameterName: "x", message: "x must be non-negative" }],
    });
  });
});

describe("defineTool results and metadata", () => {
  const base = {
    id: "calc",
    name: "Calculator",
    description: "Adds",
    inputSchema: z.object({ a: z.number(), b: z.number() }),
  } as const;

  it("wraps a plain return value into a succeeded result", async () => {
    const tool = defineTool({ ...base, execute: ({ a, b }) => a + b });
    const result = await tool.execute(contextWith({ a: 2, b: 3 }));
    expect(result).toBeInstanceOf(ToolResult);
    expect(result.success).toBe(true);
    expect(result.data).toBe(5);
  });

  it("wraps an async return value and an undefined return", async () => {
    const asyncTool = defineTool({ ...base, execute: async ({ a }) => ({ doubled: a * 2 }) });
    expect((await asyncTool.execute(contextWith({ a: 4, b: 0 }))).data).toEqual({ doubled: 8 });
    const voidTool = defineTool({ ...base, execute: () => undefined });
    const result = await voidTool.execute(contextWith({ a: 1, b: 1 }));
    expect(result.success).toBe(true);
    expect(result.data).toBeUndefined();
  });

  it("returns a ToolResult as it is (with the measured duration)", async () => {
    const tool = defineTool({
      ...base,
      execute: () => ToolResult.failed("division by zero", "MATH"),
    });
    const result = await tool.execute(contextWith({ a: 1, b: 0 }));
    expect(result.success).toBe(false);
    expect(result.error).toBe("division by zero");
    expect(result.errorCode).toBe("MATH");
  });

  it("turns a throw in execute into a failed result", async () => {
    const tool = defineTool({
      ...base,
      execute: () => {
        throw new RangeError("too big");
      },
    });
    const result = await tool.execute(contextWith({ a: 1, b: 1 }));
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe("RangeError");
    expect(result.error).toBe("too big");
  });

  it("gives execute a context whose signal is the one execute was called with", async () => {
    const controller = new AbortController();
    let seen: AbortSignal | undefined;
    const tool = defineTool({
      ...base,
      execute: async (_input, context) => {
        seen = context.signal;
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(resolve, 10_000);
          context.signal.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(context.signal.reason);
          });
        });
      },
    });
    const context = contextWith({ a: 1, b: 1 });
    const pending = tool.execute(context, controller.signal);
    setTimeout(() => controller.abort(), 10);
    const result = await pending;
    expect(seen).toBe(controller.signal);
    expect(result.isCancelled).toBe(true);
  });

  it("keeps the context as it is when no other signal is given", async () => {
    let seen: ToolExecutionContext | undefined;
    const tool = defineTool({
      ...base,
      execute: (_input, context) => {
        seen = context;
      },
    });
    const context = contextWith({ a: 1, b: 1 });
    await tool.execute(context);
    expect(seen).toBe(context);
  });

  it("has the documented defaults", () => {
    const tool = defineTool({ ...base, execute: () => 0 });
    expect(tool.id).toBe("calc");
    expect(tool.name).toBe("Calculator");
    expect(tool.description).toBe("Adds");
    expect(tool.category).toBe(ToolCategory.Custom);
    expect(tool.defaultRiskLevel).toBe(RiskLevel.Low);
    expect(tool.isAvailable).toBe(true);
    expect(tool.tags).toEqual([]);
    expect(tool.requiredPermissions).toEqual([]);
    expect(tool.requiresConfirmation).toBe(false);
    expect(tool.constraints).toBeUndefined();
    expect(tool.isolation).toBeUndefined();
    expect(tool.source).toBeUndefined();
    expect(tool.getExecutionSummary({ a: 1 })).toBe("Execute Calculator");
    expect(tool.getEffectiveRiskLevel({})).toBe(RiskLevel.Low);
  });

  it("passes every configured member through", () => {
    const tool = defineTool({
      ...base,
      category: ToolCategory.System,
      riskLevel: RiskLevel.High,
      tags: ["math"],
      requiredPermissions: ["calc:use"],
      requiresConfirmation: true,
      constraints: { maxExecutionTimeMs: 500 },
      isolation: "process",
      source: { module: "/abs/calc.js", exportName: "calc" },
      isAvailable: false,
      getExecutionSummary: (p) => `Add ${String(p.a)} and ${String(p.b)}`,
      execute: () => 0,
    });
    expect(tool.category).toBe(ToolCategory.System);
    expect(tool.defaultRiskLevel).toBe(RiskLevel.High);
    expect(tool.tags).toEqual(["math"]);
    expect(tool.requiredPermissions).toEqual(["calc:use"]);
    expect(tool.requiresConfirmation).toBe(true);
    expect(tool.constraints).toEqual({ maxExecutionTimeMs: 500 });
    expect(tool.isolation).toBe("process");
    expect(tool.source).toEqual({ module: "/abs/calc.js", exportName: "calc" });
    expect(tool.isAvailable).toBe(false);
    expect(tool.getExecutionSummary({ a: 1, b: 2 })).toBe("Add 1 and 2");
  });

  it("never lets getEffectiveRiskLevel fall below the default risk", () => {
    const tool = defineTool({
      ...base,
      riskLevel: RiskLevel.Medium,
      getEffectiveRiskLevel: (p) => (p.a === 0 ? RiskLevel.Safe : RiskLevel.Critical),
      execute: () => 0,
    });
    expect(tool.getEffectiveRiskLevel({ a: 0 })).toBe(RiskLevel.Medium);
    expect(tool.getEffectiveRiskLevel({ a: 1 })).toBe(RiskLevel.Critical);
  });

  it("asks an isAvailable function each time", () => {
    let available = true;
    const tool = defineTool({ ...base, isAvailable: () => available, execute: () => 0 });
    expect(tool.isAvailable).toBe(true);
    available = false;
    expect(tool.isAvailable).toBe(false);
    available = true;
    expect(tool.isAvailable).toBe(true);
  });
});
