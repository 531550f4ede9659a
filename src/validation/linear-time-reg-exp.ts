import { RE2JS } from "re2js";
import { PATTERN_TIME_LIMIT_MS, timeLimitedTest } from "./time-limited-reg-exp.js";

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
 * For a pattern only JavaScript's engine can run (lookaround, backreferences), when no thread
 * can be started to run it under a time limit (see {@link timeLimitedTest}), the longest text it
 * is run against: such a pattern may backtrack exponentially (`^(?=a)(a+)+$`, 25 characters took
 * 1.4 s), and a model chooses the text. This bounds base-2 blow-ups only.
 */
const MAX_BACKTRACKING_TEXT_LENGTH = 24;

/**
 * Ajv's regular-expression engine for schema `pattern` and `patternProperties`: RE2 (the
 * `re2js` port), whose matching takes time linear in the text, so an argument chosen by a model
 * cannot stall the process on a pattern that backtracks (`^(a+)+$` against 30 `a`s and a `!`
 * takes about 2^30 steps in JavaScript's engine; RE2 does not backtrack). A pattern means what
 * it means in JavaScript, as JSON Schema says: one JavaScript does not accept is refused (the
 * schema is invalid), and what RE2 reads otherwise is written out in JavaScript's meaning first
 * (see {@link toRe2Syntax}); leading lookaheads run as RE2 parts (see {@link leadingLookaheads}).
 * A pattern RE2 cannot run otherwise (other lookaround, backreferences) runs on JavaScript's
 * engine on a thread of its own, given up as no match after {@link PATTERN_TIME_LIMIT_MS}: no
 * test of which patterns backtrack is sound (one for nested repeats missed `((a+))+`, `(a|aa)*`
 * and `a*a*a*b`), and no length limit bounds `(a|a|a|a)*`. No text longer than
 * {@link MAX_PATTERN_TEXT_LENGTH} matches.
 *
 * Matching is a search, as JSON Schema says (`pattern` is not anchored).
 */
export function linearTimeRegExp(pattern: string, flags: string): PatternMatcher {
  // Throws on a pattern JavaScript refuses: RE2 would give it a meaning of its own.
  const native = new RegExp(pattern, flags);
  let parts: { readonly regExp: RE2JS; readonly negated: boolean }[];
  try {
    // Flags other than `u` (Ajv gives no others) have no translation here: JavaScript runs them.
    if (/[^u]/.test(flags)) throw new NoRe2Equivalent();
    parts = leadingLookaheads(pattern).map(({ source, negated }) => ({
      regExp: RE2JS.compile(toRe2Syntax(source)),
      negated,
    }));
  } catch {
    return {
      test: (text) => {
        if (text.length > MAX_PATTERN_TEXT_LENGTH) return false;
        return (
          timeLimitedTest(pattern, flags, text) ??
          (text.length <= MAX_BACKTRACKING_TEXT_LENGTH && native.test(text))
        );
      },
      toString: () => `/${pattern}/${flags} (JavaScript, ${PATTERN_TIME_LIMIT_MS} ms a text)`,
    };
  }
  return {
    test: (text) =>
      text.length <= MAX_PATTERN_TEXT_LENGTH &&
      parts.every(({ regExp, negated }) => regExp.matcher(text).find() !== negated),
    toString: () => `/${pattern}/${flags} (RE2)`,
  };
}
// Ajv's standalone code generation names the engine by this; aintern does not generate code.
linearTimeRegExp.code = "linearTimeRegExp";

/** JavaScript's `\s`: the white space and line terminators of ECMAScript, in RE2's syntax. */
const jsSpace =
  "\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";

/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const jsDot = "[^\\n\\r\\x{2028}\\x{2029}]";

/** Thrown for what RE2 cannot say in JavaScript's meaning: the pattern runs on JavaScript's engine. */
class NoRe2Equivalent extends Error {}

/**
 * `pattern` as a conjunction RE2 can run: `^(?=A)(?!B)R` (a length cap, a password rule) matches
 * exactly when `^(?:A)` matches, `^(?:B)` does not, and `^R` matches, since `^` pins each to the
 * start of the text (Ajv gives no `m` flag). A pattern of another shape is one positive part.
 * The parts are not checked here: RE2 refuses a lookaround left inside one.
 */
function leadingLookaheads(pattern: string): { source: string; negated: boolean }[] {
  if (!/^\^\(\?[=!]/.test(pattern) || hasTopLevelAlternation(pattern)) {
    return [{ source: pattern, negated: false }];
  }
  const parts: { source: string; negated: boolean }[] = [];
  let i = 1;
  while (pattern.startsWith("(?=", i) || pattern.startsWith("(?!", i)) {
    const end = closingParen(pattern, i);
    parts.push({ source: `^(?:${pattern.slice(i + 3, end)})`, negated: pattern[i + 2] === "!" });
    i = end + 1;
  }
  parts.push({ source: `^${pattern.slice(i)}`, negated: false });
  return parts;
}

/**
 * The characters of `pattern` from `from` on that are neither escaped nor in a class, each with
 * the depth of groups it is in (a `(` counts itself in, a `)` itself out).
 */
function* structure(
  pattern: string,
  from = 0,
): Generator<{ readonly c: string; readonly at: number; readonly depth: number }> {
  let depth = 0;
  let inClass = false;
  for (let i = from; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else {
      if (c === "(") depth++;
      else if (c === ")") depth--;
      yield { c, at: i, depth };
    }
  }
}

/** Where the group opened at `open` closes (the pattern is valid). */
function closingParen(pattern: string, open: number): number {
  for (const { c, at, depth } of structure(pattern, open)) if (c === ")" && depth === 0) return at;
  throw new NoRe2Equivalent();
}

/** Whether `pattern` has a `|` outside every group and class (`^(?=a)b|c` is `(^(?=a)b)|c`). */
function hasTopLevelAlternation(pattern: string): boolean {
  for (const { c, depth } of structure(pattern)) if (c === "|" && depth === 0) return true;
  return false;
}

/**
 * `pattern` in RE2's syntax with JavaScript's meaning where the two read the same text
 * differently:
 * - `\uXXXX` and `\u{X}` become RE2's `\x{X}`, a `\uD83D\uDE00` pair the one code point it
 *   stands for; `\cJ` and `[\b]` (backspace) the code points they stand for;
 * - `\s` and `\S` become JavaScript's white space (RE2's is ASCII only: U+00A0, U+2028 or U+FEFF
 *   would pass a `^\S+$` meant to refuse white space), inside a class too (`[^\s]`, and
 *   `[a\S]` as `(?:[^space]|[a])`);
 * - `.` outside a class becomes "not a line terminator" (RE2's `.` matches `\r`, U+2028 and
 *   U+2029: a `^.*$` meant to keep a value on one line would let a carriage return through);
 * - `[]` (matches nothing) and `[^]` (matches anything), which RE2 reads as a class holding `]`.
 *
 * Throws {@link NoRe2Equivalent} for `\S` in a negated class, which RE2 cannot say.
 */
function toRe2Syntax(pattern: string): string {
  let out = "";
  /** The members of the class being read, translated; undefined outside a class. */
  let members: string | undefined;
  let negated = false;
  let notSpace = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    let piece: string;
    if (c === "\\") {
      const next = pattern[i + 1];
      i++;
      const braced = next === "u" ? /^\{([0-9A-Fa-f]+)\}/.exec(pattern.slice(i + 1)) : null;
      const plain = next === "u" ? /^[0-9A-Fa-f]{4}/.exec(pattern.slice(i + 1)) : null;
      // JavaScript reads `\uD83D\uDE00` (the four-digit forms only) as the one code point U+1F600.
      const pair =
        plain !== null ? /^\\u([Dd][C-Fc-f][0-9A-Fa-f]{2})/.exec(pattern.slice(i + 5)) : null;
      const control = next === "c" ? /^[A-Za-z]/.exec(pattern.slice(i + 1)) : null;
      if (braced !== null) {
        piece = `\\x{${Number.parseInt(braced[1] as string, 16).toString(16)}}`;
        i += braced[0].length;
      } else if (pair !== null && /^[Dd][89ABab]/.test(plain?.[0] ?? "")) {
        const high = Number.parseInt(plain?.[0] as string, 16);
        const low = Number.parseInt(pair[1] as string, 16);
        piece = `\\x{${((high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000).toString(16)}}`;
        i += 4 + pair[0].length;
      } else if (plain !== null) {
        piece = `\\x{${plain[0]}}`;
        i += 4;
      } else if (control !== null) {
        // `\cJ` is U+000A; RE2 has no `\c`.
        piece = `\\x{${((control[0].codePointAt(0) as number) % 32).toString(16)}}`;
        i += 1;
      } else if (next === "b" && members !== undefined) {
        // `[\b]` is a backspace in JavaScript; RE2 refuses it.
        piece = "\\x{8}";
      } else if (next === "s") {
        piece = members === undefined ? `[${jsSpace}]` : jsSpace;
      } else if (next === "S" && members !== undefined) {
        if (negated) throw new NoRe2Equivalent();
        notSpace = true;
        piece = "";
      } else if (next === "S") {
        piece = `[^${jsSpace}]`;
      } else {
        // Any other escape, `\\` included, is copied with the character it escapes.
        piece = c + (next ?? "");
      }
    } else if (members === undefined && c === "[") {
      negated = pattern[i + 1] === "^";
      if (negated) i++;
      if (pattern[i + 1] === "]") {
        i++;
        out += negated ? "[\\x{0}-\\x{10FFFF}]" : "[^\\x{0}-\\x{10FFFF}]";
        continue;
      }
      members = "";
      notSpace = false;
      continue;
    } else if (members !== undefined && c === "]") {
      const plainClass = `[${negated ? "^" : ""}${members}]`;
      if (!notSpace) out += plainClass;
      else out += members === "" ? `[^${jsSpace}]` : `(?:[^${jsSpace}]|${plainClass})`;
      members = undefined;
      continue;
    } else if (members !== undefined && c === "[" && pattern[i + 1] === ":") {
      // RE2 reads `[:alpha:]` in a class as a named class; JavaScript as the characters.
      throw new NoRe2Equivalent();
    } else if (members === undefined && c === "(" && isModifierGroup(pattern, i)) {
      // `(?s:…)`, `(?m:…)`, `(?i:…)` (Node 23 and later): RE2 has the syntax, not JavaScript's
      // meaning (its `(?s:.)` would keep the translated `.`, its `(?m:^)` knows only `\n`).
      throw new NoRe2Equivalent();
    } else if (members === undefined && c === ".") {
      piece = jsDot;
    } else {
      piece = c;
    }
    if (members === undefined) out += piece;
    else members += piece;
  }
  if (members !== undefined) throw new NoRe2Equivalent();
  return out;
}

/** Whether the `(` at `open` starts a group with modifiers (`(?i:`, `(?-s:`, `(?i-m:`). */
function isModifierGroup(pattern: string, open: number): boolean {
  const modifiers = /^\(\?([a-z]*)(?:-([a-z]*))?:/.exec(pattern.slice(open, open + 16));
  return modifiers !== null && `${modifiers[1]}${modifiers[2] ?? ""}` !== "";
}
