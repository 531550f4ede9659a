import { readOptions, restOfWord } from "./program-options.js";
import type { ShellWord } from "./shell-scanner.js";
import { wrapperOptionSyntax } from "./unwrap-command.js";

/**
 * The files a wrapper writes or reads beside running its command (`strace -o FILE`, `time -o
 * FILE`, `script FILE`, `logsave FILE cmd`, `start-stop-daemon --pidfile FILE`). The file operands read them as paths of the call; the risk assessment judges the
 * written ones as it judges a redirection's target.
 *
 * @internal
 */

/** How a wrapper names the files it writes or reads beside its command ({@link unwrapCommand}). */
interface WrapperFileRule {
  /** Its options (of those that take a value) whose value is a file. */
  readonly files: readonly string[];
  /** Of `files`, those it only reads (or a folder it enters); the others it writes. */
  readonly reads?: readonly string[];
  /** How many operands are files before its command (`logsave FILE cmd`; all of `script`'s). */
  readonly fileOperands: number;
  /** Its options may follow its operands (`script out -O log`), which are not its command's. */
  readonly permutes?: true;
  /** Long options whose optional value, after `=`, is a file (`script --timing=FILE`). */
  readonly optional?: readonly string[];
  /** A file option's value starting with `|` or `!` is a command line its output is piped to. */
  readonly pipes?: true;
}

const wrapperFileRules: ReadonlyMap<string, WrapperFileRule> = new Map<string, WrapperFileRule>([
  ["strace", { files: ["-o", "--output"], fileOperands: 0, pipes: true }],
  [
    "ltrace",
    { files: ["-o", "--output", "-F", "--config"], reads: ["-F", "--config"], fileOperands: 0 },
  ],
  ["time", { files: ["-o", "--output"], fileOperands: 0 }],
  [
    "script",
    {
      files: ["-B", "-I", "-O", "-T", "--log-io", "--log-in", "--log-out", "--log-timing"],
      fileOperands: Number.POSITIVE_INFINITY,
      permutes: true,
      optional: ["--timing", "--timin", "--timi", "--tim", "--ti"],
    },
  ],
  ["logsave", { files: [], fileOperands: 1 }],
  ["xvfb-run", { files: ["-e", "-f"], fileOperands: 0, optional: ["--error-file", "--auth-file"] }],
  [
    "valgrind",
    {
      files: [],
      fileOperands: 0,
      optional: [
        "--log-file",
        "--xml-file",
        "--callgrind-out-file",
        "--massif-out-file",
        "--cachegrind-out-file",
        "--xtree-memory-file",
        "--vgdb-prefix",
      ],
    },
  ],
  [
    "start-stop-daemon",
    {
      files: ["-O", "--output", "-p", "--pidfile", "-r", "--chroot"],
      reads: ["-r", "--chroot"],
      fileOperands: 0,
      permutes: true,
    },
  ],
]);

/** One thing {@link wrapperFileItems} found. */
export type WrapperFileItem =
  /** A file it writes (`written`) or reads. */
  | { readonly kind: "file"; readonly word: ShellWord; readonly written: boolean }
  /** strace's `-o |cmd` / `-o !cmd`: its output piped to a command line. */
  | { readonly kind: "pipe"; readonly option: string; readonly word: ShellWord }
  /** A word built by expansion where its options are read: what follows cannot be told. */
  | { readonly kind: "built"; readonly word: ShellWord };

/**
 * The files the wrapper `name` names in `args` (its words after its name), read up to its
 * command, or through all its words for one whose options may follow its operands.
 */
export function* wrapperFileItems(
  name: string,
  args: readonly ShellWord[],
): Generator<WrapperFileItem> {
  const rule = wrapperFileRules.get(name);
  const syntax = wrapperOptionSyntax(name);
  if (rule === undefined || syntax === undefined) return;
  let operands = 0;
  for (const item of readOptions(args, syntax)) {
    if (item.kind === "built") {
      yield { kind: "built", word: item.word };
      return;
    }
    if (item.kind === "operand") {
      if (operands++ < rule.fileOperands) yield { kind: "file", word: item.word, written: true };
      if (rule.permutes !== true && operands >= rule.fileOperands) return;
      continue;
    }
    const attached = item.kind === "other" ? item.attached : undefined;
    if (item.kind === "other" && attached !== undefined && rule.optional?.includes(item.given)) {
      yield { kind: "file", word: attached, written: true };
    }
    if (item.kind !== "option" || item.value === undefined) continue;
    if (!rule.files.includes(item.name)) continue;
    if (rule.pipes === true && /^[|!]/.test(item.value.value)) {
      yield { kind: "pipe", option: item.given, word: item.value };
    } else {
      yield { kind: "file", word: item.value, written: rule.reads?.includes(item.name) !== true };
    }
  }
  // script's `-tFILE` (an optional value, attached only), after flags in a group too.
  if (name === "script") {
    for (const word of args) {
      if (word.value === "--") break;
      const timing = /^-[aefqE]*t/.exec(word.value);
      if (timing !== null && timing[0].length < word.value.length) {
        yield { kind: "file", word: restOfWord(word, timing[0].length), written: true };
      }
    }
  }
}
