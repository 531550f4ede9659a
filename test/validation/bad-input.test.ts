import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ToolValidator, ValidationErrorCode } from "../../src/validation/index.js";

const closed = {
  type: "object",
  properties: {
    query: { type: "string" },
    options: {
      type: "object",
      properties: {
        depth: { type: "integer" },
        tags: { type: "array", items: { type: "string" } },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;
const open = { type: "object" } as const;
const recursive = {
  type: "object",
  properties: { child: { $ref: "#" }, value: { type: "string" } },
} as const;
const schemas = { closed, open, recursive };

/** `{ a: { a: ... } }` `levels` deep, built without recursion. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe("ToolValidator on parameters that are not an object", () => {
  const validator = new ToolValidator();
  it.each([
    ["null", null, "The parameters must be an object, got null"],
    ["an array", [1, 2], "The parameters must be an object, got array [1,2]"],
    ["a string", "{}", `The parameters must be an object, got string "{}"`],
    ["a number", 42, "The parameters must be an object, got number 42"],
    ["undefined", undefined, "The parameters must be an object, got undefined"],
    ["a boolean", true, "The parameters must be an object, got boolean true"],
  ])("fails with type_mismatch on the root for %s", (_, parameters, message) => {
    const result = validator.validateAgainstSchema(parameters, closed);
    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      parameterName: "",
      errorCode: ValidationErrorCode.TypeMismatch,
      expectedDescription: "object",
      message,
    });
  });
});

describe.each(Object.entries(schemas))("ToolValidator limits with a %s schema", (_, schema) => {
  const validator = new ToolValidator();

  it("rejects a 10 MB string as too_large, at its path", () => {
    const big = "x".repeat(10 * 1024 * 1024);
    const parameters = schema === closed ? { query: big } : { value: big };
    const result = validator.validateAgainstSchema(parameters, schema);
    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({
      parameterName: schema === closed ? "query" : "value",
      errorCode: ValidationErrorCode.TooLarge,
    });
    expect(result.errors[0]?.message).toMatch(
      /is too large: a string of 10485760 characters; the limit is 1000000 characters$/,
    );
  });

  it("rejects a value nested 100,000 levels deep as too_deep, without overflowing", () => {
    const deep = nested(100_000);
    const parameters = schema === closed ? { options: deep } : { child: deep };
    const result = validator.validateAgainstSchema(parameters, schema);
    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.errorCode).toBe(ValidationErrorCode.TooDeep);
    expect(result.errors[0]?.message).toMatch(/is nested more than 64 levels deep; flatten it$/);
    expect(result.errors[0]?.parameterName).toMatch(/^(options|child)(\.a){63}$/);
  });

  it("rejects JSON text nested 100,000 levels deep once parsed", () => {
    const text = `{"child":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    const result = validator.validateAgainstSchema(JSON.parse(text), schema);
    expect(result.isValid).toBe(false);
    expect(result.errors[0]?.errorCode).toBe(ValidationErrorCode.TooDeep);
  });

  it("rejects a cyclic object as a circular reference, without hanging", () => {
    const cyclic: Record<string, unknown> = { value: "x" };
    cyclic.child = cyclic;
    const inner: Record<string, unknown> = { depth: 1 };
    inner.tags = [inner];
    const parameters = schema === closed ? { options: inner } : cyclic;
    const result = validator.validateAgainstSchema(parameters, schema);
    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.errorCode).toBe(ValidationErrorCode.InvalidValue);
    expect(result.errors[0]?.message).toMatch(
      /\(a circular reference\); parameters must be plain JSON$/,
    );
    expect(result.errors[0]?.parameterName).toBe(schema === closed ? "options.tags[0]" : "child");
  });

  it("rejects values JSON cannot carry", () => {
    for (const bad of [() => 1, Symbol("s"), 10n, Number.NaN, Number.NEGATIVE_INFINITY]) {
      const parameters = schema === closed ? { options: { depth: bad } } : { value: bad };
      const result = validator.validateAgainstSchema(parameters, schema);
      expect(result.isValid).toBe(false);
      expect(result.errors[0]?.errorCode).not.toBe(ValidationErrorCode.Required);
    }
  });

  it("rejects more values than maxNodes", () => {
    const items = Array.from({ length: 200_000 }, () => "t");
    const parameters = schema === closed ? { options: { tags: items } } : { value: items };
    const result = validator.validateAgainstSchema(parameters, schema);
    expect(result.isValid).toBe(false);
    expect(result.errors[0]).toMatchObject({
      parameterName: "",
      errorCode: ValidationErrorCode.TooLarge,
    });
    expect(result.errors[0]?.message).toMatch(/^The parameters are too large: too many values/);
  });
});

describe("ToolValidator limits", () => {
  it("takes its limits from the constructor", () => {
    const strict = new ToolValidator({
      maxDepth: 2,
      maxStringLength: 4,
      maxNodes: 5,
      maxTotalSize: 8,
    });
    expect(strict.limits).toEqual({
      maxDepth: 2,
      maxStringLength: 4,
      maxNodes: 5,
      maxTotalSize: 8,
    });
    expect(strict.validateAgainstSchema({ a: { b: 1 } }, open).isValid).toBe(true);
    expect(strict.validateAgainstSchema({ a: { b: {} } }, open).errors[0]).toMatchObject({
      parameterName: "a.b",
      errorCode: "too_deep",
    });
    expect(strict.validateAgainstSchema({ a: "abcde" }, open).errors[0]?.errorCode).toBe(
      "too_large",
    );
    expect(strict.validateAgainstSchema({ a: [1, 2, 3, 4, 5] }, open).errors[0]?.message).toMatch(
      /too many values; the limit is 5 values/,
    );
    expect(
      strict.validateAgainstSchema({ a: "abc", b: "abc", c: "abc" }, open).errors[0]?.message,
    ).toMatch(/too much text; the limit is 8 characters/);
    expect(strict.validateAgainstSchema({ abcdefg: 1 }, open).errors[0]?.message).toMatch(
      /a property name of 7 characters/,
    );
  });

  it("checks the limits of a value Ajv finds valid against a closed schema", () => {
    const strict = new ToolValidator({ maxStringLength: 10, maxDepth: 3 });
    expect(strict.validateAgainstSchema({ query: "short" }, closed).isValid).toBe(true);
    const result = strict.validateAgainstSchema({ query: "much too long a query" }, closed);
    expect(result.errors[0]).toMatchObject({ parameterName: "query", errorCode: "too_large" });
    const tags = strict.validateAgainstSchema(
      { options: { tags: ["much too long a tag"] } },
      closed,
    );
    expect(tags.errors[0]).toMatchObject({
      parameterName: "options.tags[0]",
      errorCode: "too_large",
    });
  });

  it("reports a throwing getter as unreadable instead of throwing", () => {
    const validator = new ToolValidator();
    const parameters = {
      get query(): string {
        throw new Error("boom");
      },
    };
    for (const schema of [closed, open]) {
      const result = validator.validateAgainstSchema(parameters, schema);
      expect(result.isValid).toBe(false);
      expect(result.errors[0]?.message).toBe(
        "The parameters could not be read as JSON (boom); send plain JSON values",
      );
    }
  });

  it("never throws, whatever the value", () => {
    const validator = new ToolValidator({ maxDepth: 8 });
    fc.assert(
      fc.property(
        fc.anything({ withBigInt: true, withNullPrototype: true, withMap: true, withDate: true }),
        (value) => {
          for (const schema of Object.values(schemas)) {
            expect(() => validator.validateAgainstSchema(value, schema)).not.toThrow();
            expect(() =>
              validator.validateAgainstSchema({ options: value, value }, schema),
            ).not.toThrow();
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
