import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { AinternError } from "../../src/core/index.js";
import {
  InvalidSchemaError,
  JsonSchema,
  JsonSchemaBuilder,
  SchemaErrorCode,
} from "../../src/schema/index.js";
import { thrown } from "./thrown.js";

describe("JsonSchemaBuilder (spec 001 JsonSchemaBuilderTests)", () => {
  it("Build_CreatesValidSchema: builds an object schema with description, properties and required", () => {
    const schema = JsonSchemaBuilder.create()
      .withDescription("Test schema")
      .addString("name", "The name", { required: true })
      .addInteger("count", "The count", { minimum: 0 })
      .addBoolean("enabled", "Whether enabled", { defaultValue: true })
      .build();

    expect(schema.type).toBe("object");
    expect(schema.description).toBe("Test schema");
    expect(Object.keys(schema.properties)).toHaveLength(3);
    expect(schema.required).toContain("name");
  });

  it("AddEnum_CreatesEnumProperty: adds a string property with its enum values", () => {
    const schema = JsonSchemaBuilder.create()
      .addEnum("status", "The status", ["active", "inactive"], { required: true })
      .build();

    const prop = schema.properties.status;
    expect(prop?.type).toBe("string");
    expect(prop?.enum).toEqual(["active", "inactive"]);
  });

  it("AddArray_CreatesArrayProperty: adds a string array with item type and counts", () => {
    const schema = JsonSchemaBuilder.create()
      .addStringArray("tags", "List of tags", { minItems: 1, maxItems: 10 })
      .build();

    const prop = schema.properties.tags;
    expect(prop?.type).toBe("array");
    expect(prop?.items?.type).toBe("string");
    expect(prop?.minItems).toBe(1);
  });
});

describe("JsonSchemaBuilder methods", () => {
  it("writes every string option and leaves unset ones out", () => {
    const schema = JsonSchemaBuilder.create()
      .addString("path", "File path", {
        required: true,
        defaultValue: "src/a.ts",
        pattern: "^[^\\0]+$",
        minLength: 1,
        maxLength: 4096,
        examples: ["src/a.ts", "README.md"],
      })
      .addString("plain", "No options")
      .build();

    expect(schema.properties.path).toEqual({
      type: "string",
      description: "File path",
      default: "src/a.ts",
      pattern: "^[^\\0]+$",
      minLength: 1,
      maxLength: 4096,
      examples: ["src/a.ts", "README.md"],
    });
    expect(schema.properties.plain).toEqual({ type: "string", description: "No options" });
    expect(schema.required).toEqual(["path"]);
  });

  it("adds an enum default that is one of the values", () => {
    const schema = JsonSchemaBuilder.create()
      .addEnum("mode", "Mode", ["fast", "safe"], { defaultValue: "safe" })
      .build();
    expect(schema.properties.mode).toEqual({
      type: "string",
      description: "Mode",
      enum: ["fast", "safe"],
      default: "safe",
    });
    expect(schema.required).toEqual([]);
  });

  it("adds a path, with '(must exist)' in the description only when asked", () => {
    const schema = JsonSchemaBuilder.create()
      .addPath("source", "Source file", { required: true, mustExist: true })
      .addPath("target", "Target file")
      .build();
    expect(schema.properties.source).toEqual({
      type: "string",
      description: "Source file (must exist)",
    });
    expect(schema.properties.target).toEqual({ type: "string", description: "Target file" });
    expect(schema.required).toEqual(["source"]);
  });

  it("adds integer and number properties with default and bounds, including zero values", () => {
    const schema = JsonSchemaBuilder.create()
      .addInteger("offset", "Offset", { defaultValue: 0, minimum: 0, maximum: 100 })
      .addNumber("ratio", "Ratio", { required: true, defaultValue: 0.5, minimum: 0, maximum: 1 })
      .build();
    expect(schema.properties.offset).toEqual({
      type: "integer",
      description: "Offset",
      default: 0,
      minimum: 0,
      maximum: 100,
    });
    expect(schema.properties.ratio).toEqual({
      type: "number",
      description: "Ratio",
      default: 0.5,
      minimum: 0,
      maximum: 1,
    });
  });

  it("adds a boolean whose default is false", () => {
    const schema = JsonSchemaBuilder.create()
      .addBoolean("recursive", "Recurse", { defaultValue: false })
      .build();
    expect(schema.properties.recursive).toEqual({
      type: "boolean",
      description: "Recurse",
      default: false,
    });
  });

  it("writes uniqueItems on a string array only when true", () => {
    const schema = JsonSchemaBuilder.create()
      .addStringArray("unique", "Unique", { uniqueItems: true })
      .addStringArray("any", "Any", { uniqueItems: false })
      .build();
    expect(schema.properties.unique).toEqual({
      type: "array",
      description: "Unique",
      items: { type: "string" },
      uniqueItems: true,
    });
    expect(schema.properties.any).not.toHaveProperty("uniqueItems");
  });

  it("adds an array of a custom item schema, copied so later changes do not leak in", () => {
    const item = { type: "integer", minimum: 1 };
    const schema = JsonSchemaBuilder.create()
      .addArray("lines", "Line numbers", item, { required: true, minItems: 1, maxItems: 5 })
      .build();
    item.minimum = 99;
    expect(schema.properties.lines).toEqual({
      type: "array",
      description: "Line numbers",
      items: { type: "integer", minimum: 1 },
      minItems: 1,
      maxItems: 5,
    });
  });

  it("adds a nested object with its own required list and additionalProperties false", () => {
    const schema = JsonSchemaBuilder.create()
      .addObject(
        "range",
        "Lines to read",
        (b) => b.addInteger("start", "First line", { required: true }).addInteger("end", "Last"),
        { required: true },
      )
      .addObject("options", "Nothing required", (b) => b.addBoolean("x", "X"))
      .addObject("open", "Open object", (b) => b.allowAdditionalProperties())
      .build();
    expect(schema.properties.range).toEqual({
      type: "object",
      description: "Lines to read",
      properties: {
        start: { type: "integer", description: "First line" },
        end: { type: "integer", description: "Last" },
      },
      required: ["start"],
      additionalProperties: false,
    });
    expect(schema.properties.options).not.toHaveProperty("required");
    expect(schema.properties.open?.additionalProperties).toBe(true);
    expect(schema.required).toEqual(["range"]);
  });

  it("adds a free-form property for keywords the other methods do not cover", () => {
    const schema = JsonSchemaBuilder.create()
      .addProperty("when", { type: "string", format: "date-time" }, { required: true })
      .build();
    expect(schema.properties.when).toEqual({ type: "string", format: "date-time" });
    expect(schema.required).toEqual(["when"]);
  });

  it("writes additionalProperties false explicitly unless allowed", () => {
    expect(JsonSchemaBuilder.create().build()).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
    expect(
      JsonSchemaBuilder.create().allowAdditionalProperties().build().additionalProperties,
    ).toBe(true);
    expect(
      JsonSchemaBuilder.create()
        .allowAdditionalProperties()
        .allowAdditionalProperties(false)
        .build().additionalProperties,
    ).toBe(false);
  });

  it("returns a fresh schema on each build that later builder calls do not change", () => {
    const builder = JsonSchemaBuilder.create().addString("a", "A", { required: true });
    const first = builder.build();
    builder.addString("b", "B", { required: true });
    const second = builder.build();
    expect(Object.keys(first.properties)).toEqual(["a"]);
    expect(first.required).toEqual(["a"]);
    expect(second.required).toEqual(["a", "b"]);
    expect(second.properties.a).not.toBe(first.properties.a);
  });

  it("produces schemas Ajv compiles, rejecting extra properties and honouring every constraint", () => {
    const schema = JsonSchemaBuilder.create()
      .addString("path", "File path", { required: true, maxLength: 10 })
      .addEnum("mode", "Mode", ["r", "w"])
      .addInteger("count", "Count", { minimum: 1 })
      .addObject("range", "Range", (b) => b.addInteger("start", "Start", { required: true }))
      .build();
    const validate = new Ajv({ strict: true }).compile(schema);
    expect(validate({ path: "a.txt", mode: "r", count: 1, range: { start: 0 } })).toBe(true);
    expect(validate({ path: "a.txt", extra: 1 })).toBe(false);
    expect(validate({ path: "a.txt", range: { start: 0, extra: 1 } })).toBe(false);
    expect(validate({ path: "a.txt", range: {} })).toBe(false);
    expect(validate({ path: "a-very-long-name.txt" })).toBe(false);
    expect(validate({ path: "a", mode: "x" })).toBe(false);
    expect(validate({ path: "a", count: 0 })).toBe(false);
    expect(validate({})).toBe(false);
  });

  it("serializes with JsonSchema.toJson, leaving out additionalProperties false", () => {
    const schema = JsonSchemaBuilder.create().addBoolean("x", "X").build();
    expect(JSON.parse(JsonSchema.toJson(schema))).toEqual({
      type: "object",
      properties: { x: { type: "boolean", description: "X" } },
      required: [],
    });
  });

  it("accepts 'constructor' and '__proto__' as property names", () => {
    const schema = JsonSchemaBuilder.create()
      .addString("constructor", "A constructor name", { required: true })
      .addString("__proto__", "A prototype name")
      .build();
    expect(Object.hasOwn(schema.properties, "constructor")).toBe(true);
    expect(Object.hasOwn(schema.properties, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(schema.properties)).toBe(Object.prototype);
    expect(
      Object.getOwnPropertyDescriptor(JSON.parse(JSON.stringify(schema)).properties, "__proto__")
        ?.value,
    ).toEqual({
      type: "string",
      description: "A prototype name",
    });
  });
});

describe("JsonSchemaBuilder bad input", () => {
  it("rejects a duplicate property name, naming it", () => {
    const error = thrown(() =>
      JsonSchemaBuilder.create().addString("path", "A").addInteger("path", "B"),
    );
    expect(error.message).toBe(
      "Property 'path' is already defined; each property name may be added once.",
    );
    expect(error.propertyName).toBe("path");
    expect(error.code).toBe(SchemaErrorCode.InvalidSchema);
    expect(AinternError.isInstance(error)).toBe(true);
  });

  it("rejects an empty or blank property name", () => {
    expect(thrown(() => JsonSchemaBuilder.create().addString("", "A")).message).toMatch(
      /non-empty string/,
    );
    expect(thrown(() => JsonSchemaBuilder.create().addBoolean("  ", "A")).message).toMatch(
      /non-empty string/,
    );
  });

  it.each([
    [
      "minLength above maxLength",
      () => JsonSchemaBuilder.create().addString("name", "N", { minLength: 5, maxLength: 2 }),
      "Property 'name' has minLength 5 greater than maxLength 2.",
    ],
    [
      "minimum above maximum",
      () => JsonSchemaBuilder.create().addInteger("count", "C", { minimum: 10, maximum: 1 }),
      "Property 'count' has minimum 10 greater than maximum 1.",
    ],
    [
      "minItems above maxItems",
      () => JsonSchemaBuilder.create().addStringArray("tags", "T", { minItems: 3, maxItems: 2 }),
      "Property 'tags' has minItems 3 greater than maxItems 2.",
    ],
    [
      "minItems above maxItems on a custom array",
      () =>
        JsonSchemaBuilder.create().addArray(
          "xs",
          "X",
          { type: "number" },
          { minItems: 3, maxItems: 0 },
        ),
      "Property 'xs' has minItems 3 greater than maxItems 0.",
    ],
    [
      "a negative length",
      () => JsonSchemaBuilder.create().addString("name", "N", { minLength: -1 }),
      "Property 'name' has minLength -1; it must be a non-negative integer.",
    ],
    [
      "a fractional item count",
      () => JsonSchemaBuilder.create().addStringArray("tags", "T", { maxItems: 1.5 }),
      "Property 'tags' has maxItems 1.5; it must be a non-negative integer.",
    ],
    [
      "a fractional integer bound",
      () => JsonSchemaBuilder.create().addInteger("count", "C", { minimum: 0.5 }),
      "Property 'count' has minimum 0.5, not an integer.",
    ],
    [
      "a non-finite number",
      () => JsonSchemaBuilder.create().addNumber("ratio", "R", { maximum: Number.NaN }),
      "Property 'ratio' has maximum NaN, not a finite number.",
    ],
    [
      "a default below the minimum",
      () => JsonSchemaBuilder.create().addNumber("ratio", "R", { minimum: 0, defaultValue: -1 }),
      "Property 'ratio' has default -1, below its minimum 0.",
    ],
    [
      "a default above the maximum",
      () => JsonSchemaBuilder.create().addInteger("n", "N", { maximum: 3, defaultValue: 4 }),
      "Property 'n' has default 4, above its maximum 3.",
    ],
    [
      "an empty enum",
      () => JsonSchemaBuilder.create().addEnum("mode", "M", []),
      "Property 'mode' needs at least one enum value.",
    ],
    [
      "a repeated enum value",
      () => JsonSchemaBuilder.create().addEnum("mode", "M", ["a", "b", "a"]),
      "Property 'mode' lists enum value 'a' twice.",
    ],
    [
      "an enum default that is not a value",
      () => JsonSchemaBuilder.create().addEnum("mode", "M", ["a", "b"], { defaultValue: "c" }),
      "Property 'mode' has default 'c', which is not one of 'a', 'b'.",
    ],
    [
      "an invalid pattern",
      () => JsonSchemaBuilder.create().addString("name", "N", { pattern: "(" }),
      "Property 'name' has an invalid pattern /(/.",
    ],
    [
      "a default that breaks the pattern",
      () =>
        JsonSchemaBuilder.create().addString("id", "I", {
          pattern: "^[a-z]+$",
          defaultValue: "A1",
        }),
      "Property 'id' has value 'A1' that does not match its pattern /^[a-z]+$/.",
    ],
    [
      "an example shorter than minLength",
      () => JsonSchemaBuilder.create().addString("id", "I", { minLength: 3, examples: ["ab"] }),
      "Property 'id' has value 'ab' shorter than its minLength 3.",
    ],
    [
      "a default longer than maxLength",
      () => JsonSchemaBuilder.create().addString("id", "I", { maxLength: 1, defaultValue: "ab" }),
      "Property 'id' has value 'ab' longer than its maxLength 1.",
    ],
  ])("rejects %s with a message naming the property", (_case, build, message) => {
    expect(thrown(build).message).toBe(message);
  });

  it("counts string length in code points, as Ajv does", () => {
    expect(() =>
      JsonSchemaBuilder.create().addString("emoji", "E", { maxLength: 1, defaultValue: "😀" }),
    ).not.toThrow();
  });

  it("names the full path of a bad property inside a nested object", () => {
    const error = thrown(() =>
      JsonSchemaBuilder.create().addObject("outer", "O", (o) =>
        o.addObject("inner", "I", (i) => i.addInteger("n", "N", { minimum: 2, maximum: 1 })),
      ),
    );
    expect(error.propertyName).toBe("outer.inner.n");
    expect(error.message).toBe("Property 'outer.inner.n' has minimum 2 greater than maximum 1.");
    expect(error.cause).toBeInstanceOf(InvalidSchemaError);
  });

  it("lets other errors from a nested configure callback through unchanged", () => {
    const failure = new Error("boom");
    expect(() =>
      JsonSchemaBuilder.create().addObject("o", "O", () => {
        throw failure;
      }),
    ).toThrow(failure);
  });
});
