import { Ajv } from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileLimitCheck, planLimits } from "../../src/validation/limit-plan.js";
import { fitsLimits, type ValueLimits } from "../../src/validation/value-limits.js";

const limits: ValueLimits = {
  maxDepth: 64,
  maxStringLength: 1000,
  maxNodes: 10_000,
  maxTotalSize: 100_000,
};

describe("planLimits", () => {
  it("needs no check at all for a schema that bounds everything", () => {
    const schema = {
      type: "object",
      properties: {
        path: { type: "string", maxLength: 100 },
        mode: { enum: ["a", "b"] },
        n: { type: "integer" },
        flags: { type: "array", items: { type: "boolean" }, maxItems: 4 },
        o: { type: "object", properties: { x: { const: 1 } }, additionalProperties: false },
      },
      additionalProperties: false,
    };
    const { plan, ajvFirst } = planLimits(schema, limits);
    expect(ajvFirst).toBe(true);
    expect(plan).toMatchObject({ kind: "static", depth: 2 });
    expect(plan.nodes).toBe(1 + 1 + 1 + 1 + 5 + 2);
    expect(compileLimitCheck(plan, limits)({})).toBe(true);
    expect(compileLimitCheck(plan, { ...limits, maxStringLength: 10 })).toBeTypeOf("function");
  });

  it("says a static plan over the limits may not fit", () => {
    const schema = { type: "array", items: { type: "integer" }, maxItems: 100_000 };
    const { plan } = planLimits(schema, limits);
    expect(plan.kind).toBe("static");
    expect(compileLimitCheck(plan, limits)([1])).toBe(false);
  });

  it("looks only at what the schema leaves unbounded", () => {
    const schema = {
      type: "object",
      properties: {
        q: { type: "string" },
        n: { type: "integer" },
        o: {
          type: "object",
          properties: { s: { type: ["string", "null"] } },
          additionalProperties: false,
        },
        any: {},
        list: {
          type: "array",
          items: {
            type: "object",
            properties: { t: { type: "string" } },
            additionalProperties: false,
          },
        },
      },
      additionalProperties: false,
    };
    const { plan } = planLimits(schema, limits);
    expect(plan.kind).toBe("object");
    expect(plan.keys).toEqual(["q", "o", "any", "list"]);
    const check = compileLimitCheck(plan, limits);
    expect(check({ q: "x", o: { s: null }, any: { deep: [1, 2] }, list: [{ t: "y" }] })).toBe(true);
    expect(check({ q: "x".repeat(1001) })).toBe(false);
    expect(check({ o: { s: "x".repeat(1001) } })).toBe(false);
    expect(check({ any: { s: "x".repeat(1001) } })).toBe(false);
    expect(check({ list: [{ t: "x".repeat(1001) }] })).toBe(false);
  });

  it("walks in full what it cannot bound", () => {
    for (const schema of [
      true,
      {},
      { type: "object", additionalProperties: false, properties: { ["__proto__"]: {} } },
      { type: "object", additionalProperties: false, unevaluatedProperties: false },
      { type: "array", items: [{ type: "string" }] },
      { type: ["object", "array"] },
      { anyOf: [{ type: "string" }] },
      { $ref: "https://example.com/remote" },
    ]) {
      expect(planLimits(schema, limits).plan.kind).toBe("any");
    }
  });

  it("plans the declared properties of an open object and walks the others", () => {
    const schema = {
      type: "object",
      properties: { q: { type: "string" }, n: { type: "integer" }, o: { type: "object" } },
    };
    const { plan } = planLimits(schema, limits);
    expect(plan).toMatchObject({ kind: "open", keys: ["q", "n", "o"], extra: { kind: "any" } });
    const check = compileLimitCheck(plan, limits);
    expect(check({ q: "x", n: 1, o: { deep: { er: [1] } }, other: [1, "two"] })).toBe(true);
    expect(check({ q: "x".repeat(1001) })).toBe(false);
    expect(check({ o: { s: "x".repeat(1001) } })).toBe(false);
    expect(check({ other: ["x".repeat(1001)] })).toBe(false);
    expect(check({ ["k".repeat(1001)]: 1 })).toBe(false);
    expect(check({ q: undefined })).toBe(true);

    const typed = planLimits(
      { type: "object", additionalProperties: { type: "string", maxLength: 2 } },
      limits,
    );
    expect(typed.plan).toMatchObject({ kind: "open", extra: { kind: "static", size: 4 } });
    expect(compileLimitCheck(typed.plan, limits)({ a: "xy", b: "z" })).toBe(true);
    const patterned = planLimits(
      { type: "object", additionalProperties: false, patternProperties: { "^x": {} } },
      limits,
    );
    expect(patterned.plan).toMatchObject({ kind: "open", extra: { kind: "any" } });
  });

  it("does not follow a $ref whose base a nested $id changes", () => {
    const schema = {
      type: "object",
      definitions: { x: { type: "string", maxLength: 1 } },
      properties: {
        a: {
          $id: "https://example.com/a",
          definitions: { x: { type: "string" } },
          $ref: "#/definitions/x",
        },
      },
      additionalProperties: false,
    };
    const { plan } = planLimits(schema, limits);
    expect(plan).toMatchObject({ kind: "object", keys: ["a"], children: [{ kind: "any" }] });
  });

  it("follows local $refs, and stops at a cycle", () => {
    const schema = {
      type: "object",
      definitions: {
        name: { type: "string", maxLength: 10 },
        node: {
          type: "object",
          properties: { next: { $ref: "#/definitions/node" } },
          additionalProperties: false,
        },
      },
      properties: {
        a: { $ref: "#/definitions/name" },
        n: { $ref: "#/definitions/node" },
        bad: { $ref: "#/definitions/missing" },
      },
      additionalProperties: false,
    };
    const { plan, ajvFirst } = planLimits(schema, limits);
    expect(ajvFirst).toBe(false);
    expect(plan.keys).toEqual(["n", "bad"]);
  });

  it("lets Ajv run first only where its work is bounded by the schema", () => {
    const safe = [
      {
        type: "object",
        properties: { a: { $ref: "#/definitions/x" } },
        definitions: { x: { type: "string" } },
      },
      { type: "object", properties: { a: { enum: [{ deep: [1] }] } } },
      {
        $defs: { a: { $ref: "#/$defs/b" }, b: { type: "string" } },
        properties: { p: { $ref: "#/$defs/a" } },
      },
    ];
    const unsafe = [
      { type: "object", properties: { self: { $ref: "#" } } },
      {
        $defs: {
          a: { properties: { b: { $ref: "#/$defs/b" } } },
          b: { items: { $ref: "#/$defs/a" } },
        },
        $ref: "#/$defs/a",
      },
      { $defs: { a: { $ref: "#/$defs/a" } } },
      { type: "array", uniqueItems: true },
      { $ref: "other.json#/x" },
      { $dynamicRef: "#meta" },
      { $recursiveRef: "#" },
      { properties: { "a~b": { $ref: "#/properties/a~0b" } } },
      { properties: { a: { $id: "https://example.com/a", $ref: "#/definitions/x" } } },
    ];
    for (const schema of safe) expect(planLimits(schema, limits).ajvFirst).toBe(true);
    for (const schema of unsafe) expect(planLimits(schema, limits).ajvFirst).toBe(false);
  });

  it("a check that passes means the value fits, for any value Ajv accepts", () => {
    const tight: ValueLimits = { maxDepth: 4, maxStringLength: 6, maxNodes: 40, maxTotalSize: 120 };
    const schema = {
      type: "object",
      properties: {
        s: { type: "string" },
        b: { type: "string", maxLength: 3 },
        list: { type: "array", items: { type: "string" } },
        fixed: { type: "array", items: { type: "integer" }, maxItems: 2 },
        nested: {
          type: "object",
          properties: {
            x: { type: "string" },
            y: { type: "array", items: { type: "integer" } },
            z: {},
          },
          additionalProperties: false,
        },
        loose: { type: "object", properties: { w: { type: "string", maxLength: 2 } } },
      },
      additionalProperties: false,
    };
    const validate = new Ajv({ strict: false, strictNumbers: true }).compile(schema);
    const check = compileLimitCheck(planLimits(schema, tight).plan, tight);
    const json = fc.jsonValue({ maxDepth: 4 });
    const value = fc.record(
      {
        s: fc.string({ maxLength: 10, unit: "binary" }),
        b: fc.string({ maxLength: 3, unit: "binary" }),
        list: fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }),
        fixed: fc.array(fc.integer(), { maxLength: 2 }),
        nested: fc.record(
          { x: fc.string({ maxLength: 8 }), y: fc.array(fc.integer(), { maxLength: 6 }), z: json },
          { requiredKeys: [] },
        ),
        loose: fc
          .tuple(
            fc.dictionary(
              fc.string({ maxLength: 3 }).filter((key) => key !== "w"),
              json,
              { maxKeys: 4 },
            ),
            fc.option(fc.string({ maxLength: 2, unit: "binary" }), { nil: undefined }),
          )
          .map(([rest, w]) => (w === undefined ? rest : { ...rest, w })),
      },
      { requiredKeys: [] },
    );
    let passed = 0;
    let failed = 0;
    fc.assert(
      fc.property(value, (candidate) => {
        expect(validate(candidate)).toBe(true);
        if (check(candidate)) {
          passed++;
          expect(fitsLimits(candidate, tight)).toBe(true);
        } else {
          failed++;
        }
      }),
      { numRuns: 1000 },
    );
    // Make sure both sides of the check are exercised.
    expect(passed).toBeGreaterThan(25);
    expect(failed).toBeGreaterThan(25);
  });

  it("bounds a maxLength string by two UTF-16 units per code point", () => {
    const schema = {
      type: "object",
      properties: Object.fromEntries(
        ["a", "b", "c", "d"].map((k) => [k, { type: "string", maxLength: 3 }]),
      ),
      additionalProperties: false,
    };
    const tight: ValueLimits = { maxDepth: 4, maxStringLength: 6, maxNodes: 12, maxTotalSize: 16 };
    const validate = new Ajv({ strict: false }).compile(schema);
    const check = compileLimitCheck(planLimits(schema, tight).plan, tight);
    const emoji = { a: "😀😀😀", b: "😀😀😀", c: "😀😀😀", d: "😀😀😀" };
    expect(validate(emoji)).toBe(true);
    expect(fitsLimits(emoji, tight)).toBe(false);
    expect(check(emoji)).toBe(false);
    const part = fc.string({ maxLength: 3, unit: "binary" });
    fc.assert(
      fc.property(
        fc.record({ a: part, b: part, c: part, d: part }, { requiredKeys: [] }),
        (value) => {
          if (check(value)) expect(fitsLimits(value, tight)).toBe(true);
        },
      ),
    );
  });
});
