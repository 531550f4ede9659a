import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { circularMarker, safeJsonStringify, toJsonSafe } from "../../src/result/index.js";

describe("safeJsonStringify", () => {
  it("matches JSON.stringify for plain JSON data", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(safeJsonStringify(value)).toBe(JSON.stringify(value));
      }),
    );
  });

  it("follows JSON semantics for undefined, functions, symbols, non-finite numbers and toJSON", () => {
    const value = {
      a: undefined,
      f: () => 1,
      s: Symbol("x"),
      n: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      list: [undefined, () => 1, Symbol("y")],
      when: new Date("2024-01-02T03:04:05.000Z"),
      boxed: [new Number(1), new String("s"), new Boolean(false)],
    };
    expect(safeJsonStringify(value)).toBe(JSON.stringify(value));
  });

  it("marks a cycle but writes a shared, acyclic reference twice", () => {
    const shared = { v: 1 };
    const cyclic: Record<string, unknown> = { shared, again: shared };
    cyclic.me = cyclic;
    const list: unknown[] = [1];
    list.push(list);

    expect(safeJsonStringify(cyclic)).toBe(
      `{"shared":{"v":1},"again":{"v":1},"me":"${circularMarker}"}`,
    );
    expect(safeJsonStringify(list)).toBe('[1,"[Circular]"]');
  });

  it("writes bigints as digits with an n, and top-level functions and symbols by name", () => {
    expect(safeJsonStringify(12345678901234567890n)).toBe('"12345678901234567890n"');
    expect(safeJsonStringify({ big: [1n] })).toBe('{"big":["1n"]}');
    expect(safeJsonStringify(() => 1)).toBe('"[Function (anonymous)]"');
    expect(safeJsonStringify(Symbol("token"))).toBe('"[Symbol(token)]"');
    expect(safeJsonStringify(undefined)).toBe("");
    expect(toJsonSafe(undefined)).toBeUndefined();
  });

  it("writes Maps as objects, Sets as arrays and Errors with name, message and own fields", () => {
    const error = Object.assign(new Error("gone"), { code: "ENOENT" });

    expect(
      safeJsonStringify(
        new Map<unknown, unknown>([
          ["a", 1],
          [true, "b"],
        ]),
      ),
    ).toBe('{"a":1,"true":"b"}');
    expect(safeJsonStringify(new Set([1, "x"]))).toBe('[1,"x"]');
    expect(safeJsonStringify(error)).toBe('{"name":"Error","message":"gone","code":"ENOENT"}');
  });

  it("keeps a __proto__ key as data", () => {
    const value = JSON.parse('{"__proto__":{"x":1}}') as unknown;

    expect(safeJsonStringify(value)).toBe('{"__proto__":{"x":1}}');
  });

  it("says the data is unserializable when a getter throws", () => {
    const value = {
      get broken(): never {
        throw new Error("no access");
      },
    };

    expect(safeJsonStringify(value)).toBe('"[Unserializable data: no access]"');
    expect(toJsonSafe(value)).toBe("[Unserializable data: no access]");
  });

  it("writes plain data exactly as the careful conversion does", () => {
    const nullProto = Object.assign(Object.create(null) as object, { b: 1, a: [1, "x"] });
    const values: unknown[] = [
      undefined,
      null,
      0,
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      "text \u2028 é",
      true,
      [],
      {},
      [1, undefined, () => 1, Symbol("s"), null, [2, { c: 3 }]],
      { a: undefined, f: () => 1, s: Symbol("s"), n: Number.NaN, nested: { list: [1, 2] } },
      JSON.parse('{"__proto__": {"x": 1}, "y": 2}'),
      nullProto,
      // Sparse: a hole is null both ways.
      Object.assign(new Array<number>(3), { 0: 1, 2: 3 }),
      // Deeper than the fast path goes.
      JSON.parse(`${"[".repeat(40)}1${"]".repeat(40)}`),
      { when: new Date(0), map: new Map([["k", 1]]), big: 1n },
    ];
    for (const value of values) {
      const safe = toJsonSafe(value);
      expect(safeJsonStringify(value)).toBe(safe === undefined ? "" : JSON.stringify(safe));
    }
  });

  it("writes any JSON-like value as the careful conversion does (property)", () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withSparseArray: true }), (value) => {
        const safe = toJsonSafe(value);
        expect(safeJsonStringify(value)).toBe(safe === undefined ? "" : JSON.stringify(safe));
      }),
      { numRuns: 300 },
    );
  });

  it("never throws, whatever it is given", () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withSet: true }), (value) => {
        expect(typeof safeJsonStringify(value)).toBe("string");
      }),
    );
  });
});
