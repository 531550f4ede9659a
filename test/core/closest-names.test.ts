import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closestNames, editDistance } from "../../src/core/index.js";

/** Plain Levenshtein distance (no transpositions), as a reference. */
function levenshtein(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i]![j] = Math.min(
        rows[i - 1]![j]! + 1,
        rows[i]![j - 1]! + 1,
        rows[i - 1]![j - 1]! + cost,
      );
    }
  }
  return rows[a.length]![b.length]!;
}

describe("editDistance", () => {
  it("is 0 for equal strings and the other's length against an empty string", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("file-read", "file-read")).toBe(0);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("abcd", "")).toBe(4);
  });

  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("search", "serch")).toBe(1);
    expect(editDistance("grep", "grepp")).toBe(1);
    expect(editDistance("abc", "xyz")).toBe(3);
  });

  it("counts an adjacent transposition as one edit", () => {
    expect(editDistance("file-raed", "file-read")).toBe(1);
    expect(editDistance("ab", "ba")).toBe(1);
    expect(levenshtein("ab", "ba")).toBe(2);
  });

  it("is case-sensitive (closestNames lower-cases before calling it)", () => {
    expect(editDistance("Read", "read")).toBe(1);
  });

  it("is symmetric, bounded by the longer length and never above Levenshtein", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        const d = editDistance(a, b);
        expect(d).toBe(editDistance(b, a));
        expect(d).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
        expect(d).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(d).toBeLessThanOrEqual(levenshtein(a, b));
        expect(d === 0).toBe(a === b);
      }),
      { numRuns: 300 },
    );
  });
});

describe("closestNames", () => {
  const tools = ["file-read", "file-write", "search", "git-commit", "shell"];

  it("suggests the closest candidate for a typo", () => {
    expect(closestNames("file-raed", tools, { max: 1 })).toEqual(["file-read"]);
    expect(closestNames("serch", tools)).toEqual(["search"]);
  });

  it("compares case-insensitively and returns candidates in their own spelling", () => {
    expect(closestNames("FILE-READ", ["File-Read", "other"])).toEqual(["File-Read"]);
  });

  it("orders by distance, then alphabetically, and keeps at most `max` (default 3)", () => {
    const candidates = ["abd", "abc", "abx", "aby", "zzz"];
    expect(closestNames("abz", candidates)).toEqual(["abc", "abd", "abx"]);
    expect(closestNames("abz", candidates, { max: 2 })).toEqual(["abc", "abd"]);
    expect(closestNames("abz", candidates, { max: 0 })).toEqual([]);
    expect(closestNames("file-rite", tools)).toEqual(["file-write", "file-read"]);
  });

  it("treats a candidate containing a name of 3+ characters as close", () => {
    expect(closestNames("read", tools)).toEqual(["file-read"]);
    expect(closestNames("commit", tools)).toEqual(["git-commit"]);
  });

  it("does not treat a containing candidate as close for names under 3 characters", () => {
    expect(closestNames("gi", ["git-commit-all"])).toEqual([]);
  });

  it("returns nothing when no candidate is within the distance limit", () => {
    expect(closestNames("completely-unrelated", tools)).toEqual([]);
    expect(closestNames("xyz", [])).toEqual([]);
  });

  it("allows a distance of max(2, a third of the name's length)", () => {
    // 6 characters: limit 2.
    expect(closestNames("abcdef", ["abcdxx"])).toEqual(["abcdxx"]);
    expect(closestNames("abcdef", ["abcxxx"])).toEqual([]);
    // 12 characters: limit 4.
    expect(closestNames("abcdefghijkl", ["abcdefghwxyz"])).toEqual(["abcdefghwxyz"]);
    expect(closestNames("abcdefghijkl", ["abcdefgvwxyz"])).toEqual([]);
  });

  it("accepts any iterable of candidates", () => {
    expect(closestNames("shel", new Set(tools))).toEqual(["shell"]);
    function* gen() {
      yield "search";
    }
    expect(closestNames("serch", gen())).toEqual(["search"]);
  });

  it("treats 'constructor' and '__proto__' as ordinary strings", () => {
    expect(closestNames("constructr", ["constructor", "__proto__"])).toEqual(["constructor"]);
    expect(closestNames("__proto_", ["__proto__"])).toEqual(["__proto__"]);
  });

  it("returns only candidates it was given", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }),
        fc.array(fc.string({ maxLength: 10 })),
        (name, list) => {
          const result = closestNames(name, list);
          expect(result.length).toBeLessThanOrEqual(3);
          for (const r of result) expect(list).toContain(r);
        },
      ),
      { numRuns: 200 },
    );
  });
});
