import { describe, expect, it } from "vitest";
import { didYouMean } from "../../src/validation/did-you-mean.js";
import { appendKey, pathFromPointer } from "../../src/validation/parameter-path.js";
import { describeSchemaErrors, dialectOf } from "../../src/validation/schema-dialect.js";
import { summarizeSchema } from "../../src/validation/summarize-schema.js";
import { findLimitProblem, fitsLimits } from "../../src/validation/value-limits.js";
import { describeValue, previewJson } from "../../src/validation/value-preview.js";

describe("summarizeSchema", () => {
  it.each([
    [true, "any value"],
    [false, "no value"],
    [[], "a schema"],
    [{ title: "Circle" }, "Circle"],
    [{ $ref: "#/$defs/My%20Shape" }, "'My Shape'"],
    [{ const: "x" }, 'exactly "x"'],
    [{ enum: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, "one of 1, 2, 3, 4, 5, 6, 7, 8, …"],
    [{ type: ["string", "null"] }, "a string or null"],
    [{ type: "string", format: "uri" }, "a string in format uri"],
    [{ required: ["a"] }, "an object with required a"],
    [
      { properties: { a: {}, b: {}, c: {}, d: {}, e: {}, f: {} } },
      "an object with properties a, b, c, d, e, …",
    ],
    [{ description: "x".repeat(70) }, `${"x".repeat(60)}…`],
    [{ description: "Short" }, "Short"],
    [{ minimum: 1 }, "a value matching its schema"],
  ])("summarizes %j as %s", (schema, phrase) => {
    expect(summarizeSchema(schema)).toBe(phrase);
  });
});

describe("parameter paths", () => {
  it("writes plain keys bare, others quoted, long ones shortened", () => {
    expect(appendKey("", "a")).toBe("a");
    expect(appendKey("a", "b-c")).toBe("a.b-c");
    expect(appendKey("a", "1x")).toBe('a["1x"]');
    expect(appendKey("", "k".repeat(150))).toBe(`["${"k".repeat(100)}…"]`);
  });

  it("tells array indexes from numeric object keys by following the value", () => {
    expect(pathFromPointer("/a/0/b", { a: [{ b: 1 }] })).toBe("a[0].b");
    expect(pathFromPointer("/a/0", { a: { "0": 1 } })).toBe('a["0"]');
    expect(pathFromPointer("/x/y", null, "base")).toBe("base.x.y");
    expect(pathFromPointer("", {}, "base")).toBe("base");
  });
});

describe("value previews", () => {
  it("shows a bounded JSON preview with the type", () => {
    expect(describeValue("3")).toBe('string "3"');
    expect(describeValue(null)).toBe("null");
    expect(describeValue(Symbol("s"))).toBe("symbol");
    expect(previewJson({ a: [1, { b: "c" }] })).toBe('{"a":[1,{"b":"c"}]}');
    expect(previewJson("x".repeat(200), 10)).toBe(`"${"x".repeat(9)}…`);
    expect(previewJson({ ["k".repeat(50)]: 1 }, 20)).toBe(`{"${"k".repeat(18)}…`);
    let deep: unknown = 1;
    for (let i = 0; i < 20; i++) deep = [deep];
    expect(previewJson(deep, 200)).toBe(`${"[".repeat(8)}[…]${"]".repeat(8)}`);
    let deepObject: unknown = 1;
    for (let i = 0; i < 20; i++) deepObject = { a: deepObject };
    expect(previewJson(deepObject, 200)).toMatch(/\{…\}/);
    const throwing = {
      get a(): number {
        throw new Error("no");
      },
    };
    expect(previewJson(throwing)).toBe("[unreadable value]");
  });
});

describe("didYouMean", () => {
  it("suggests a near name and nothing for a far one", () => {
    expect(didYouMean("patth", ["path", "query"])).toBe("path");
    expect(didYouMean("wrtie", ["read", "write"])).toBe("write");
    expect(didYouMean("zz", ["a"])).toBeUndefined();
    expect(didYouMean("x".repeat(101), ["x"])).toBeUndefined();
    expect(didYouMean("abc", ["a".repeat(101), "abd"])).toBe("abd");
  });
});

describe("schema dialects", () => {
  it("picks the dialect from $schema and respells it for Ajv", () => {
    expect(dialectOf({})).toEqual({ dialect: "draft-07", canonical: undefined });
    expect(dialectOf({ $schema: "https://json-schema.org/draft/2020-12/schema" })).toEqual({
      dialect: "2020-12",
      canonical: undefined,
    });
    expect(dialectOf({ $schema: "http://json-schema.org/draft/2020-12/schema#" })).toEqual({
      dialect: "2020-12",
      canonical: "https://json-schema.org/draft/2020-12/schema",
    });
    expect(dialectOf({ $schema: "http://example.com/mine" })).toEqual({
      unsupported: "http://example.com/mine",
    });
  });

  it("describes meta-schema errors at most three places", () => {
    expect(describeSchemaErrors([])).toBe("it does not match its meta-schema");
    const error = (instancePath: string) => ({
      instancePath,
      schemaPath: "#",
      keyword: "type",
      params: {},
      message: "must be object",
    });
    expect(
      describeSchemaErrors([error(""), error("/a"), error("/a"), error("/b"), error("/c")]),
    ).toBe("must be object; at '/a': must be object; at '/b': must be object");
  });
});

describe("findLimitProblem", () => {
  const limits = { maxDepth: 3, maxStringLength: 5, maxNodes: 10, maxTotalSize: 12 };

  it("finds nothing in a value that fits", () => {
    expect(fitsLimits({ a: [1, "abc"] }, limits)).toBe(true);
    expect(findLimitProblem({ a: [1, "abc"] }, limits)).toBeUndefined();
  });

  it("names the problem at its path under the base path", () => {
    expect(findLimitProblem({ a: ["abcdef"] }, limits, "p")?.parameterName).toBe("p.a[0]");
    expect(findLimitProblem("abcdef", limits, "p")?.errorCode).toBe("too_large");
    expect(findLimitProblem(Number.NaN, limits, "p")?.message).toBe(
      "Parameter 'p' is NaN, which is not a JSON value",
    );
    expect(findLimitProblem(() => 1, limits)?.message).toBe(
      "The parameters are a function, which is not a JSON value",
    );
    expect(findLimitProblem({}, { ...limits, maxDepth: 0 })?.errorCode).toBe("too_deep");
    expect(fitsLimits({}, { ...limits, maxDepth: 0 })).toBe(false);
  });

  it("tells a shared, acyclic reference from a cycle", () => {
    const shared = { x: 1 };
    expect(findLimitProblem({ a: shared, b: shared }, limits)).toBeUndefined();
    const loop: unknown[] = [];
    loop.push(loop);
    expect(findLimitProblem({ l: loop }, limits)?.message).toBe(
      "Parameter 'l[0]' refers back to 'l' (a circular reference); parameters must be plain JSON",
    );
    const self: Record<string, unknown> = {};
    self.me = self;
    expect(findLimitProblem(self, limits)?.message).toMatch(
      /refers back to the parameters themselves/,
    );
  });
});
