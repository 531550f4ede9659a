import { sshOptionSyntaxes } from "./command-line-values.js";
import { type OptionSyntax, readOptions } from "./program-options.js";
import type { ShellWord } from "./shell-word.js";

/**
 * Whether `ssh ARGS` starts a shell on the remote machine that reads ssh's input as its script:
 * no command after the host, and none of `-N` (no command), `-W` (a forwarded connection), `-s`
 * (a subsystem).
 *
 * @internal
 */
export function sshRunsInput(args: readonly ShellWord[]): boolean {
  const syntax = sshOptionSyntaxes.get("ssh") as OptionSyntax;
  let operands = 0;
  for (const item of readOptions(args, syntax)) {
    if (item.kind === "built") return true;
    if (item.kind === "operand") operands++;
    if (item.kind === "option" && item.name === "-W") return false;
  }
  // `-N` and `-s` take no value: in a group, before any letter that takes one (`-fN`).
  for (const word of args) {
    if (!/^-[A-Za-z0-9]/.test(word.value)) continue;
    const flags = word.value.slice(1).split(new RegExp(`[${syntax.short ?? ""}]`))[0] ?? "";
    if (/[Ns]/.test(flags)) return false;
  }
  return operands === 1;
}
