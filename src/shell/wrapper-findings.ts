import { RiskLevel } from "../core/index.js";
import { commandName, namesLongOption } from "./command-words.js";
import { assignmentRisk, removalRisk } from "./environment-assignments.js";
import { readOptions } from "./program-options.js";
import type { RiskFinding } from "./read-only-programs.js";
import type { ShellWord } from "./shell-scanner.js";
import { wrapperOptionSyntax } from "./unwrap-command.js";
import { wrapperFileItems } from "./wrapper-files.js";
import { writeTargetFinding } from "./write-target.js";

/**
 * What a wrapper does besides running its command (`time -o FILE`, `strace -p PID`), which
 * looking through it to the command it runs would miss: a wrapper is otherwise transparent, so
 * `time -o Makefile true` was as Low as `true`.
 *
 * - A file it writes its own output to is judged as a redirection there: Medium, and High for
 *   a file that makes programs run code or one outside the working directory
 *   ({@link writeTargetFinding}). `flock`'s lock file, created empty when missing, is judged
 *   by where it is only (a lock in `/tmp` or `/run/lock` is what locks are for).
 * - A tracer attached to a running process (`strace -p`, `ltrace -p`) reads everything that
 *   process reads and writes (another call's arguments, aintern's own traffic), and strace's
 *   fault injection changes what its system calls return: High.
 * - Changing how another process is scheduled (`taskset -p`, `chrt -p`, `ionice -p`): Medium.
 * - `env -u NAME` is judged as setting NAME would be (unsetting `GIT_CONFIG_COUNT` drops the git
 *   configuration every command gets, as setting it would), and `env -i` (an empty environment,
 *   without that configuration) as setting the git variables: High.
 *
 * @internal
 */

const { Medium, High } = RiskLevel;

/** Tracers, and their options that attach to a running process. */
const attachingOptions: ReadonlyMap<string, readonly string[]> = new Map([
  ["strace", ["-p", "--attach"]],
  ["ltrace", ["-p"]],
]);

/** strace's options (and `-e` qualifiers) that make system calls fail or return other values. */
const injectingOptions = new Set(["--inject", "--fault"]);
const injectingQualifier = /^(inject|fault)=/;

/** Wrappers whose flag `-p` (`--pid`) makes them act on a running process instead. */
const schedulers = new Set(["taskset", "chrt"]);
const schedulerOptions = new Set(["-p", "--pid", "-P", "--pgid", "-u", "--uid"]);

/** The findings of every wrapper in `stages` ({@link unwrapCommand}'s; the last is the command). */
export function wrapperFindings(stages: readonly (readonly ShellWord[])[]): RiskFinding[] {
  const found: RiskFinding[] = [];
  for (const stage of stages.slice(0, -1)) {
    const first = stage[0];
    if (first === undefined || first.dynamic) continue;
    const name = commandName(first.value);
    const args = stage.slice(1);
    for (const item of wrapperFileItems(name, args)) {
      if (item.kind !== "file" || !item.written) continue;
      const writer = `'${name}'`;
      found.push({
        level: Medium,
        reason: `${writer} writes its own output to '${item.word.value}'.`,
      });
      const target = writeTargetFinding(writer, item.word.value, item.word.dynamic);
      if (target !== undefined) found.push(target);
    }
    if (name === "flock") {
      const lock = flockFile(args);
      const target =
        lock === undefined ? undefined : writeTargetFinding("'flock'", lock.value, lock.dynamic);
      if (target !== undefined && !lockFolders.test(lock?.value ?? "")) found.push(target);
    }
    if (name === "env") found.push(...environmentFindings(args));
    found.push(...optionFindings(name, args));
    if (clearsEnvironment(name, args)) {
      found.push({
        level: High,
        reason: `It runs a command with an empty environment ('${name}'), without the git configuration aintern gives every command.`,
      });
    }
    const finding = processFinding(name, args);
    if (finding !== undefined) found.push(finding);
  }
  return found;
}

/** What `env`'s options take away from the command's environment. */
function environmentFindings(args: readonly ShellWord[]): RiskFinding[] {
  const found: RiskFinding[] = [];
  const syntax = wrapperOptionSyntax("env");
  if (syntax === undefined) return found;
  for (const item of readOptions(args, syntax)) {
    if (item.kind === "operand" || item.kind === "built") break;
    if (item.kind !== "option" || (item.name !== "-u" && item.name !== "--unset")) continue;
    const unset = item.value;
    if (unset === undefined) continue;
    const risk = unset.dynamic
      ? assignmentRisk("GIT_CONFIG_COUNT")
      : removalRisk(unset.value, "'env -u'");
    if (risk !== undefined) found.push(risk);
  }
  for (let at = 0; at < args.length; at++) {
    const word = args[at] as ShellWord;
    const value = word.value;
    if (word.dynamic || value === "--" || !value.startsWith("-")) break;
    const clears =
      value === "-" ||
      (value.startsWith("--")
        ? namesLongOption(value, "--ignore-environment")
        : /^-[^uCSP]*i/.test(value));
    if (clears) {
      found.push({
        level: High,
        reason:
          "It runs a command with an empty environment ('env -i'), without the git configuration aintern gives every command.",
      });
      break;
    }
    // An option that takes a value as the next word (`-u NAME`): skip the value.
    if (/^-[^-]*[uCSP]$/.test(value) || /^--(unset|chdir|split-string)$/.test(value)) at++;
  }
  return found;
}

/** The wrapper's options before its command (`--name=value` and flags; stops at `--`). */
function leadingOptions(args: readonly ShellWord[]): ShellWord[] {
  const options: ShellWord[] = [];
  for (const word of args) {
    if (word.value === "--" || !word.value.startsWith("-")) break;
    options.push(word);
  }
  return options;
}

/**
 * What some wrappers' own options do: set or remove the command's variables (`strace -E`,
 * `firejail --env`), run a program of the model's (`dbus-run-session --dbus-daemon=`, `fakeroot
 * --faked=`, `unshare --root` in a folder of the workspace), or join another sandbox.
 */
function optionFindings(name: string, args: readonly ShellWord[]): RiskFinding[] {
  const found: RiskFinding[] = [];
  const runs = (what: string): RiskFinding => ({
    level: High,
    reason: `'${name} ${what}' runs a program (or a root folder) the command line names.`,
  });
  const variable = (value: string, how: string): void => {
    const at = value.indexOf("=");
    const risk =
      at === -1
        ? removalRisk(value, how)
        : assignmentRisk(value.slice(0, at) || "GIT_CONFIG_COUNT");
    if (risk !== undefined) found.push(risk);
  };
  if (name === "strace" || name === "unshare") {
    const syntax = wrapperOptionSyntax(name);
    if (syntax === undefined) return found;
    for (const item of readOptions(args, syntax)) {
      if (item.kind === "operand" || item.kind === "built") break;
      if (item.kind !== "option" || item.value === undefined) continue;
      if (name === "strace" && (item.name === "-E" || item.name === "--env")) {
        // A variable whose name is built by expansion may be any of them.
        variable(item.value.dynamic ? "GIT_CONFIG_COUNT=" : item.value.value, "'strace -E'");
      }
      if (name === "unshare" && (item.name === "-R" || item.name === "--root")) {
        found.push(runs(item.given));
      }
    }
    return found;
  }
  for (const word of leadingOptions(args)) {
    const value = word.value;
    const option = value.split("=", 1)[0] as string;
    const attached = value.includes("=") ? value.slice(value.indexOf("=") + 1) : undefined;
    if (name === "dbus-run-session" && /^--(dbus-daemon|config-file)$/.test(option)) {
      found.push(runs(option));
    } else if (name === "fakeroot" && /^(--faked|--lib|-l)$/.test(option)) {
      found.push(runs(option));
    } else if (name === "fakeroot" && /^(-s|-i)$/.test(option)) {
      found.push({ level: Medium, reason: `'fakeroot ${option}' saves or loads a state file.` });
    } else if (name === "firejail") {
      if (/^--(env|rmenv)$/.test(option) && attached !== undefined) {
        variable(
          option === "--rmenv" ? (attached.split("=", 1)[0] as string) : attached,
          "'firejail --rmenv'",
        );
      } else if (/^--output(-stderr)?$/.test(option) && attached !== undefined) {
        found.push({ level: Medium, reason: `'firejail' writes its output to '${attached}'.` });
        const target = writeTargetFinding("'firejail'", attached, word.dynamic);
        if (target !== undefined) found.push(target);
      } else if (option === "--join" || option.startsWith("--join-")) {
        found.push({
          level: High,
          reason: "'firejail --join' runs the command inside another process's sandbox.",
        });
      } else {
        found.push({
          level: Medium,
          reason: `'firejail ${option}' changes where and how the command runs.`,
        });
      }
    }
  }
  return found;
}

/** `exec -c cmd` and `setpriv --reset-env cmd` run the command with an empty environment. */
function clearsEnvironment(name: string, args: readonly ShellWord[]): boolean {
  if (name !== "exec" && name !== "setpriv") return false;
  for (const word of args) {
    const value = word.value;
    if (word.dynamic) return true;
    if (value === "--" || !value.startsWith("-")) return false;
    if (name === "exec" && /^-[^-a]*c/.test(value)) return true;
    if (name === "setpriv" && value.startsWith("--") && namesLongOption(value, "--reset-env")) {
      return true;
    }
  }
  return false;
}

/** Where programs keep lock files: a lock there is not a write anyone else reads. */
const lockFolders = /^\/(tmp|var\/tmp|var\/lock|run\/lock|dev\/shm)\/[^/]+$/;

/** `flock`'s lock file (`flock FILE cmd`); none for a descriptor (`flock 9`). */
function flockFile(args: readonly ShellWord[]): ShellWord | undefined {
  const syntax = wrapperOptionSyntax("flock");
  if (syntax === undefined) return undefined;
  for (const item of readOptions(args, syntax)) {
    if (item.kind === "built") return item.word;
    if (item.kind === "operand") return /^\d+$/.test(item.word.value) ? undefined : item.word;
  }
  return undefined;
}

/** What a wrapper does to a running process, if anything. */
function processFinding(name: string, args: readonly ShellWord[]): RiskFinding | undefined {
  const attaching = attachingOptions.get(name);
  const syntax = wrapperOptionSyntax(name);
  if (attaching !== undefined && syntax !== undefined) {
    for (const item of readOptions(args, syntax)) {
      if (item.kind === "operand" || item.kind === "built") break;
      if (item.kind !== "option") continue;
      if (attaching.includes(item.name)) {
        return {
          level: High,
          reason: `It attaches '${name}' to a running process, which lets it read what that process reads and writes.`,
        };
      }
      const value = item.value?.value ?? "";
      if (
        injectingOptions.has(item.name) ||
        (item.name === "-e" && injectingQualifier.test(value))
      ) {
        return {
          level: High,
          reason: `'${name}' injects faults into system calls, which changes what the program sees.`,
        };
      }
    }
  }
  if (name === "ionice" && syntax !== undefined) {
    for (const item of readOptions(args, syntax)) {
      if (item.kind === "operand" || item.kind === "built") break;
      if (item.kind === "option" && schedulerOptions.has(item.name)) return schedulesOthers(name);
    }
  }
  if (schedulers.has(name)) {
    for (const word of args) {
      const value = word.value;
      if (word.dynamic) return schedulesOthers(name);
      if (value === "--" || !value.startsWith("-") || value === "-") break;
      if (value.startsWith("--") ? namesLongOption(value, "--pid") : value.includes("p")) {
        return schedulesOthers(name);
      }
    }
  }
  return undefined;
}

function schedulesOthers(name: string): RiskFinding {
  return { level: Medium, reason: `It changes how a running process is scheduled ('${name} -p').` };
}
