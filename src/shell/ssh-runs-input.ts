import { sshOptionSyntaxes } from "./command-line-values.js";
import { type OptionSyntax, readOptions, readOptionsWhole } from "./program-options.js";
import type { ShellWord } from "./shell-word.js";

/**
 * Whether `ssh ARGS` starts a shell on the remote machine that reads ssh's input as its script:
 * no command after the host (or only empty words: `ssh host ''`), and none of `-N` (no command),
 * `-W` (a forwarded connection), `-s` (a subsystem), `-n` (the input is `/dev/null`) and `-O` (a
 * control command). Options are read wherever ssh reads them, after the host too, and an
 * option's value is not read as an option (`ssh -l -N host` is user `-N`).
 *
 * @internal
 */
export function sshRunsInput(args: readonly ShellWord[]): boolean {
  const syntax = sshOptionSyntaxes.get("ssh") as OptionSyntax;
  for (const item of readOptions(args, syntax)) if (item.kind === "built") return true;
  const read = readOptionsWhole(args, syntax);
  if ([..."NWsnO"].some((letter) => read.letters.has(letter))) return false;
  // No host at all: a command line another program completes (`rsync -e 'ssh -p 2222'`).
  const [host, ...command] = read.operands;
  return host !== undefined && command.every((word) => word.value === "");
}
