/**
 * Where a POSIX-style shell (`sh`, `bash`, `dash`, `zsh`, `ksh`, ...) invoked with some
 * arguments reads its script: the first operand after `-c` and the options, a file operand, or
 * its standard input.
 *
 * @internal
 */

import { stdinPaths } from "./command-words.js";
import { hidesOption } from "./program-options.js";
import type { ShellWord } from "./shell-scanner.js";

/** Where {@link shellInput} found a shell's script. */
export type ShellInput =
  /** `-c`: the first operand (undefined when there is none). */
  | { readonly kind: "command"; readonly script: ShellWord | undefined }
  /** A script file, the first operand. */
  | { readonly kind: "file"; readonly file: ShellWord }
  /** Its standard input: no operand, `-s`, or `/dev/stdin`. */
  | { readonly kind: "stdin" }
  /**
   * A word that may be an option the text does not show, before other words (`sh "$X" 'cmd'`,
   * where `$X` may be `-c`): where the script comes from cannot be told.
   */
  | { readonly kind: "built"; readonly word: ShellWord };

/** bash's long options that take the next word (`--rcfile FILE`). */
const longWithValue = new Set(["--rcfile", "--init-file"]);

/**
 * Reads a shell's arguments as the shell does: options (`-e`, `+x`, `-o NAME`, `-O NAME`, bash's
 * long ones first) up to the first operand, `--` or `-`; each `o` / `O` of a group takes the next
 * word in turn (`-xoc errexit`). With `-c` the first operand is the
 * script (`bash -c -- 'cmd'`, `bash -c -e 'cmd'`), whatever option came after `-c`.
 */
export function shellInput(args: readonly ShellWord[]): ShellInput {
  let command = false;
  let stdin = false;
  let at = 0;
  for (; at < args.length; at++) {
    const word = args[at] as ShellWord;
    if (hidesOption(word, { short: "oO" })) {
      // After `-c` it is read as the script (built by expansion); last, as the script file.
      if (command) return { kind: "command", script: word };
      if (at === args.length - 1) break;
      return { kind: "built", word };
    }
    const v = word.value;
    if (v === "--" || v === "-") {
      at++;
      break;
    }
    if (v.startsWith("--")) {
      if (longWithValue.has(v)) at++;
      continue;
    }
    if (!/^[-+]./.test(v)) break;
    // Each `o` / `O` in a group takes the next word as its name, in turn, and the letters after
    // it are still options (`bash -oc pipefail 'cmd'`, `bash -xoOc errexit extglob 'cmd'`).
    let names = 0;
    for (let j = 1; j < v.length; j++) {
      const letter = v.charAt(j);
      // bash and dash read `+c` and `+s` as `-c` and `-s`.
      if (letter === "c") command = true;
      if (letter === "s") stdin = true;
      if (letter === "o" || letter === "O") names++;
    }
    at += names;
  }
  const first = args[at];
  if (command) return { kind: "command", script: first };
  if (stdin || first === undefined || stdinPaths.has(first.value)) return { kind: "stdin" };
  return { kind: "file", file: first };
}

/**
 * The startup files bash's long options name (`--rcfile FILE`, `--init-file FILE`), which it
 * reads and runs: read up to the first word that is not an option, as {@link shellInput} reads.
 */
export function shellStartupFiles(args: readonly ShellWord[]): ShellWord[] {
  const files: ShellWord[] = [];
  for (let at = 0; at < args.length; at++) {
    const v = (args[at] as ShellWord).value;
    if (v === "--" || v === "-" || !/^[-+]./.test(v)) break;
    if (!v.startsWith("--")) continue;
    if (longWithValue.has(v)) {
      const file = args[++at];
      if (file !== undefined) files.push(file);
    }
  }
  return files;
}
