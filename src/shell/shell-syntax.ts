/**
 * The hand-written reader behind {@link parseCommand}: a conservative reading of a POSIX `sh`
 * subset plus the bash forms an agent is likely to write (`&>`, `|&`, `<<<`, `$'...'`, `<(...)`,
 * `[[ ]]`, `function`).
 *
 * It never executes or expands anything. It finds every simple command of a command line,
 * inside compound commands too, with their words and redirections, and flags every construct
 * whose effect cannot be known from the text alone. Callers that approve commands must treat a
 * flagged command as unknown (see `assessCommandSyntax`).
 *
 * @internal
 */
import { ShellGrammar, type ShellSimpleCommand } from "./shell-grammar.js";
import { ShellSyntaxError, type ShellSyntaxFlags, type ShellWord } from "./shell-scanner.js";

export type { ShellSimpleCommand } from "./shell-grammar.js";
export type { ShellRedirection, ShellSyntaxFlags, ShellWord } from "./shell-scanner.js";

/** What the reader returns: the simple commands and their words, or why the text does not parse. */
export type ShellSyntax =
  | {
      readonly ok: true;
      /** The words of each simple command (`commands[i].words`). */
      readonly segments: readonly (readonly ShellWord[])[];
      readonly commands: readonly ShellSimpleCommand[];
      /** Words expanded but not run: `for` lists, `case` words and patterns, `[[ ]]` operands. */
      readonly inertWords: readonly ShellWord[];
      /** The `for`/`select` list words among `inertWords`: the shell globs them. */
      readonly loopWords: readonly ShellWord[];
      /** The variables `for NAME` and `select NAME` loops set. */
      readonly loopVariables: readonly ShellWord[];
      /** The words of each `[[ ]]` test, its operators (`&&`, `(`, `<`) as words. */
      readonly conditionals: readonly (readonly ShellWord[])[];
      readonly flags: Readonly<ShellSyntaxFlags>;
    }
  | { readonly ok: false; readonly error: string };

/**
 * The offset of the first character a command may not contain, or -1: C0 controls other than tab
 * and newline, DEL, C1 controls, and the Unicode characters that reorder or separate lines on
 * screen (so a person would read a different command than the one that runs).
 */
function findForbiddenCharacter(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const forbidden =
      (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x200e ||
      code === 0x200f ||
      code === 0x2028 ||
      code === 0x2029 ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069);
    if (forbidden) return i;
  }
  return -1;
}

/**
 * Splits a command line into simple commands and words, flagging every construct whose effect
 * the text alone does not tell.
 *
 * @internal
 */
export function lexShellCommand(command: string): ShellSyntax {
  if (typeof command !== "string") return { ok: false, error: "Command is not a string." };
  const forbidden = findForbiddenCharacter(command);
  if (forbidden !== -1) {
    const code = command.charCodeAt(forbidden);
    const what =
      code === 0
        ? "a NUL byte"
        : `the control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    return { ok: false, error: `Command contains ${what} at offset ${forbidden}.` };
  }
  const grammar = new ShellGrammar(command);
  try {
    const commands = grammar.parseProgram();
    if (commands.length === 0) {
      if (grammar.inertWords.length === 0 && !grammar.flags.hasSubshell) {
        return { ok: false, error: "Command is empty." };
      }
    }
    return {
      ok: true,
      segments: commands.map((c) => c.words),
      commands,
      inertWords: grammar.inertWords,
      loopWords: grammar.loopWords,
      loopVariables: grammar.loopVariables,
      conditionals: grammar.conditionals,
      flags: { ...grammar.flags },
    };
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}
