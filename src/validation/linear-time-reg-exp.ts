import { RE2JS } from "re2js";

/** What Ajv needs of a compiled `pattern`. */
export interface PatternMatcher {
  test(text: string): boolean;
  /** Ajv keys compiled patterns by this text: it must differ between patterns. */
  toString(): string;
}

/**
 * The longest text a pattern is run against; a longer one does not match. RE2's time is linear
 * in the text but grows with the pattern's counted repeats (`[a-z]{1,1000}@` against a megabyte
 * took 44 s), and a pattern is meant for names, ids and short values, not documents.
 */
export const MAX_PATTERN_TEXT_LENGTH = 100_000;

/**
 * For a pattern only JavaScript's engine can run (lookaround, backreferences) that also nests
 * repeats (`^(?=a)(a+)+$`), the longest text it is run against: such a pattern backtracks
 * exponentially (25 characters took 1.4 s), and a model chooses the text.
 */
const MAX_BACKTRACKING_TEXT_LENGTH = 24;

/** A repeat of a group that itself repeats: `(a+)+`, `(\w*\s?)*`, `(x{2,})+`. */
const nestedRepeat = /\([^()]*(?:[+*]|\{\d+,?\d*\})[^()]*\)(?:[+*]|\{\d+,?\d*\})/;

/**
 * Ajv's regular-expression engine for schema `pattern` and `patternProperties`: RE2 (the
 * `re2js` port), whose matching takes time linear in the text, so an argument chosen by a model
 * cannot stall the process on a pattern that backtracks (`^(a+)+$` against 30 `a`s and a `!`
 * takes about 2^30 steps in JavaScript's engine; RE2 does not backtrack). JavaScript's `\uXXXX`
 * and `\u{...}` escapes are written as RE2's `\x{...}` first. A pattern RE2 cannot run
 * (lookaround, backreferences) runs on JavaScript's engine; if it also nests repeats, only
 * against short texts. No text longer than {@link MAX_PATTERN_TEXT_LENGTH} matches.
 *
 * Matching is a search, as JSON Schema says (`pattern` is not anchored).
 */
export function linearTimeRegExp(pattern: string, flags: string): PatternMatcher {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(toRe2Syntax(pattern));
  } catch {
    const native = new RegExp(pattern, flags);
    const limit = nestedRepeat.test(pattern)
      ? MAX_BACKTRACKING_TEXT_LENGTH
      : MAX_PATTERN_TEXT_LENGTH;
    return {
      test: (text) => text.length <= limit && native.test(text),
      toString: () => `/${pattern}/${flags} (JavaScript, texts up to ${limit})`,
    };
  }
  return {
    test: (text) => text.length <= MAX_PATTERN_TEXT_LENGTH && compiled.matcher(text).find(),
    toString: () => `/${pattern}/${flags} (RE2)`,
  };
}
// Ajv's standalone code generation names the engine by this; aintern does not generate code.
linearTimeRegExp.code = "linearTimeRegExp";

/** `pattern` with JavaScript's `\uXXXX` and `\u{X}` escapes as RE2's `\x{X}`; the rest as is. */
function toRe2Syntax(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const next = pattern[i + 1];
    if (next === "u") {
      const braced = /^\{([0-9A-Fa-f]{1,6})\}/.exec(pattern.slice(i + 2));
      const plain = /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i + 2));
      if (braced !== null) {
        out += `\\x{${braced[1]}}`;
        i += 1 + braced[0].length;
        continue;
      }
      if (plain !== null) {
        out += `\\x{${plain[0]}}`;
        i += 5;
        continue;
      }
    }
    // Any other escape, `\\` included, is copied with the character it escapes.
    out += c + (next ?? "");
    i++;
  }
  return out;
}
