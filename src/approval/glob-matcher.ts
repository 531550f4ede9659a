import picomatch from "picomatch";

/** How a glob is matched: the two settings the approval code varies (the rest are fixed). */
export interface GlobMatchOptions {
  /** Whether `*` and `**` also match names starting with `.`. */
  readonly dot: boolean;
  /** Whether case is ignored. */
  readonly nocase: boolean;
}

/** Tests a path (relative, `/`-separated) against compiled globs. */
export type GlobMatcher = (path: string) => boolean;

/** Compiled matchers kept; past this the least recently used is dropped. */
export const MAX_CACHED_GLOB_MATCHERS = 512;

const cache = new Map<string, GlobMatcher>();
let compiled = 0;
/**
 * Matchers of frozen pattern lists, by the list itself (a list that cannot change needs no key
 * text built from it on every call), then by the options' key.
 */
const byFrozenList = new WeakMap<readonly string[], Map<string, GlobMatcher>>();

/**
 * The picomatch matcher of `patterns` (any one matching), compiled once and reused: compiling
 * (parsing the glob, building and compiling a RegExp) costs far more than matching, and the
 * policy matches the same few patterns (protected paths, rules, remembered grants) on every
 * call. Brace expansion is on; extglobs and negation are off; `/` is the only separator. The
 * cache is bounded ({@link MAX_CACHED_GLOB_MATCHERS}, least recently used dropped), so patterns
 * from remembered grants cannot grow it without end.
 */
export function globMatcher(
  patterns: string | readonly string[],
  options: GlobMatchOptions,
): GlobMatcher {
  if (typeof patterns !== "string" && Object.isFrozen(patterns)) {
    const optionsKey = `${options.dot ? 1 : 0}${options.nocase ? 1 : 0}`;
    let known = byFrozenList.get(patterns);
    const found = known?.get(optionsKey);
    if (found !== undefined) return found;
    const matcher = keyedMatcher(patterns, options);
    if (known === undefined) {
      known = new Map();
      byFrozenList.set(patterns, known);
    }
    known.set(optionsKey, matcher);
    return matcher;
  }
  return keyedMatcher(patterns, options);
}

/** {@link globMatcher} through the bounded cache keyed by the patterns' text. */
function keyedMatcher(
  patterns: string | readonly string[],
  options: GlobMatchOptions,
): GlobMatcher {
  const list = typeof patterns === "string" ? patterns : patterns.join("\u0000");
  const key = `${options.dot ? 1 : 0}${options.nocase ? 1 : 0}${typeof patterns === "string" ? "s" : "a"}${list}`;
  let matcher = cache.get(key);
  if (matcher !== undefined) {
    // Most recently used last: a Map iterates in insertion order.
    cache.delete(key);
    cache.set(key, matcher);
    return matcher;
  }
  compiled++;
  matcher = compile(typeof patterns === "string" ? [patterns] : patterns, options);
  cache.set(key, matcher);
  if (cache.size > MAX_CACHED_GLOB_MATCHERS) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return matcher;
}

/**
 * One matcher for all of `patterns`: their picomatch regular expressions joined into one, so a
 * path is tested once rather than once per pattern (the protected paths are some thirty). It
 * answers as picomatch's own matcher of the list does (without `ignore`, `format`, `basename` or
 * Windows paths, none of which is used here): no for `""`, yes for a path spelled exactly as one
 * of the patterns, else whether any pattern's expression matches.
 */
function compile(patterns: readonly string[], options: GlobMatchOptions): GlobMatcher {
  // An empty alternation would match every path: no pattern matches none.
  if (patterns.length === 0) return () => false;
  const settings = {
    dot: options.dot,
    nocase: options.nocase,
    noextglob: true,
    nonegate: true,
    windows: false,
  };
  const expressions = patterns.map((pattern) => picomatch.makeRe(pattern, settings));
  const flags = expressions[0]?.flags ?? "";
  const any = new RegExp(expressions.map((re) => `(?:${re.source})`).join("|"), flags);
  const spelled = new Set(patterns);
  return (path) => path !== "" && (spelled.has(path) || any.test(path));
}

/** How many times a glob was compiled since the process started (for tests). */
export function globCompileCount(): number {
  return compiled;
}

/** How many compiled matchers are kept now (for tests). */
export function cachedGlobMatcherCount(): number {
  return cache.size;
}
