import { lexShellCommand } from "./shell-syntax.js";

/**
 * The words of one simple command, quotes removed and escapes applied (`npm install "lodash"`
 * gives `["npm", "install", "lodash"]`). Substitutions and expansions are kept as written
 * (`echo $(date)` gives `["echo", "$(date)"]`); redirection operators and their targets are not
 * words. Empty only for a command made of redirections alone (`> file`).
 */
export type CommandSegment = readonly string[];

/**
 * The constructs a command line uses whose effect the text alone does not tell. A command with
 * any of the first five is never approved by a remembered pattern.
 */
export interface CommandSyntaxFlags {
  /** Runs another command to produce text: `$(...)`, backticks, `<(...)`, `>(...)`, `$((...))`. */
  readonly hasSubstitution: boolean;
  /**
   * Expands something the text does not show: `$VAR`, `${...}`, `$1`, `$?`, `$'...'`, `$"..."`,
   * `$[...]`, brace expansion (`{a,b}`, `{1..3}`), or an expanding here-document body.
   */
  readonly hasExpansion: boolean;
  /** Redirects input or output: `<`, `>`, `>>`, `>|`, `<>`, `2>`, `&>`, `>&`, `<&`, `<<`, `<<<`, `|&`. */
  readonly hasRedirection: boolean;
  /** Groups commands: a subshell `( ... )`, arithmetic `(( ... ))`, or a group `{ ...; }`. */
  readonly hasSubshell: boolean;
  /** Contains a `#` comment. What counts as a comment depends on the shell and its options. */
  readonly hasComment: boolean;
  /** Runs a command in the background with a trailing `&`. */
  readonly hasBackground: boolean;
}

/**
 * What {@link parseCommand} returns: the simple commands of a command line and the constructs it
 * uses, or why it does not parse.
 */
export type ParsedCommand =
  | (CommandSyntaxFlags & {
      readonly ok: true;
      /**
       * One entry per simple command, split on `&&`, `||`, `;`, `|`, `|&`, `&` and newlines, and
       * found inside compound commands.
       */
      readonly segments: readonly CommandSegment[];
      readonly error?: never;
    })
  | {
      readonly ok: false;
      /** Why the command does not parse, with the offset where that can be told. */
      readonly error: string;
      readonly segments?: never;
    };

/**
 * Parses a shell command line (a conservative POSIX `sh` subset, plus the bash forms an agent is
 * likely to write) into the words of its simple commands, without running or expanding anything.
 * Compound commands (`if`, `while`, `until`, `for`, `select`, `case`, `{ ...; }`, `( ... )`,
 * `!`, `time`, functions, `[[ ]]`, `coproc`) are read by their grammar and every simple command
 * inside them is listed; their keywords, `for` lists and `case` patterns are not words of any
 * command. A function's body is listed where it is defined.
 *
 * Single quotes are literal; double quotes keep `$` and backticks live; a backslash escapes the
 * next character (inside double quotes only `$`, `` ` ``, `"`, `\` and newline); backslash-newline
 * continues the line. A `#` at the start of a word starts a comment that runs to the end of the
 * line. A newline after `&&`, `||` or `|` continues the command. Here-document bodies are skipped.
 *
 * It refuses (`ok: false`) what it cannot read with certainty: an unterminated quote or
 * substitution, a trailing backslash, an operator with no command on one side (`a &&`, `; a`,
 * `a ;; b`), a redirection without a target, an unterminated here-document, an empty command, a
 * NUL byte, and control or line-reordering characters (everything below U+0020 but tab and
 * newline, DEL, U+0080-U+009F, bidirectional controls, U+2028/U+2029).
 *
 * Once a flag is set, the segments are a best effort: the text inside a substitution is read as a
 * program only to find where it ends.
 *
 * @example
 * ```ts
 * const parsed = parseCommand("npm test && git status");
 * // { ok: true, segments: [["npm", "test"], ["git", "status"]], hasSubstitution: false, ... }
 * ```
 */
export function parseCommand(command: string): ParsedCommand {
  const syntax = lexShellCommand(command);
  if (!syntax.ok) return Object.freeze({ ok: false, error: syntax.error });
  const segments = Object.freeze(
    syntax.segments.map((words) => Object.freeze(words.map((word) => word.value))),
  );
  return Object.freeze({ ok: true, segments, ...syntax.flags });
}
