import { type ParsedCommand, parseCommand } from "./command-parser.js";
import type { ShellSyntaxFlags } from "./shell-syntax.js";

/** What {@link assessCommandSyntax} tells about a command line. */
export interface CommandSyntaxAssessment {
  /** The command as {@link parseCommand} reads it. */
  readonly parsed: ParsedCommand;
  /** Whether a remembered command pattern may approve this command at all. */
  readonly patternApprovable: boolean;
  /** Why a pattern may not approve it, one sentence each; empty when it may. */
  readonly reasons: readonly string[];
}

/**
 * Why a command with these flags cannot be approved by a pattern; empty when it can.
 *
 * @internal
 */
export function unapprovableReasons(flags: Readonly<ShellSyntaxFlags>): string[] {
  const reasons: string[] = [];
  if (flags.hasSubstitution) {
    reasons.push("It runs a command or process substitution ($(...), backticks, <(...), >(...)).");
  }
  if (flags.hasExpansion) {
    reasons.push(
      "It expands variables, parameters or braces, so the words that run are not the words shown.",
    );
  }
  if (flags.hasRedirection) reasons.push("It redirects input or output.");
  if (flags.hasSubshell) reasons.push("It groups commands in a subshell or a { ...; } group.");
  if (flags.hasComment) {
    reasons.push("It contains a comment, and shells disagree on what a comment hides.");
  }
  return reasons;
}

/**
 * Tells whether a command line can be approved by a remembered pattern and, when not, why: it
 * must parse, and it must use no substitution, expansion, redirection, subshell or comment.
 * Running in the background (`&`) is allowed; the terminal tool decides what that means.
 *
 * Meant for the terminal tool and approval UIs, to explain why "remember `npm *`" will not
 * cover a given command.
 *
 * @example
 * ```ts
 * assessCommandSyntax("npm test > out.txt").reasons; // ["It redirects input or output."]
 * ```
 */
export function assessCommandSyntax(command: string): CommandSyntaxAssessment {
  const parsed = parseCommand(command);
  const reasons = parsed.ok
    ? unapprovableReasons(parsed)
    : [`It does not parse as a shell command: ${parsed.error}`];
  return Object.freeze({
    parsed,
    patternApprovable: reasons.length === 0,
    reasons: Object.freeze(reasons),
  });
}
