import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { JsonSchemaBuilder } from "../../src/schema/index.js";
import {
  ToolValidationResult,
  ToolValidator,
  type ToolValidatorLike,
  type ValidatableSchema,
  ValidationErrorCode,
  ValidationWarningCode,
} from "../../src/validation/index.js";

const validator = new ToolValidator();

/** Any schema, including ones the `JsonSchema` type does not describe (boolean subschemas). */
function anySchema(schema: unknown): ValidatableSchema {
  return schema as ValidatableSchema;
}

function errorsOf(parameters: unknown, schema: unknown) {
  const result = validator.validateAgainstSchema(parameters, anySchema(schema));
  expect(result.isValid).toBe(false);
  return result.errors;
}

describe("ToolValidator (spec 001 ToolValidationTests)", () => {
  it("Validate_MissingRequired_ReturnsError", () => {
    const schema = JsonSchemaBuilder.create()
      .addString("name", "The name", { required: true })
      .build();
    const result = validator.validateAgainstSchema({}, schema);
    expect(result.isValid).toBe(false);
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]?.parameterName).toBe("name");
    expect(result.errors[0]?.errorCode).toBe(ValidationErrorCode.Required);
    expect(result.errors[0]?.message).toBe("Missing required parameter 'name' (string: The name)");
  });

  it("Validate_AllPresent_ReturnsValid", () => {
    const schema = JsonSchemaBuilder.create()
      .addString("name", "The name", { required: true })
      .build();
    const result = validator.validateAgainstSchema({ name: "test" }, schema);
    expect(result.isValid).toBe(true);
    expect(result).toBe(ToolValidationResult.valid());
  });

  it("implements the ToolValidatorLike contract", () => {
    const like: ToolValidatorLike = validator;
    expect(like.validateParameter("n", 1, { type: "integer" })).toEqual([]);
  });
});

describe("ToolValidator error mapping", () => {
  const schema = {
    type: "object",
    properties: {
      path: { type: "string", description: "File path" },
      options: {
        type: "object",
        properties: {
          depth: { type: "integer", minimum: 1, maximum: 10, description: "How deep" },
          tags: { type: "array", items: { type: "string" }, minItems: 1, maxItems: 2 },
          name: { type: "string", minLength: 2, maxLength: 5 },
        },
        required: ["depth"],
      },
      mode: { type: "string", enum: ["read", "write"] },
      level: { const: "high" },
      id: { type: "string", pattern: "^[a-z]+$", description: "Lower-case id" },
      email: { type: "string", format: "email" },
      when: { type: "string", format: "date-time" },
      items: { type: "array", items: { type: "integer" } },
      "weird key": { type: "integer" },
      ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      step: { type: "integer", multipleOf: 5 },
      meta: { type: "object", minProperties: 1, maxProperties: 2 },
    },
    required: ["path"],
    additionalProperties: false,
  } as const;

  it("maps required to 'required' with the missing property's full path", () => {
    const errors = errorsOf({ path: "a", options: {} }, schema);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      parameterName: "options.depth",
      errorCode: "required",
      message: "Missing required parameter 'options.depth' (integer: How deep)",
    });
  });

  it("maps type to 'type_mismatch' with the expected type and the value", () => {
    const [error] = errorsOf({ path: "a", options: { depth: "3" } }, schema);
    expect(error).toMatchObject({
      parameterName: "options.depth",
      errorCode: "type_mismatch",
      message: `Parameter 'options.depth' must be an integer, got string "3"`,
      expectedDescription: "integer",
      providedValue: "3",
    });
  });

  it("reports a union type as alternatives", () => {
    const [error] = errorsOf(
      { a: true },
      {
        type: "object",
        properties: { a: { type: ["string", "null"] } },
      },
    );
    expect(error?.message).toBe("Parameter 'a' must be a string or null, got boolean true");
  });

  it("maps minimum / maximum to 'out_of_range' with both bounds", () => {
    const [error] = errorsOf({ path: "a", options: { depth: 11 } }, schema);
    expect(error).toMatchObject({
      errorCode: "out_of_range",
      message: "Parameter 'options.depth' must be >= 1 and <= 10, got 11",
      expectedDescription: ">= 1 and <= 10",
    });
  });

  it("maps exclusive bounds to 'out_of_range' with < and >", () => {
    const [error] = errorsOf({ path: "a", ratio: 1 }, schema);
    expect(error?.message).toBe("Parameter 'ratio' must be > 0 and < 1, got 1");
    expect(error?.errorCode).toBe("out_of_range");
  });

  it("maps minLength / maxLength, minItems / maxItems, min/maxProperties to 'out_of_range'", () => {
    const long = errorsOf({ path: "a", options: { depth: 1, name: "abcdefgh" } }, schema)[0];
    expect(long).toMatchObject({
      errorCode: "out_of_range",
      message: "Parameter 'options.name' must be between 2 and 5 characters long, got 8",
    });
    const few = errorsOf({ path: "a", options: { depth: 1, tags: [] } }, schema)[0];
    expect(few?.message).toBe("Parameter 'options.tags' must have between 1 and 2 items, got 0");
    const many = errorsOf({ path: "a", meta: { a: 1, b: 2, c: 3 } }, schema)[0];
    expect(many).toMatchObject({
      errorCode: "out_of_range",
      message: "Parameter 'meta' must have between 1 and 2 properties, got 3",
    });
  });

  it("counts characters as code points, as JSON Schema does", () => {
    const [error] = errorsOf(
      { s: "😀😀😀" },
      {
        type: "object",
        properties: { s: { type: "string", maxLength: 2 } },
      },
    );
    expect(error?.message).toBe("Parameter 's' must be at most 2 characters long, got 3");
    const exact = errorsOf(
      { s: "a" },
      {
        type: "object",
        properties: { s: { type: "string", minLength: 3, maxLength: 3 } },
      },
    )[0];
    expect(exact?.message).toBe("Parameter 's' must be exactly 3 characters long, got 1");
    const one = errorsOf(
      { s: "" },
      {
        type: "object",
        properties: { s: { type: "string", minLength: 1 } },
      },
    )[0];
    expect(one?.message).toBe("Parameter 's' must be at least 1 character long, got 0");
  });

  it("maps pattern to 'pattern_mismatch' and adds the description", () => {
    const [error] = errorsOf({ path: "a", id: "ABC" }, schema);
    expect(error).toMatchObject({
      parameterName: "id",
      errorCode: "pattern_mismatch",
      message: `Parameter 'id' must match the pattern ^[a-z]+$, got "ABC" (Lower-case id)`,
      expectedDescription: "^[a-z]+$",
    });
  });

  it("maps enum and const to 'invalid_enum' and suggests the nearest value", () => {
    const [error] = errorsOf({ path: "a", mode: "wrtie" }, schema);
    expect(error).toMatchObject({
      errorCode: "invalid_enum",
      message: `Parameter 'mode' must be one of "read", "write"; got "wrtie". Did you mean "write"?`,
    });
    const [constError] = errorsOf({ path: "a", level: "low" }, schema);
    expect(constError).toMatchObject({
      errorCode: "invalid_enum",
      message: `Parameter 'level' must be "high"; got "low"`,
    });
  });

  it("maps format to 'invalid_value' naming the format", () => {
    const errors = errorsOf({ path: "a", email: "nope", when: "yesterday" }, schema);
    expect(errors.map((e) => [e.parameterName, e.errorCode, e.message])).toEqual([
      ["email", "invalid_value", `Parameter 'email' must be a valid email, got "nope"`],
      ["when", "invalid_value", `Parameter 'when' must be a valid date-time, got "yesterday"`],
    ]);
    expect(
      validator.validateAgainstSchema({ path: "a", when: "2024-01-01T10:00:00Z" }, schema).isValid,
    ).toBe(true);
  });

  it("maps additionalProperties to 'invalid_value' naming the unexpected property", () => {
    const [error] = errorsOf({ path: "a", patth: "b" }, schema);
    expect(error).toMatchObject({ parameterName: "patth", errorCode: "invalid_value" });
    expect(error?.message).toMatch(
      /^Unexpected parameter 'patth'\. Did you mean 'path'\? Allowed: path, options,/,
    );
    expect(error?.providedValue).toBe("b");
  });

  it("says so when an object accepts no properties at all", () => {
    const [error] = errorsOf({ a: 1 }, { type: "object", additionalProperties: false });
    expect(error?.message).toBe("Unexpected parameter 'a'. No parameters are accepted.");
    const [nested] = errorsOf(
      { o: { zz: 1 } },
      {
        type: "object",
        properties: { o: { type: "object", properties: { a: {} }, additionalProperties: false } },
      },
    );
    expect(nested?.message).toBe("Unexpected parameter 'o.zz'. Allowed in 'o': a.");
  });

  it('writes array indexes as [n] and keys that are not identifiers as ["key"]', () => {
    const errors = errorsOf({ path: "a", items: [1, 2, "x"], "weird key": "s" }, schema);
    expect(errors.map((e) => e.parameterName)).toEqual(["items[2]", '["weird key"]']);
    const [nested] = errorsOf(
      { o: { "2": { "a.b": "x" } } },
      {
        type: "object",
        properties: {
          o: {
            type: "object",
            additionalProperties: { type: "object", additionalProperties: { type: "integer" } },
          },
        },
      },
    );
    expect(nested?.parameterName).toBe('o["2"]["a.b"]');
    const [kebab] = errorsOf(
      { "file-path": 1 },
      {
        type: "object",
        properties: { "file-path": { type: "string" } },
      },
    );
    expect(kebab?.parameterName).toBe("file-path");
  });

  it("unescapes JSON Pointer segments in paths", () => {
    const [error] = errorsOf(
      { "a/b": { "c~d": 1 } },
      {
        type: "object",
        additionalProperties: { type: "object", additionalProperties: { type: "string" } },
      },
    );
    expect(error?.parameterName).toBe('["a/b"]["c~d"]');
  });

  it("maps multipleOf, uniqueItems, not, false schemas and dependencies", () => {
    expect(errorsOf({ path: "a", step: 7 }, schema)[0]?.message).toBe(
      "Parameter 'step' must be a multiple of 5, got 7",
    );
    const unique = errorsOf(
      { l: [1, 2, 1] },
      {
        type: "object",
        properties: { l: { type: "array", uniqueItems: true } },
      },
    )[0];
    expect(unique?.message).toBe(
      "Parameter 'l' must not contain duplicates; 'l[0]' and 'l[2]' are identical",
    );
    const not = errorsOf(
      { s: "x" },
      {
        type: "object",
        properties: { s: { not: { type: "string" } } },
      },
    )[0];
    expect(not?.message).toBe(`Parameter 's' must not be a string, got string "x"`);
    const forbidden = errorsOf({ s: 1 }, { type: "object", properties: { s: false } })[0];
    expect(forbidden?.message).toBe("Parameter 's' is not allowed; leave it out");
    const dependency = errorsOf({ a: 1 }, { type: "object", dependencies: { a: ["b"] } })[0];
    expect(dependency).toMatchObject({
      parameterName: "b",
      errorCode: "required",
      message: "Missing parameter 'b', required when 'a' is given",
    });
  });

  it("maps propertyNames to one error naming the rejected name", () => {
    const errors = errorsOf(
      { AB: 1 },
      {
        type: "object",
        propertyNames: { pattern: "^[a-z]+$" },
      },
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ parameterName: "AB", errorCode: "invalid_value" });
    expect(errors[0]?.message).toBe(
      `Parameter name "AB" is not allowed: it must match pattern "^[a-z]+$"`,
    );
  });

  it("falls back to Ajv's words for keywords without a dedicated message", () => {
    const [error] = errorsOf(
      { t: ["a", "b"] },
      {
        type: "object",
        properties: { t: { type: "array", items: [{ type: "string" }], additionalItems: false } },
      },
    );
    expect(error).toMatchObject({ parameterName: "t", errorCode: "invalid_value" });
    expect(error?.message).toBe(
      `Parameter 't' must NOT have more than 1 items, got array ["a","b"]`,
    );
  });

  it("maps contains to one error describing the item it needs", () => {
    const [error] = errorsOf(
      { l: [1, 2] },
      {
        type: "object",
        properties: { l: { type: "array", contains: { type: "string" } } },
      },
    );
    expect(error).toMatchObject({ parameterName: "l", errorCode: "invalid_value" });
    expect(error?.message).toBe("Parameter 'l' must contain at least 1 item matching: a string");
  });

  it("drops the 'if' error and keeps the then / else error it stands for", () => {
    const errors = errorsOf(
      { kind: "file" },
      {
        type: "object",
        if: { properties: { kind: { const: "file" } } },
        // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if / then / else keywords
        then: { required: ["path"] },
        else: { required: ["url"] },
      },
    );
    expect(errors.map((e) => [e.parameterName, e.errorCode])).toEqual([["path", "required"]]);
  });

  it("lists every problem at once (allErrors)", () => {
    const errors = errorsOf({ options: { depth: 0 }, mode: "x", extra: 1 }, schema);
    expect(errors.map((e) => e.parameterName).sort()).toEqual(
      ["extra", "mode", "options.depth", "path"].sort(),
    );
  });

  it("caps the list at maxErrors and says how many more there were", () => {
    const small = new ToolValidator({ maxErrors: 3 });
    const result = small.validateAgainstSchema(
      { l: [..."abcdefghij"] },
      {
        type: "object",
        properties: { l: { type: "array", items: { type: "integer" } } },
      },
    );
    expect(result.errors).toHaveLength(4);
    expect(result.errors[3]?.message).toBe(
      "…and 7 more problems not listed; fix the ones above first",
    );
  });

  it("reports the same problem once, not once per keyword that found it", () => {
    const errors = errorsOf(
      { n: 0 },
      {
        type: "object",
        properties: { n: { type: "number", minimum: 1, exclusiveMinimum: 0.5 } },
      },
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toBe("Parameter 'n' must be >= 1, got 0");
  });
});

describe("ToolValidator anyOf / oneOf", () => {
  const shapes = {
    type: "object",
    definitions: {
      circle: {
        type: "object",
        required: ["kind", "radius"],
        properties: { kind: { const: "circle" }, radius: { type: "number" } },
      },
      square: {
        type: "object",
        required: ["kind", "side"],
        properties: { kind: { const: "square" }, side: { type: "number" } },
      },
    },
    properties: {
      shape: { oneOf: [{ $ref: "#/definitions/circle" }, { $ref: "#/definitions/square" }] },
      size: { anyOf: [{ type: "integer" }, { type: "string", pattern: "^[0-9]+(px|em)$" }] },
    },
  } as const;

  it("collapses a failing anyOf to one error at the branch point", () => {
    const errors = errorsOf({ size: true }, shapes);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ parameterName: "size", errorCode: "invalid_value" });
    expect(errors[0]?.message).toBe(
      "Parameter 'size' must match one of these forms: (1) an integer; " +
        "(2) a string matching ^[0-9]+(px|em)$; got boolean true",
    );
  });

  it("names the closest branch and its first problem", () => {
    const errors = errorsOf({ size: "12pt" }, shapes);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.message).toMatch(
      /Closest is form \(2\): Parameter 'size' must match the pattern \^\[0-9\]\+\(px\|em\)\$, got "12pt"$/,
    );
  });

  it("picks the branch whose discriminator matched, through $ref", () => {
    const errors = errorsOf({ shape: { kind: "circle", radius: "big" } }, shapes);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.parameterName).toBe("shape");
    expect(errors[0]?.message).toMatch(
      /^Parameter 'shape' must match exactly one of these forms: \(1\) 'circle'; \(2\) 'square'/,
    );
    expect(errors[0]?.message).toMatch(
      /Closest is form \(1\): Parameter 'shape\.radius' must be a number, got string "big"$/,
    );
  });

  it("says which forms matched when a oneOf matches more than one", () => {
    const [error] = errorsOf(
      { n: 3 },
      {
        type: "object",
        properties: { n: { oneOf: [{ type: "integer" }, { type: "number" }] } },
      },
    );
    expect(error?.message).toBe(
      "Parameter 'n' matches forms (1) and (2) but must match exactly one of: (1) an integer; (2) a number; got number 3",
    );
  });

  it("keeps a sibling keyword's error apart from the branch errors", () => {
    const errors = errorsOf(
      { a: 1 },
      {
        type: "object",
        properties: {
          a: {
            type: "integer",
            not: { const: 1 },
            allOf: [{ minimum: 5 }],
            anyOf: [{ const: 3 }, { const: 4 }],
          },
        },
      },
    );
    expect(errors.map((e) => [e.errorCode, e.message]).sort()).toEqual([
      [
        "invalid_value",
        "Parameter 'a' must match one of these forms: (1) exactly 3; (2) exactly 4; got number 1",
      ],
      ["invalid_value", "Parameter 'a' must not be exactly 1, got number 1"],
      ["out_of_range", "Parameter 'a' must be >= 5, got 1"],
    ]);
  });

  it("collapses nested unions and root-level unions too", () => {
    const errors = errorsOf(
      { a: 1 },
      {
        anyOf: [
          { type: "object", required: ["b"] },
          {
            type: "object",
            properties: { a: { anyOf: [{ type: "string" }, { type: "boolean" }] } },
          },
        ],
      },
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]?.parameterName).toBe("");
    expect(errors[0]?.message).toMatch(
      /^The parameters must match one of these forms: \(1\) an object with required b; \(2\) an object with properties a/,
    );
  });
});

describe("ToolValidator dialects and draft-07 features", () => {
  it("supports $ref / definitions, allOf and boolean schemas", () => {
    const schema = {
      type: "object",
      definitions: { positive: { type: "integer", minimum: 1 } },
      properties: { n: { $ref: "#/definitions/positive" }, any: true },
      allOf: [{ required: ["n"] }],
    };
    expect(
      validator.validateAgainstSchema({ n: 2, any: [1, { x: null }] }, anySchema(schema)).isValid,
    ).toBe(true);
    expect(errorsOf({ n: 0 }, schema)[0]?.message).toBe("Parameter 'n' must be >= 1, got 0");
    expect(errorsOf({}, schema)[0]?.parameterName).toBe("n");
    expect(validator.validateAgainstSchema({ anything: 1 }, true).isValid).toBe(true);
    expect(errorsOf({}, false)[0]?.message).toBe("No parameters are accepted");
  });

  it("supports a recursive schema", () => {
    const tree = {
      type: "object",
      properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["value"],
    };
    expect(
      validator.validateAgainstSchema({ value: 1, children: [{ value: 2, children: [] }] }, tree)
        .isValid,
    ).toBe(true);
    const [error] = errorsOf(
      { value: 1, children: [{ value: 2, children: [{ value: "x" }] }] },
      tree,
    );
    expect(error?.parameterName).toBe("children[0].children[0].value");
  });

  it("uses the 2020-12 dialect where $schema declares it", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      $defs: {
        pair: {
          type: "array",
          prefixItems: [{ type: "string" }, { type: "integer" }],
          items: false,
        },
      },
      properties: { p: { $ref: "#/$defs/pair" } },
      unevaluatedProperties: false,
    };
    expect(validator.validateAgainstSchema({ p: ["a", 1] }, schema).isValid).toBe(true);
    const errors = errorsOf({ p: ["a", "b", 3], q: 1 }, schema);
    expect(errors.map((e) => e.parameterName).sort()).toEqual(["p", "p[1]", "q"]);
    expect(errors.find((e) => e.parameterName === "q")?.message).toMatch(
      /^Unexpected parameter 'q'/,
    );
  });

  it("uses the 2019-09 dialect where $schema declares it", () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      type: "object",
      dependentRequired: { a: ["b"] },
    };
    expect(errorsOf({ a: 1 }, schema)[0]).toMatchObject({
      parameterName: "b",
      errorCode: "required",
    });
  });

  it("accepts draft-07 and draft-06 $schema spellings, https or not", () => {
    for (const uri of [
      "http://json-schema.org/draft-07/schema#",
      "https://json-schema.org/draft-07/schema",
      "http://json-schema.org/draft-06/schema#",
    ]) {
      const schema = { $schema: uri, type: "object", properties: { a: { type: "string" } } };
      expect(ToolValidator.checkSchema(schema)).toBeUndefined();
      expect(errorsOf({ a: 1 }, schema)[0]?.errorCode).toBe("type_mismatch");
    }
  });

  it("treats NaN and Infinity as invalid numbers", () => {
    const schema = { type: "object", properties: { n: { type: "number" } } };
    expect(validator.validateAgainstSchema({ n: Number.NaN }, schema).isValid).toBe(false);
    expect(validator.validateAgainstSchema({ n: Number.POSITIVE_INFINITY }, schema).isValid).toBe(
      false,
    );
  });
});

describe("ToolValidator.checkSchema", () => {
  it("is undefined for a valid schema", () => {
    expect(ToolValidator.checkSchema({ type: "object", properties: {} })).toBeUndefined();
    expect(ToolValidator.checkSchema(true)).toBeUndefined();
  });

  it("reports a meta-schema violation with its place", () => {
    expect(
      ToolValidator.checkSchema({ type: "object", properties: { a: { type: "strin" } } }),
    ).toBe(
      "invalid JSON Schema: at '/properties/a/type': must be equal to one of the allowed values " +
        "(array, boolean, integer, null, number, object, string)",
    );
    expect(
      ToolValidator.checkSchema({ type: "object", properties: { a: { minimum: "1" } } }),
    ).toMatch(/at '\/properties\/a\/minimum': must be number/);
  });

  it("reports bad regular expressions, unresolvable refs, async and non-schemas", () => {
    expect(
      ToolValidator.checkSchema({ type: "object", properties: { a: { pattern: "((" } } }),
    ).toMatch(/^invalid JSON Schema: Invalid regular expression/);
    expect(ToolValidator.checkSchema({ $ref: "#/nope" })).toMatch(
      /can't resolve reference #\/nope/,
    );
    expect(ToolValidator.checkSchema({ $async: true, type: "object" })).toMatch(/\$async/);
    expect(ToolValidator.checkSchema("object")).toBe(
      "a JSON Schema must be an object or a boolean, got string",
    );
    expect(ToolValidator.checkSchema(null)).toMatch(/got null$/);
    expect(ToolValidator.checkSchema([])).toMatch(/got array$/);
  });

  it("reports an unsupported $schema", () => {
    expect(ToolValidator.checkSchema({ $schema: "http://json-schema.org/draft-04/schema#" })).toBe(
      "unsupported $schema 'http://json-schema.org/draft-04/schema#'; use draft-07 (the default) " +
        "or https://json-schema.org/draft/2020-12/schema",
    );
  });

  it("reports a cyclic schema object instead of overflowing", () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic };
    expect(ToolValidator.checkSchema(cyclic)).toMatch(/./);
  });

  it("makes validation fail with invalid_schema instead of throwing", () => {
    const result = validator.validateAgainstSchema(
      {},
      anySchema({ type: "object", properties: { a: { type: 5 } } }),
    );
    expect(result.isValid).toBe(false);
    expect(result.errors[0]).toMatchObject({ parameterName: "", errorCode: "invalid_schema" });
    expect(result.errors[0]?.message).toMatch(/^The tool's parameter schema is unusable: /);
    const parameterErrors = validator.validateParameter("a", 1, { type: "nope" });
    expect(parameterErrors[0]).toMatchObject({ parameterName: "a", errorCode: "invalid_schema" });
  });

  it("compiles two schemas with the same $id one after the other", () => {
    const first = {
      $id: "https://example.com/tool",
      type: "object",
      properties: { a: { type: "string" } },
    };
    const second = {
      $id: "https://example.com/tool",
      type: "object",
      properties: { a: { type: "integer" } },
    };
    const own = new ToolValidator();
    expect(own.validateAgainstSchema({ a: "x" }, first).isValid).toBe(true);
    expect(own.validateAgainstSchema({ a: 1 }, second).isValid).toBe(true);
    expect(own.validateAgainstSchema({ a: "x" }, second).isValid).toBe(false);
  });
});

describe("ToolValidator caching", () => {
  it("compiles a schema object once", () => {
    const own = new ToolValidator();
    const schema = { type: "object", properties: { a: { type: "string" } } };
    const calls = countCompiles(own, () => {
      for (let i = 0; i < 5; i++) own.validateAgainstSchema({ a: "x" }, schema);
    });
    expect(calls).toBe(1);
  });

  it("compiles equal schemas rebuilt on every call once, by content", () => {
    const own = new ToolValidator();
    const calls = countCompiles(own, () => {
      for (let i = 0; i < 5; i++) {
        own.validateAgainstSchema(
          { a: "x" },
          { type: "object", properties: { a: { type: "string" } } },
        );
      }
    });
    expect(calls).toBe(1);
  });

  it("drops the oldest content entry past contentCacheSize and still validates it", () => {
    const own = new ToolValidator({ contentCacheSize: 2 });
    const make = (n: number) => ({
      type: "object",
      properties: { [`p${n}`]: { type: "integer" } },
    });
    const calls = countCompiles(own, () => {
      for (const n of [1, 2, 3, 1]) own.validateAgainstSchema({ [`p${n}`]: 1 }, make(n));
    });
    expect(calls).toBe(4);
    expect(own.validateAgainstSchema({ p1: "x" }, make(1)).isValid).toBe(false);
  });

  it("shares one validator as ToolValidator.shared", () => {
    expect(ToolValidator.shared).toBe(ToolValidator.shared);
  });
});

describe("ToolValidator warnings", () => {
  it("warns about a deprecated parameter that is used, valid or not", () => {
    const schema = {
      type: "object",
      properties: { old: { type: "string", deprecated: true }, n: { type: "integer" } },
    };
    const valid = validator.validateAgainstSchema({ old: "x" }, schema);
    expect(valid.isValid).toBe(true);
    expect(valid.warnings).toHaveLength(1);
    expect(valid.warnings[0]).toMatchObject({
      parameterName: "old",
      warningCode: ValidationWarningCode.Deprecated,
    });
    const invalid = validator.validateAgainstSchema({ old: "x", n: "y" }, schema);
    expect(invalid.isValid).toBe(false);
    expect(invalid.warnings).toHaveLength(1);
    expect(validator.validateAgainstSchema({ n: 1 }, schema)).toBe(ToolValidationResult.valid());
  });
});

describe("ToolValidator.validateParameter", () => {
  it("validates one value and prefixes paths with the parameter name", () => {
    const property = {
      type: "object",
      properties: {
        depth: { type: "integer", minimum: 1 },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["depth"],
    };
    expect(validator.validateParameter("options", { depth: 2 }, property)).toEqual([]);
    const errors = validator.validateParameter("options", { depth: 0, tags: [1] }, property);
    expect(errors.map((e) => [e.parameterName, e.errorCode])).toEqual([
      ["options.depth", "out_of_range"],
      ["options.tags[0]", "type_mismatch"],
    ]);
    expect(Object.isFrozen(errors)).toBe(true);
    expect(validator.validateParameter("options", {}, property)[0]?.parameterName).toBe(
      "options.depth",
    );
  });

  it("accepts scalar values and checks their limits", () => {
    expect(validator.validateParameter("n", "3", { type: "integer" })[0]).toMatchObject({
      parameterName: "n",
      message: `Parameter 'n' must be an integer, got string "3"`,
    });
    const small = new ToolValidator({ maxStringLength: 5 });
    expect(small.validateParameter("s", "abcdefg", { type: "string" })[0]?.errorCode).toBe(
      "too_large",
    );
    expect(validator.validateParameter("f", () => 1, {})[0]?.errorCode).toBe("invalid_value");
  });
});

function countCompiles(own: ToolValidator, run: () => void): number {
  const original = Ajv.prototype.compile;
  let calls = 0;
  Ajv.prototype.compile = function (this: Ajv, ...args: Parameters<Ajv["compile"]>) {
    calls++;
    return original.apply(this, args);
  } as Ajv["compile"];
  try {
    run();
  } finally {
    Ajv.prototype.compile = original;
  }
  void own;
  return calls;
}
