import { RE2JS } from "re2js";

/** What Ajv needs of a compiled `pattern`. */
export interface PatternMatcher {
  test(text: string): boolean;
  /** Ajv keys compiled patterns by this text: it must differ between patterns. */
  toString(): string;
}

/**
 * Ajv's regular-expression engine for schema `pattern` and `patternProperties`: RE2 (the
 * `re2js` port), whose matching takes time linear in the text, so an argument chosen by a model
 * cannot stall the process on a pattern that backtracks (`^(a+)+$` against 30 `a`s and a `!`
 * takes about 2^30 steps in JavaScript's engine; RE2 does not backtrack). A pattern RE2 cannot
 * run (lookaround, backreferences) runs on JavaScript's engine as before.
 *
 * Matching is a search, as JSON Schema says (`pattern` is not anchored).
 */
export function linearTimeRegExp(pattern: string, flags: string): PatternMatcher {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch {
    return new RegExp(pattern, flags);
  }
  return {
    test: (text) => compiled.matcher(text).find(),
    toString: () => `/${pattern}/${flags} (RE2)`,
  };
}
// Ajv's standalone code generation names the engine by this; aintern does not generate code.
linearTimeRegExp.code = "linearTimeRegExp";
