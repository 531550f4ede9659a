import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "../../src/core/index.js";

describe("nestsDeeperThan", () => {
  const nest = (levels: number, inArrays = false): unknown => {
    let value: unknown = "x";
    for (let i = 0; i < levels; i++) value = inArrays ? [value] : { a: value };
    return value;
  };

  it("counts objects and arrays, not the values in them", () => {
    expect(nestsDeeperThan("text", 0)).toBe(false);
    expect(nestsDeeperThan({ a: 1, b: "x" }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: 1, b: "x" }, 0)).toBe(true);
    expect(nestsDeeperThan(nest(10), 10)).toBe(false);
    expect(nestsDeeperThan(nest(11), 10)).toBe(true);
    expect(nestsDeeperThan(nest(11, true), 10)).toBe(true);
    expect(nestsDeeperThan({ wide: Array.from({ length: 10_000 }, () => ({ n: 1 })) }, 3)).toBe(
      false,
    );
  });

  it("is safe on values too deep to copy, and on cycles", () => {
    expect(nestsDeeperThan(nest(100_000), 256)).toBe(true);
    const cycle: Record<string, unknown> = {};
    cycle.self = { back: cycle };
    expect(nestsDeeperThan(cycle, 256)).toBe(false);
  });
});
