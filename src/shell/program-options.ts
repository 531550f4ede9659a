/**
 * The one reading of a program's options the shell file-operand reader uses: which words are
 * options, which option takes which word as its value, and which words are operands.
 *
 * @internal
 */

import { namesLongOption } from "./command-words.js";
import type { ShellWord } from "./shell-scanner.js";
import { quotedExpansion, sliceWord, splitExpansion, writtenText } from "./shell-word.js";

/**
 * How a program's options are written, as far as one reading of them needs: the options that
 * take a value. An option not listed is read as taking none, so the word after it is read again
 * (as an operand, or as another option).
 *
 * @internal
 */
export interface OptionSyntax {
  /**
   * Short options that take a value, attached (`-oVALUE`) or the next word. In a group the first
   * of them takes the rest of the group or the next word (`-xvf a.tar`).
   */
  readonly short?: string;
  /**
   * Long options that take a value (`--name=VALUE`, `--name VALUE`), also by any prefix getopt_long
   * takes (`--fil` for `--file`): the first listed that the prefix names.
   */
  readonly long?: readonly string[];
  /** Long options that take two values (`jq --slurpfile NAME FILE`), looked up before `long`. */
  readonly longWithTwo?: readonly string[];
  /**
   * Long options that take no value. A name written whole is the option of that name in any list;
   * a prefix is looked up here first: a prefix of one of these is that option, not a longer one's
   * (tar's `--checkp` is `--checkpoint`, not `--checkpoint-action`).
   */
  readonly flags?: readonly string[];
  /** Options go on after `--` (it is skipped) instead of ending there. */
  readonly pastDoubleDash?: true;
  /** Only `-` and a letter start a group of short options (git reads `-3` as a count). */
  readonly letterGroupsOnly?: true;
  /**
   * Every word that starts with `-` is one option, named up to its `=` (git's own options before
   * its subcommand: `-C DIR`, `--git-dir=DIR`): no groups, no prefixes, no end at `--`.
   */
  readonly wholeWords?: true;
}

/**
 * A word of a program's arguments as {@link readOptions} reads it: an option that takes a value
 * (with that value), another option written long (with its `=VALUE`), or an operand. Options
 * that take no value in a group of short ones are not reported. `at` is the word's index.
 *
 * @internal
 */
export type OptionWord =
  | {
      readonly kind: "option";
      /** The option as listed: `-f`, or the long name a prefix stands for (`--file`). */
      readonly name: string;
      /** The option as written, without its `=VALUE` (`--fil`, `-f`). */
      readonly given: string;
      /** Its value (of one that takes two, the second), or undefined at the end of the words. */
      readonly value: ShellWord | undefined;
      /** The word the option is written in. */
      readonly word: ShellWord;
      readonly at: number;
    }
  | {
      readonly kind: "other";
      /** The option as written, without its `=VALUE`. */
      readonly given: string;
      /** What follows its `=`, if it has one. */
      readonly attached: ShellWord | undefined;
      readonly word: ShellWord;
      readonly at: number;
    }
  | { readonly kind: "operand"; readonly word: ShellWord; readonly at: number }
  | {
      /**
       * A word the shell may make an option the text does not show (see {@link hidesOption}),
       * or a value of one it may split into more words: what the program takes from it, and from
       * the words after it, cannot be read.
       */
      readonly kind: "built";
      readonly word: ShellWord;
      readonly at: number;
    };

/** The rest of a word from `from` (an option's attached value: `--file=x`, `-fx`, `of=x`). */
export function restOfWord(word: ShellWord, from: number): ShellWord {
  return sliceWord(word, from);
}

/** Whether the shell may split `word` into several words: an expansion in it is unquoted. */
export function splitsIntoWords(word: ShellWord): boolean {
  return word.expansions.includes(splitExpansion);
}

/**
 * How many characters `word` starts with that the shell keeps as written: up to the first that
 * an expansion or substitution gives, or that a glob or brace expansion may change.
 */
export function writtenLength(word: ShellWord): number {
  const ends = [
    word.expansions.search(/[^.]/),
    word.shadow.search(/[*?[]/),
    word.shadow.search(/\{[^}]*(?:,|\.\.)[^}]*\}/),
  ].filter((at) => at !== -1);
  return Math.min(word.value.length, ...ends);
}

/**
 * Whether the shell may make of `word` an option of `syntax` whose name the text does not show:
 * the word starts with an expansion (`"$OPT"`) or a brace expansion, an expansion or glob comes
 * before its name ends (`-$X`, `--$X=v`, `--upload-pack$X=v`, `--upload-pa?k=v`, in a group
 * `-v$X` before a letter that takes a value), or it holds an unquoted expansion, which the shell
 * splits into words (`x$Y`: any of them may be an option). A value after the name may be built
 * (`--exec="$C"`, `-o"$C"`): that is an option whose value the text does not show. A word that
 * starts with an unquoted glob (`*`, `?oProxy*`, `[-]-upload-pack*`) may too: `*`, `?` and
 * `[...]` match names that start with `-`, and the folder may hold one (`-oProxyCommand=CMD`)
 * by the time the command runs, made by this very command line (`touch -- -o... && ssh * x`).
 */
export function hidesOption(word: ShellWord, syntax: OptionSyntax): boolean {
  const v = word.value;
  if (splitsIntoWords(word)) return true;
  if (v === "") return false;
  // A process substitution gives the path of a pipe (`/dev/fd/63`), never an option.
  if (/^[<>]\(/.test(v) && word.expansions[0] === quotedExpansion) return false;
  if (word.expansions[0] !== writtenText) return true;
  if (/^\{[^}]*(?:,|\.\.)[^}]*\}/.test(word.shadow)) return true;
  if (/^[*?[]/.test(word.shadow)) return true;
  if (!v.startsWith("-") || v === "-") return false;
  const written = writtenLength(word);
  if (written === v.length) return false;
  if (v.startsWith("--") || syntax.wholeWords === true) {
    const equals = v.indexOf("=");
    return equals === -1 || equals >= written;
  }
  for (let j = 1; j < v.length; j++) {
    if (j >= written) return true;
    if ((syntax.short ?? "").includes(v.charAt(j))) return false;
  }
  return false;
}

/**
 * The option of `list` a long option as written (`--fil`, without its `=VALUE`) names: itself, or
 * the first it is a prefix of (getopt_long takes any unambiguous prefix).
 *
 * @internal
 */
export function longOption(given: string, list: readonly string[] | undefined): string | undefined {
  return list?.find((full) => full === given) ?? list?.find((full) => namesLongOption(given, full));
}

/**
 * Which long option of `syntax` a long option as written (`--fil`, without its `=VALUE`) is, as
 * getopt_long finds it: its exact name in any of the lists first (`--file` is `--file` even where
 * a flag `--files-only` starts with it), else the first option a prefix names, looking in
 * `flags`, then `longWithTwo`, then `long`.
 */
function longOptionOf(
  given: string,
  syntax: OptionSyntax,
): { readonly kind: "flag" | "two" | "one"; readonly name: string } | undefined {
  const lists = [
    ["flag", syntax.flags],
    ["two", syntax.longWithTwo],
    ["one", syntax.long],
  ] as const;
  for (const [kind, list] of lists)
    if (list?.includes(given) === true) return { kind, name: given };
  for (const [kind, list] of lists) {
    const name = list?.find((full) => namesLongOption(given, full));
    if (name !== undefined) return { kind, name };
  }
  return undefined;
}

/**
 * Reads `args` as options of `syntax` and operands, as getopt_long does (options may follow
 * operands; `--` ends them), or as `syntax` says otherwise. A word whose option name is written
 * is that option, whatever its value (`--exec="$C"`, `-o"$C"`); a word that may be an option
 * whose name the text does not show ({@link hidesOption}) is `built`, and so is a value the shell
 * may split into more words (`-m $MSG`). After `--` every word is an operand.
 *
 * @internal
 */
export function* readOptions(
  args: readonly ShellWord[],
  syntax: OptionSyntax,
): Generator<OptionWord, void, undefined> {
  let ended = false;
  for (let at = 0; at < args.length; at++) {
    const word = args[at] as ShellWord;
    const v = word.value;
    if (!ended && hidesOption(word, syntax)) {
      yield { kind: "built", word, at };
      continue;
    }
    if (syntax.wholeWords === true) {
      if (!v.startsWith("-")) {
        yield { kind: "operand", word, at };
        continue;
      }
      const [given = v] = v.split("=", 1);
      const attached = v.includes("=") ? restOfWord(word, v.indexOf("=") + 1) : undefined;
      if (syntax.long?.includes(given) === true) {
        yield { kind: "option", name: given, given, value: attached ?? args[at + 1], word, at };
        if (attached === undefined) yield* splitValue(args, ++at);
      } else yield { kind: "other", given, attached, word, at };
      continue;
    }
    if (ended || !v.startsWith("-") || v === "-") {
      yield { kind: "operand", word, at };
      continue;
    }
    if (v === "--") {
      ended = syntax.pastDoubleDash !== true;
      continue;
    }
    if (v.startsWith("--")) {
      const [given = v] = v.split("=", 1);
      const attached = v.includes("=") ? restOfWord(word, v.indexOf("=") + 1) : undefined;
      const long = longOptionOf(given, syntax);
      if (long?.kind === "flag") continue;
      const two = long?.kind === "two" ? long.name : undefined;
      const one = long?.kind === "one" ? long.name : undefined;
      if (two !== undefined) {
        yield { kind: "option", name: two, given, value: args[at + 2], word, at };
        yield* splitValue(args, ++at);
        yield* splitValue(args, ++at);
      } else if (one !== undefined) {
        yield { kind: "option", name: one, given, value: attached ?? args[at + 1], word, at };
        if (attached === undefined) yield* splitValue(args, ++at);
      } else yield { kind: "other", given, attached, word, at };
      continue;
    }
    if (syntax.letterGroupsOnly === true && !/^-[a-zA-Z]/.test(v)) {
      yield { kind: "operand", word, at };
      continue;
    }
    for (let j = 1; j < v.length; j++) {
      const letter = v.charAt(j);
      if (!(syntax.short ?? "").includes(letter)) continue;
      const name = `-${letter}`;
      if (j < v.length - 1) {
        yield { kind: "option", name, given: name, value: restOfWord(word, j + 1), word, at };
      } else {
        yield { kind: "option", name, given: name, value: args[at + 1], word, at };
        yield* splitValue(args, ++at);
      }
      break;
    }
  }
}

/** The value word at `at` as `built` when the shell may split it into more words. */
function* splitValue(args: readonly ShellWord[], at: number): Generator<OptionWord> {
  const word = args[at];
  if (word !== undefined && splitsIntoWords(word)) yield { kind: "built", word, at };
}

/**
 * A program's arguments as a whole: its short option letters (also in groups, and those before
 * one that takes a value), its long options as written (up to `=`), and its operands.
 *
 * @internal
 */
export interface ReadOptions {
  readonly letters: ReadonlySet<string>;
  readonly long: readonly string[];
  readonly operands: readonly ShellWord[];
}

/**
 * What `args` hold, read by {@link readOptions} under `syntax`: short option letters (those in a
 * group before one that takes a value too, which `readOptions` does not report), long options
 * as written (up to `=`), and operands.
 *
 * @internal
 */
export function readOptionsWhole(args: readonly ShellWord[], syntax: OptionSyntax): ReadOptions {
  const letters = new Set<string>();
  const long: string[] = [];
  const operands: ShellWord[] = [];
  const reported = new Set<number>();
  const addGroup = (group: string): void => {
    for (const letter of group) letters.add(letter);
  };
  for (const item of readOptions(args, syntax)) {
    reported.add(item.at);
    if (item.kind === "operand") operands.push(item.word);
    else if (item.kind === "option") {
      // Its value is the next word only when not attached (`-Cdir -x`: `-x` is an option).
      if (item.value !== undefined && item.value === args[item.at + 1]) reported.add(item.at + 1);
      if (item.given.startsWith("--")) long.push(item.given);
      else {
        const v = item.word.value;
        const own = item.given.charAt(1);
        addGroup(v.slice(1, v.indexOf(own, 1) + 1));
      }
    } else if (item.kind === "other") {
      if (item.given.startsWith("--")) long.push(item.given);
      else addGroup(item.given.slice(1));
    }
  }
  // Groups of flags only (`-xz`): not reported by readOptions.
  for (let at = 0; at < args.length; at++) {
    const v = (args[at] as ShellWord).value;
    if (v === "--") break;
    if (!reported.has(at) && /^-[^-]/.test(v)) addGroup(v.slice(1));
  }
  return { letters, long, operands };
}
