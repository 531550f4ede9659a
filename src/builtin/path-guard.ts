import picomatch from "picomatch";
import { defaultProtectedPathPatterns } from "../core/index.js";

/**
 * What the built-in tools that walk a tree (`search`, `list-directory`) must leave alone beyond
 * the path they were called with: the approval policy judges only that path, so every file or
 * directory the walk reaches on its own must respect the same protected paths and deny rules.
 * Patterns are workspace-relative globs, matched like protected paths (dot names included, case
 * ignored): over-matching only leaves a file to be read with `file-read`, which the policy judges.
 */
export interface PathGuardConfig {
  /**
   * Paths that always ask (the policy's `protectedPaths`); default
   * {@link defaultProtectedPathPatterns}. `search` does not read such a file and no walk enters
   * such a directory, unless the call's own path is under the pattern (the policy asked about it).
   */
  readonly protectedPaths?: readonly string[];
  /** Paths a deny rule refuses (`ApprovalPolicy.guardedPaths()`): never read, never entered. */
  readonly deniedPaths?: readonly string[];
  /**
   * Paths a deny rule refuses to change (`ApprovalPolicy.guardedPaths()`: aintern's configuration
   * and store, and rules naming `file-write` or `file-delete`): a recursive `file-delete` removes
   * none of them. The tools that only read ignore it.
   */
  readonly changeDeniedPaths?: readonly string[];
}

/** Why a path is left alone: aintern's own store, a deny rule, or a protected path. */
export type GuardReason = "store" | "denied" | "protected";

/** Classifies workspace-relative, `/`-separated paths for one call. */
export type PathCheck = (relativePath: string) => GuardReason | undefined;

/** aintern's store (`.aintern/`: the audit database and its journal): never read, never entered. */
const storePatterns = ["**/.aintern", "**/.aintern/**"];
const globOptions = {
  dot: true,
  nocase: true,
  noextglob: true,
  nonegate: true,
  windows: false,
} as const;
const matchesNothing: Matcher = { test: () => false };

/** Tests a workspace-relative path against compiled globs. */
interface Matcher {
  test(path: string): boolean;
}

/**
 * One matcher for any of `patterns`: each compiled by picomatch, joined into one regular
 * expression, behind a quick test for the text each pattern's matches must contain. picomatch's
 * expressions for `**` with dot names cost microseconds per path; the quick test (one literal
 * alternation: `\.env|\.npmrc|\.db|...`) clears a path that cannot match in a fraction of that.
 */
function combine(patterns: readonly string[]): Matcher {
  const sources: string[] = [];
  const required: string[] = [];
  let everyPatternHasText = true;
  for (const pattern of patterns) {
    const source = sourceOf(pattern);
    if (source === undefined) continue;
    sources.push(source);
    const text = requiredText(pattern);
    if (text === undefined) everyPatternHasText = false;
    else required.push(text);
  }
  if (sources.length === 0) return matchesNothing;
  const full = new RegExp(sources.join("|"), "i");
  if (!everyPatternHasText) return full;
  const quick = new RegExp([...new Set(required)].map(escapeRegExp).join("|"), "i");
  return { test: (path) => quick.test(path) && full.test(path) };
}

/**
 * The longest run of plain characters every match of `pattern` contains (case aside), without
 * the slashes at its ends (`**\/.env` also matches `.env`, `a/**` also matches `a`); undefined
 * when there is none (`**`, `*.{js,ts}` has `.`).
 */
function requiredText(pattern: string): string | undefined {
  // Alternatives, classes and groups: no single run is required; no quick test for the list.
  if (/[{}[\]()|]/.test(pattern)) return undefined;
  let best = "";
  for (const run of pattern.split(/[*?!+@\\]/)) {
    const text = run.replace(/^(?:\.\/)+/, "").replace(/^\/+|\/+$/g, "");
    if (text.length > best.length) best = text;
  }
  return best === "" ? undefined : best;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function sourceOf(pattern: string): string | undefined {
  if (typeof pattern !== "string" || pattern.trim() === "") return undefined;
  try {
    return picomatch.makeRe(pattern, globOptions).source;
  } catch {
    return undefined; // Not a glob picomatch can compile: the policy's matcher fails on it too.
  }
}

/**
 * The compiled guard of a tool: globs compiled once, at construction, into one regular
 * expression, so a walk tests each path once (a miss, the common case, costs one test).
 *
 * @internal
 */
export class PathGuard {
  readonly #store = combine(storePatterns);
  readonly #denied: Matcher;
  readonly #protected: readonly Matcher[];
  readonly #protectedPatterns: readonly string[];
  readonly #deniedPatterns: readonly string[];
  /** Store, denied and protected together: the one test of a path that is left alone. */
  readonly #any: Matcher;
  /** Combined matchers with some protected patterns left out (the call's path is under them). */
  readonly #exempted = new Map<string, Matcher>();

  constructor(config: PathGuardConfig = {}) {
    this.#protectedPatterns = [...(config.protectedPaths ?? defaultProtectedPathPatterns)];
    this.#deniedPatterns = [...(config.deniedPaths ?? [])];
    this.#denied = combine(this.#deniedPatterns);
    this.#protected = this.#protectedPatterns.map((p) => combine([p]));
    this.#any = combine([...storePatterns, ...this.#deniedPatterns, ...this.#protectedPatterns]);
  }

  /** Whether `relativePath` (the call's own path) is in aintern's store. */
  inStore(relativePath: string): boolean {
    return relativePath !== "." && this.#store.test(relativePath);
  }

  /**
   * The check for what a call reaches beyond `startRelative`, its own path: protected patterns
   * that cover the start are left out (the policy asked about the call's path, and a person
   * approved it); deny patterns and the store always apply.
   */
  checkFrom(startRelative: string): PathCheck {
    let any = this.#any;
    if (startRelative !== ".") {
      const exempt: number[] = [];
      this.#protected.forEach((re, i) => {
        if (re.test(startRelative)) exempt.push(i);
      });
      if (exempt.length > 0) any = this.#withoutProtected(exempt);
    }
    const store = this.#store;
    const denied = this.#denied;
    return (path) => {
      if (!any.test(path)) return undefined;
      if (store.test(path)) return "store";
      if (denied.test(path)) return "denied";
      return "protected";
    };
  }

  #withoutProtected(exempt: readonly number[]): Matcher {
    const key = exempt.join(",");
    let found = this.#exempted.get(key);
    if (found === undefined) {
      found = combine([
        ...storePatterns,
        ...this.#deniedPatterns,
        ...this.#protectedPatterns.filter((_, i) => !exempt.includes(i)),
      ]);
      if (this.#exempted.size >= 64) this.#exempted.clear();
      this.#exempted.set(key, found);
    }
    return found;
  }
}

/** The guard of the shared tool instances: the default protected paths, no deny rules. */
export const defaultPathGuard = new PathGuard();

/**
 * Counts what a call left alone, by reason, keeping the first few paths of each to name in the
 * note the model reads.
 *
 * @internal
 */
export class GuardedTally {
  readonly files = { store: 0, denied: 0, protected: 0 };
  readonly directories = { store: 0, denied: 0, protected: 0 };
  readonly #examples = { store: [] as string[], denied: [] as string[], protected: [] as string[] };

  add(reason: GuardReason, path: string, kind: "file" | "directory"): void {
    if (kind === "file") this.files[reason]++;
    else this.directories[reason]++;
    const examples = this.#examples[reason];
    if (examples.length < maxExamples) examples.push(kind === "directory" ? `${path}/` : path);
  }

  /**
   * The walk's `enter` test for `check`: true for a directory it may go into; a guarded one is
   * counted here, and not entered.
   */
  enterUnless(check: PathCheck): (relativePath: string) => boolean {
    return (relativePath) => {
      const reason = check(relativePath);
      if (reason === undefined) return true;
      this.add(reason, relativePath, "directory");
      return false;
    };
  }

  /** Files and directories left alone for `reason`. */
  count(reason: GuardReason): number {
    return this.files[reason] + this.directories[reason];
  }

  /** `".env, .npmrc, src/.env.production"` (and how many more). */
  examples(reason: GuardReason): string {
    const shown = this.#examples[reason];
    const more = this.count(reason) - shown.length;
    return more > 0 ? `${shown.join(", ")} and ${more} more` : shown.join(", ");
  }

  /** The notes for the model, one per reason that left something alone. */
  notes(verb: { file: string; directory: string }): string[] {
    const notes: string[] = [];
    const what = (reason: GuardReason): string => {
      const parts: string[] = [];
      const f = this.files[reason];
      const d = this.directories[reason];
      if (f > 0) parts.push(`${f} ${f === 1 ? "file" : "files"} ${verb.file}`);
      if (d > 0) parts.push(`${d} ${d === 1 ? "directory" : "directories"} ${verb.directory}`);
      return `${parts.join(" and ")} (${this.examples(reason)})`;
    };
    if (this.count("protected") > 0) {
      notes.push(
        `${what("protected")}: protected paths (secrets, settings that run code), which need a person's approval. ` +
          "To see one, call file-read (or this tool) with its path; that call asks for approval.",
      );
    }
    if (this.count("denied") > 0) {
      notes.push(
        `${what("denied")}: a policy deny rule covers ${this.count("denied") === 1 ? "it" : "them"}.`,
      );
    }
    if (this.count("store") > 0) {
      notes.push(`${what("store")}: aintern's own store (the audit log), never looked into.`);
    }
    return notes;
  }
}

const maxExamples = 5;
