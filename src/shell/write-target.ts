import { RiskLevel } from "../core/index.js";
import type { RiskFinding } from "./read-only-programs.js";

/**
 * How risky it is for a command to write to a file it names: a redirection (`> x`), a
 * file-writing program's argument (`cp a x`) and an output option (`git log --output=x`,
 * `tree -o x`) are all judged here, so that the same path is the same risk however it is written.
 *
 * @internal
 */

const { High, Critical } = RiskLevel;

/** Block devices: writing to one destroys a disk or a partition. */
export const blockDevice =
  /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|md\d|dm-\d|loop\d|sr\d)/;

const harmlessTargets = /^\/dev\/(null|stdout|stderr|tty|fd\/\d+)$/;

/** Files and directories in a workspace that make other programs run code or hold secrets. */
const codeRunningPath =
  /(^|\/)(\.git|\.husky|\.vscode|\.idea|\.github|\.direnv|\.aintern)(\/|$)|(^|\/)(\.envrc|\.env(\..*)?|\.npmrc|\.yarnrc(\..*)?|\.bashrc|\.profile|\.zshrc|\.bash_profile|\.gitconfig|aintern\.config\.json|aintern\.policy\.json|Makefile|package\.json)$/i;

/** Whether an option's value (a plain string) may be built by expansion: `$X`, `` `x` ``. */
export function mayBeExpanded(value: string): boolean {
  return /[$`]/.test(value);
}

/**
 * The finding for writing to `file`, or undefined when the target alone adds nothing (a
 * relative path inside the working directory that runs no code). `writer` names what writes,
 * for the reason ("It", "'cp'", "'git log --output'"); `dynamic` is true when the file's name
 * is built by expansion.
 */
export function writeTargetFinding(
  writer: string,
  file: string,
  dynamic: boolean,
): RiskFinding | undefined {
  if (harmlessTargets.test(file)) return undefined;
  if (blockDevice.test(file)) {
    return { level: Critical, reason: `${writer} writes onto a disk device ('${file}').` };
  }
  if (dynamic) {
    return { level: High, reason: `${writer} writes to a file whose name is built by expansion.` };
  }
  if (file.startsWith("/") || file.startsWith("~") || file.split("/").includes("..")) {
    return { level: High, reason: `${writer} writes to '${file}', outside the working directory.` };
  }
  if (codeRunningPath.test(file)) {
    return {
      level: High,
      reason: `${writer} writes to '${file}', a file that makes other programs run code.`,
    };
  }
  return undefined;
}
