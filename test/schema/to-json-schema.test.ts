import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { Ajv } from "ajv";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { JsonObject } from "../../src/core/index.js";
import {
  type InferToolInput,
  isJsonSchema,
  isStandardSchema,
  type JsonSchema,
  JsonSchemaBuilder,
  JsonSchemaGenerator,
  toJsonSchema,
} from "../../src/schema/index.js";
import { thrown } from "./thrown.js";

const editInput = z
  .object({
    path: z.string().min(1).describe("File to edit"),
    mode: z.enum(["replace", "append"]).describe("How to write"),
    encoding: z.string().optional(),
    maxLines: z.number().int().positive().default(200),
    range: z
      .object({ start: z.number().int(), end: z.number().int().optional() })
      .optional()
      .describe("Lines to change"),
    tags: z.array(z.string()).max(5),
  })
  .describe("Edit a file");

/** A Standard Schema from an imaginary library that also implements Standard JSON Schema. */
function standIn(
  jsonSchema: (target: string) => Record<string, unknown>,
): StandardSchemaV1<{ query: string }> & StandardJSONSchemaV1<{ query: string }> {
  return {
    "~standard": {
      version: 1,
      vendor: "standin",
      validate: (value) =>
        typeof value === "object" && value !== null && "query" in value
          ? { value: value as { query: string } }
          : { issues: [{ message: "query is required" }] },
      jsonSchema: {
        input: ({ target }) => jsonSchema(target),
        output: ({ target }) => jsonSchema(target),
      },
    },
  };
}

const queryJsonSchema = {
  type: "object",
  properties: { query: { type: "string" } },
  required: ["query"],
};

describe("toJsonSchema from zod", () => {
  it("converts a realistic tool input: nested object, optional, enum, array, default, description", () => {
    const schema = toJsonSchema(editInput);
    expect(schema).toEqual({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      description: "Edit a file",
      properties: {
        path: { type: "string", minLength: 1, description: "File to edit" },
        mode: { type: "string", enum: ["replace", "append"], description: "How to write" },
        encoding: { type: "string" },
        maxLines: {
          type: "integer",
          exclusiveMinimum: 0,
          maximum: Number.MAX_SAFE_INTEGER,
          default: 200,
        },
        range: {
          type: "object",
          description: "Lines to change",
          properties: {
            start: { type: "integer", minimum: expect.any(Number), maximum: expect.any(Number) },
            end: { type: "integer", minimum: expect.any(Number), maximum: expect.any(Number) },
          },
          required: ["start"],
        },
        tags: { type: "array", items: { type: "string" }, maxItems: 5 },
      },
      required: ["path", "mode", "tags"],
    });
  });

  it("returns plain JSON data, not zod's result that also carries ~standard", () => {
    const schema = toJsonSchema(editInput);
    expect("~standard" in schema).toBe(false);
    expect(isStandardSchema(schema)).toBe(false);
    expect(isJsonSchema(schema)).toBe(true);
  });

  it("produces a schema the validator accepts the zod input with", () => {
    const validate = new Ajv({ strict: false }).compile(toJsonSchema(editInput));
    expect(validate({ path: "a.ts", mode: "append", tags: [] })).toBe(true);
    expect(validate({ path: "a.ts", mode: "delete", tags: [] })).toBe(false);
    expect(validate({ path: "a.ts", mode: "append" })).toBe(false);
  });

  it("infers the tool input type from a zod schema as its parsed output", () => {
    type Input = InferToolInput<typeof editInput>;
    expectTypeOf<Input>().toEqualTypeOf<{
      path: string;
      mode: "replace" | "append";
      encoding?: string | undefined;
      maxLines: number;
      range?: { start: number; end?: number | undefined } | undefined;
      tags: string[];
    }>();
    expectTypeOf<InferToolInput<JsonSchema>>().toEqualTypeOf<JsonObject>();
    expectTypeOf<InferToolInput<ReturnType<typeof standIn>>>().toEqualTypeOf<{ query: string }>();
  });

  it("keeps additionalProperties false for a strict zod object", () => {
    const schema = toJsonSchema(z.strictObject({ a: z.string() }));
    expect(schema.additionalProperties).toBe(false);
  });

  it("writes required [] and properties {} for an object with no required fields", () => {
    expect(toJsonSchema(z.object({}))).toMatchObject({ properties: {}, required: [] });
    expect(toJsonSchema(z.object({ a: z.string().optional() })).required).toEqual([]);
  });

  it("rejects a non-object zod schema, naming the problem", () => {
    const error = thrown(() => toJsonSchema(z.string()));
    expect(error.message).toBe(
      'The zod schema must describe an object (JSON Schema type "object") to be a tool\'s ' +
        'parameters; it is type "string". Wrap the input in an object, e.g. z.object({ ... }).',
    );
    expect(thrown(() => toJsonSchema(z.union([z.object({}), z.string()]))).message).toMatch(
      /it is a schema with "anyOf" and no type "object"/,
    );
  });

  it("wraps zod's own conversion error for a type JSON Schema cannot express", () => {
    const error = thrown(() => toJsonSchema(z.object({ big: z.bigint() })));
    expect(error.message).toMatch(/^The zod schema cannot be converted to JSON Schema: /);
    expect(error.cause).toBeInstanceOf(Error);
  });

  it("is also reachable as JsonSchemaGenerator.generate", () => {
    expect(JsonSchemaGenerator.generate(z.object({ a: z.boolean() })).properties).toEqual({
      a: { type: "boolean" },
    });
  });
});

describe("toJsonSchema from a Standard Schema", () => {
  it("asks for draft-07 input JSON Schema", () => {
    const targets: string[] = [];
    const schema = toJsonSchema(
      standIn((target) => {
        targets.push(target);
        return queryJsonSchema;
      }),
    );
    expect(targets).toEqual(["draft-07"]);
    expect(schema).toEqual(queryJsonSchema);
  });

  it("falls back to draft 2020-12 and marks the dialect with $schema", () => {
    const schema = toJsonSchema(
      standIn((target) => {
        if (target !== "draft-2020-12") throw new Error(`unsupported target ${target}`);
        return queryJsonSchema;
      }),
    );
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(schema.properties).toEqual(queryJsonSchema.properties);
  });

  it("keeps the $schema a 2020-12 library writes itself", () => {
    const uri = "https://json-schema.org/draft/2020-12/schema#";
    const schema = toJsonSchema(
      standIn((target) => {
        if (target === "draft-07") throw new Error("no");
        return { $schema: uri, ...queryJsonSchema };
      }),
    );
    expect(schema.$schema).toBe(uri);
  });

  it("reports the first error when no target can be converted", () => {
    const error = thrown(() =>
      toJsonSchema(
        standIn(() => {
          throw new Error("cannot convert");
        }),
      ),
    );
    expect(error.message).toBe(
      "The standin schema cannot be converted to JSON Schema: cannot convert",
    );
  });

  it("rejects a Standard Schema that cannot produce JSON Schema", () => {
    const plain: StandardSchemaV1<string> = {
      "~standard": {
        version: 1,
        vendor: "valibot",
        validate: (value) => ({ value: String(value) }),
      },
    };
    expect(thrown(() => toJsonSchema(plain)).message).toMatch(
      /^The valibot schema does not implement Standard JSON Schema \(~standard\.jsonSchema\)/,
    );
  });

  it("rejects a Standard Schema whose JSON Schema is not an object", () => {
    expect(thrown(() => toJsonSchema(standIn(() => ({ type: "array" })))).message).toMatch(
      /^The standin schema must describe an object .* it is type "array"\./,
    );
  });
});

describe("toJsonSchema from a JSON Schema", () => {
  it("returns a complete object schema as is", () => {
    const schema = JsonSchemaBuilder.create().addString("a", "A").build();
    expect(toJsonSchema(schema)).toBe(schema);
  });

  it("fills in missing properties and required on a copy", () => {
    const partial = { type: "object" } as unknown as JsonSchema;
    expect(toJsonSchema(partial)).toEqual({ type: "object", properties: {}, required: [] });
    expect(partial).toEqual({ type: "object" });
  });

  it("rejects a JSON Schema that is not an object schema", () => {
    const notObject = { type: "string" } as unknown as JsonSchema;
    expect(thrown(() => toJsonSchema(notObject)).message).toMatch(
      /^The JSON Schema must describe an object .* it is type "string"\./,
    );
    const untyped = {} as unknown as JsonSchema;
    expect(thrown(() => toJsonSchema(untyped)).message).toMatch(/it is a schema without a type/);
  });

  it("rejects values that are no schema at all", () => {
    for (const [value, got] of [
      [null, "null"],
      ["object", "string"],
      [[], "an array"],
    ] as const) {
      expect(thrown(() => toJsonSchema(value as unknown as JsonSchema)).message).toBe(
        `Expected a zod schema, a Standard Schema or a JSON Schema object; got ${got}.`,
      );
    }
  });
});

describe("schema guards", () => {
  it("isStandardSchema accepts zod and stand-ins and rejects JSON Schemas", () => {
    expect(isStandardSchema(editInput)).toBe(true);
    expect(isStandardSchema(standIn(() => queryJsonSchema))).toBe(true);
    expect(isStandardSchema(queryJsonSchema)).toBe(false);
    expect(isStandardSchema(null)).toBe(false);
    expect(isStandardSchema({ "~standard": { version: 2, validate: () => ({}) } })).toBe(false);
    expect(isStandardSchema({ "~standard": { version: 1, vendor: "x" } })).toBe(false);
  });

  it("isStandardSchema accepts a schema that is a function, as arktype's are", () => {
    const fn = Object.assign(() => undefined, {
      "~standard": { version: 1, vendor: "arktype", validate: (value: unknown) => ({ value }) },
    });
    expect(isStandardSchema(fn)).toBe(true);
  });

  it("isJsonSchema accepts object schemas only", () => {
    expect(isJsonSchema(queryJsonSchema)).toBe(true);
    expect(isJsonSchema({ type: "object" })).toBe(true);
    expect(isJsonSchema({ type: "string" })).toBe(false);
    expect(isJsonSchema({ type: "object", properties: [] })).toBe(false);
    expect(isJsonSchema({ type: "object", required: [1] })).toBe(false);
    expect(isJsonSchema({ type: "object", required: "a" })).toBe(false);
    expect(isJsonSchema(editInput)).toBe(false);
    expect(isJsonSchema([])).toBe(false);
  });
});
