import { describe, expect, it } from "vitest";
import { ToolValidator } from "../../src/validation/index.js";
import { linearTimeRegExp } from "../../src/validation/linear-time-reg-exp.js";

// A schema pattern that backtracks: JavaScript's engine takes about 2^n steps on n `a`s and a
// `!` (28 of them: about 6 s). A model chooses the argument, so one call could stall the server.
const backtracking = {
  type: "object",
  properties: {
    name: { type: "string", pattern: "^(a+)+$" },
    tag: { type: "string", pattern: "^(\\w+\\s?)*$" },
  },
  patternProperties: { "^(x+x+)+y$": { type: "number" } },
} as const;

/**
 * What "at once" allows: far above a linear check of these inputs (milliseconds) even on a loaded
 * machine, far below what a backtracking engine takes on them (2^40 steps: hours).
 */
const LINEAR_BOUND_MS = 5_000;

describe("schema patterns that backtrack", () => {
  const validator = new ToolValidator();

  it("judge an adversarial argument at once, refusing it", () => {
    const started = performance.now();
    const result = validator.validateAgainstSchema(
      { name: `${"a".repeat(40)}!`, tag: `${"word ".repeat(20)}!` },
      backtracking,
    );
    expect(performance.now() - started).toBeLessThan(LINEAR_BOUND_MS);
    expect(result.isValid).toBe(false);
    expect(result.errors.map((e) => e.parameterName).sort()).toEqual(["name", "tag"]);
  });

  it("judge patternProperties keys at once", () => {
    const started = performance.now();
    const result = validator.validateAgainstSchema(
      { [`${"x".repeat(40)}`]: "not a number" },
      backtracking,
    );
    expect(performance.now() - started).toBeLessThan(LINEAR_BOUND_MS);
    expect(result.isValid).toBe(true);
  });

  it("still accept what the patterns match", () => {
    const result = validator.validateAgainstSchema(
      { name: "aaaa", tag: "one two", xxy: 3 },
      backtracking,
    );
    expect(result.isValid).toBe(true);
  });
});

describe("linearTimeRegExp", () => {
  it("searches, as JSON Schema's pattern does (not anchored)", () => {
    expect(linearTimeRegExp("[0-9]+", "u").test("abc123")).toBe(true);
    expect(linearTimeRegExp("^[0-9]+$", "u").test("abc123")).toBe(false);
    expect(linearTimeRegExp("\\p{L}+", "u").test("été")).toBe(true);
  });

  it("runs a pattern RE2 cannot (lookbehind, backreference) on JavaScript's engine", () => {
    const lookbehind = linearTimeRegExp("^[a-z0-9-]+(?<!-)$", "u");
    expect(String(lookbehind)).toContain("JavaScript");
    expect(lookbehind.test("abc1")).toBe(true);
    expect(lookbehind.test("abc-")).toBe(false);
    expect(linearTimeRegExp("^(a)\\1$", "u").test("aa")).toBe(true);
  });

  it("names each pattern apart (Ajv keys compiled patterns by that name)", () => {
    expect(String(linearTimeRegExp("a+", "u"))).not.toBe(String(linearTimeRegExp("b+", "u")));
  });
});

describe("linearTimeRegExp: patterns as JSON Schemas write them", () => {
  it("runs \\uXXXX and \\u{...} escapes on RE2, in linear time", () => {
    const names = linearTimeRegExp("^([a-zA-Z\\u00C0-\\u017F]+\\s?)+$", "u");
    expect(String(names)).toContain("(RE2)");
    const started = performance.now();
    expect(names.test(`${"a".repeat(28)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(LINEAR_BOUND_MS);
    expect(names.test("Élodie Dupré")).toBe(true);
    expect(linearTimeRegExp("^\\u{1F600}$", "u").test("😀")).toBe(true);
    expect(linearTimeRegExp("^a\\\\u0041$", "u").test("a\\u0041")).toBe(true);
  });

  it("runs a backtracking pattern RE2 cannot take only against short texts", () => {
    const forced = linearTimeRegExp("^(?=a)(a+)+$", "u");
    const started = performance.now();
    expect(forced.test(`${"a".repeat(40)}!`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(LINEAR_BOUND_MS);
    expect(forced.test("aaaa")).toBe(true);
  });

  it("matches no text longer than the limit", () => {
    const started = performance.now();
    expect(linearTimeRegExp("[a-z]{1,1000}@", "u").test("a".repeat(1_000_000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(LINEAR_BOUND_MS);
  });
});

describe("linearTimeRegExp keeps JavaScript's meaning", () => {
  // JSON Schema patterns are ECMA-262 regular expressions: RE2 reads some of the same text
  // differently (its \s is ASCII, its . matches \r and U+2028, [] holds a ]). Each pattern is
  // checked against JavaScript's own engine on texts that tell the two apart.
  const patterns = [
    "^\\S+$",
    "^\\s+$",
    "^.+$",
    "^a.b$",
    "^[^\\s]+$",
    "^[a\\S]+$",
    "^[\\s\\d]+$",
    "^[^\\S]+$",
    "^[^\\s.]+$",
    "a[]b",
    "a[^]b",
    "^[[]+$",
    "^\\u00a0\\u{3000}$",
    "^(\\s*\\S)+$",
    "^[\\w.-]+@[\\w.-]+$",
  ];
  const texts = [
    "abc",
    "a b",
    "a\u00a0b",
    "a\u2028b",
    "a\u2029b",
    "a\ufeffb",
    "a\u000bb",
    "a\u3000b",
    "a\rb",
    "a\nb",
    "a\tb",
    "\u00a0",
    "\u00a0\u3000",
    " \r\n",
    "12 34",
    "a.b",
    "[[",
    "x@y.z",
    "",
  ];
  for (const pattern of patterns) {
    it(`matches as JavaScript does: /${pattern}/u`, () => {
      const native = new RegExp(pattern, "u");
      const matcher = linearTimeRegExp(pattern, "u");
      for (const text of texts) {
        expect([text, matcher.test(text)]).toEqual([text, native.test(text)]);
      }
    });
  }

  it("runs those on RE2 (linear time) where RE2 can say them", () => {
    for (const pattern of ["^\\S+$", "^.+$", "^[a\\S]+$", "a[]b", "a[^]b", "^(\\s*\\S)+$"]) {
      expect(String(linearTimeRegExp(pattern, "u"))).toContain("(RE2)");
    }
    const started = performance.now();
    expect(linearTimeRegExp("^(\\s*\\S)+$", "u").test(`${"a ".repeat(5_000)}\u00a0!`)).toBe(true);
    expect(linearTimeRegExp("^(\\s*\\S*)*$", "u").test(`${" ".repeat(5_000)}\r`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("refuses a pattern JavaScript refuses, instead of reading it as RE2 would", () => {
    expect(() => linearTimeRegExp("(?P<name>a)", "u")).toThrow(SyntaxError);
    expect(() => linearTimeRegExp("[[:alpha:]]", "u")).toThrow(SyntaxError);
    const validator = new ToolValidator();
    const result = validator.validateAgainstSchema(
      { name: "a" },
      { type: "object", properties: { name: { type: "string", pattern: "(?P<n>a)" } } },
    );
    expect(result.isValid).toBe(false);
  });
});

describe("linearTimeRegExp: patterns RE2 read otherwise, and lookaheads", () => {
  // Each pattern is valid JavaScript (the `u` flag); RE2 read it differently or, run on
  // JavaScript's engine against long texts, it could stall the process.
  it("reads a \\uD83D\\uDE00 escape pair as the one code point JavaScript does", () => {
    for (const pattern of [
      "^\\uD83D\\uDE00$",
      "^[\\uD83D\\uDE00-\\uD83D\\uDE4F]+$",
      "^[^\\uD83D\\uDE00]$",
      "^\\uD83D\\uDE00{2}$",
      "^\\u{D83D}\\u{DE00}$",
    ]) {
      const native = new RegExp(pattern, "u");
      const matcher = linearTimeRegExp(pattern, "u");
      expect(String(matcher)).toContain("(RE2)");
      for (const text of ["😀", "😀😀", "😁", "\ud83d", "\ude00", "\ud83d\ude00\ude00", "a"]) {
        expect([pattern, text, matcher.test(text)]).toEqual([pattern, text, native.test(text)]);
      }
    }
  });

  it("reads \\cJ, [\\b] and a long \\u{...} as JavaScript does, on RE2", () => {
    for (const [pattern, yes, no] of [
      ["^\\cJ$", "\n", "c"],
      ["^[\\b]$", "\b", "b"],
      ["^\\u{00000041}$", "A", "u"],
    ] as const) {
      const matcher = linearTimeRegExp(pattern, "u");
      expect(String(matcher)).toContain("(RE2)");
      expect([pattern, matcher.test(yes), matcher.test(no)]).toEqual([pattern, true, false]);
    }
  });

  it("runs leading lookaheads on RE2, in linear time, with their meaning", () => {
    for (const pattern of [
      "^(?=a)((a+))+$",
      "^(?!b)(a|aa)*$",
      "^(?=.{1,64}$)(([a-z0-9]+)[-.]?)*$",
      "^(?=.*[0-9])(?!.*--)[a-z0-9-]+$",
    ]) {
      const matcher = linearTimeRegExp(pattern, "u");
      expect(String(matcher)).toContain("(RE2)");
      const started = performance.now();
      expect(matcher.test(`${"a".repeat(45)}!`)).toBe(false);
      expect(performance.now() - started).toBeLessThan(LINEAR_BOUND_MS);
    }
    const rule = linearTimeRegExp("^(?=.*[0-9])(?!.*--)[a-z0-9-]+$", "u");
    expect(rule.test(`${"a".repeat(1000)}1`)).toBe(true);
    expect(rule.test("a--1")).toBe(false);
    expect(rule.test("abc")).toBe(false);
    // `^(?=a)b|c` is `(^(?=a)b)|c`: not split.
    expect(linearTimeRegExp("^(?=a)b|c", "u").test("xc")).toBe(true);
  });

  it("gives up on any other pattern JavaScript must run after a short time, as no match", () => {
    // None of these nests a repeat in a group of its own; each backtracks for seconds or more,
    // and no length limit bounds the last one (14 characters took 10 s).
    for (const [pattern, text] of [
      ["(?<!b)((a+))+$", `${"a".repeat(40)}!`],
      ["(?<!b)(a|aa)*$", `${"a".repeat(40)}!`],
      ["(a)\\1*a*a*b", "a".repeat(5_000)],
      ["(?<!x)(a|a|a|a)*$", `${"a".repeat(30)}!`],
    ] as const) {
      const matcher = linearTimeRegExp(pattern, "u");
      expect(String(matcher)).toContain("JavaScript");
      const started = performance.now();
      expect(matcher.test(text)).toBe(false);
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    // A long text that does not backtrack is judged.
    const slug = linearTimeRegExp("^[a-z0-9-]+(?<!-)$", "u");
    expect(slug.test(`${"a".repeat(10_000)}b`)).toBe(true);
    expect(slug.test(`${"a".repeat(10_000)}-`)).toBe(false);
    expect(linearTimeRegExp("(?<!x)(a|a|a|a)*$", "u").test("aaa")).toBe(true);
  });

  it("agrees with JavaScript's engine on generated patterns and texts", () => {
    const atoms = [
      "a",
      "k",
      "é",
      ".",
      "\\s",
      "\\S",
      "\\w",
      "\\W",
      "\\d",
      "\\b",
      // `\\B` is left out: see the test after this one.
      "^",
      "$",
      "[^]",
      "[]",
      "[a-z]",
      "[^a-z]",
      "[\\s\\S]",
      "[a\\S]",
      "[^\\s]",
      "[\\w-]",
      "\\u0041",
      "\\u{1F600}",
      "\\uD83D\\uDE00",
      "[\\uD83D\\uDE00-\\uD83D\\uDE4F]",
      "\\p{L}",
      "\\P{L}",
      "[^\\p{L}]",
      "\\0",
      "\\x41",
      "\\n",
      "\\r",
      "\\v",
      "(?:a|)",
      "\\u2028",
      "[.]",
      "[\\b]",
      "\\cJ",
      "[\\uD800-\\uDFFF]",
      "\\uD800",
      "\\ud83d",
      "\\ude00",
      "[😀-😂]",
      "😀",
      "[\\]]",
      "[[]",
      "\\p{Cs}",
      "(?=a)",
      "(?!a)",
      "(a)\\1",
    ];
    const quantifiers = ["", "", "*", "+", "?", "{2}", "{1,3}", "*?", "{0}"];
    const alphabet = [
      "a",
      "k",
      "K",
      "\u212a",
      "\u017f",
      "é",
      "e\u0301",
      "1",
      " ",
      "\t",
      "\n",
      "\r",
      "\v",
      "\0",
      "\b",
      "\u2028",
      "\u00a0",
      "\ufeff",
      "😀",
      "😁",
      "\ud83d",
      "\ude00",
      "\ud800",
      "\ufffd",
      "-",
      "]",
      "[",
      "A",
      "\u{10FFFF}",
    ];
    let seed = 0x2545f491;
    const next = (n: number) => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % n;
    };
    const pick = (list: readonly string[]) => list[next(list.length)] as string;
    for (let k = 0; k < 3_000; k++) {
      let pattern = "";
      for (let i = 0; i <= next(3); i++) pattern += pick(atoms) + pick(quantifiers);
      if (next(2) === 0)
        pattern = `^(?${pick(["=", "!"])}${pick(atoms)}${pick(quantifiers)})${pattern}`;
      if (next(2) === 0) pattern += "$";
      let native: RegExp;
      try {
        native = new RegExp(pattern, "u");
      } catch {
        expect(() => linearTimeRegExp(pattern, "u")).toThrow(SyntaxError);
        continue;
      }
      const matcher = linearTimeRegExp(pattern, "u");
      for (let t = 0; t < 20; t++) {
        let text = "";
        for (let i = next(5); i > 0; i--) text += pick(alphabet);
        expect([pattern, text, matcher.test(text)]).toEqual([pattern, text, native.test(text)]);
      }
    }
  });
});

describe("linearTimeRegExp: where Node's engine departs from ECMA-262", () => {
  it("finds no \\B inside a surrogate pair, as the standard says and V8 does not", () => {
    // ECMA-262 searches a `u` pattern from code point to code point (AdvanceStringIndex); V8
    // (Node 20) also tries the middle of a surrogate pair, where it finds a \B. RE2 keeps the
    // standard's meaning.
    const notBoundary = linearTimeRegExp("\\B", "u");
    expect(notBoundary.test("a😀b")).toBe(false);
    expect(notBoundary.test("ab")).toBe(true);
    expect(notBoundary.test("😀")).toBe(true);
  });
});

describe("linearTimeRegExp: groups with modifiers ((?i:…), (?s:…), (?m:…))", () => {
  // Node 20 refuses them, as its JavaScript does; later Node versions accept them. RE2 has the
  // syntax but not JavaScript's meaning: its `(?s:.)` kept the translated `.` (no line
  // terminators) and its `(?m:^)` knows only `\n` as a line end.
  const cases: [string, string, boolean][] = [
    ["^a(?s:.)b$", "a\nb", true],
    ["^a(?s:.)b$", "a\u2028b", true],
    ["(?m:^b)", "a\rb", true],
    ["(?m:a$)", "a\u2029b", true],
    ["^(?i:ab)c$", "ABc", true],
    ["^(?i:ab)c$", "abC", false],
    ["^(?-i:a)$", "A", false],
    ["^(?:a)(?=b)", "ab", true],
  ];

  // Built from a string: a literal would not parse on Node 20.
  const probe = "(?i:a)";
  let modifiersSupported = true;
  try {
    new RegExp(probe, "u");
  } catch {
    modifiersSupported = false;
  }

  it.each(cases)(
    "reads /%s/u against %j as JavaScript does, or refuses it as JavaScript does",
    (pattern, text, expected) => {
      if (!modifiersSupported && pattern.includes("(?") && !pattern.includes("(?:")) {
        expect(() => linearTimeRegExp(pattern, "u")).toThrow(SyntaxError);
        return;
      }
      expect(new RegExp(pattern, "u").test(text)).toBe(expected);
      expect(linearTimeRegExp(pattern, "u").test(text)).toBe(expected);
    },
  );

  it("runs them on JavaScript's engine, and a non-capturing group still on RE2", () => {
    expect(linearTimeRegExp("^(?:a)b$", "u").toString()).toContain("(RE2)");
    if (modifiersSupported) {
      expect(linearTimeRegExp("^(?s:.)$", "u").toString()).toContain("(JavaScript");
    } else {
      expect(() => linearTimeRegExp("^(?s:.)$", "u")).toThrow(SyntaxError);
    }
  });
});
