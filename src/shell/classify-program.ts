import { RiskLevel } from "../core/index.js";
import { classifyFind, classifyPager, classifySed, classifyTar } from "./classify-file-tools.js";
import { classifyGit } from "./classify-git.js";
import { atSyntax } from "./command-line-values.js";
import {
  commandName,
  hasFlag,
  normalizeAbsolute,
  operands,
  scriptsProducedBy,
  stdinPaths,
} from "./command-words.js";
import { assignmentName, assignmentRisk, removalRisk } from "./environment-assignments.js";
import { readOptionsWhole } from "./program-options.js";
import { checkProgramOptions, pagers, readOnlyPrograms } from "./read-only-programs.js";
import { type ClassifyContext, runsInput } from "./risk-findings.js";
import { shellInput } from "./shell-invocation.js";
import type { ShellWord } from "./shell-scanner.js";
import { lexShellCommand } from "./shell-syntax.js";
import { unwrapCommand } from "./unwrap-command.js";
import { blockDevice } from "./write-target.js";

/**
 * The risk of one effective command (wrappers already looked through), by its program.
 *
 * @internal
 */

const { Medium, High, Critical } = RiskLevel;

const shells = new Set([
  "sh",
  "bash",
  "rbash",
  "zsh",
  "dash",
  "ksh",
  "ash",
  "mksh",
  "fish",
  "csh",
  "tcsh",
  "busybox",
]);
/** The shells whose arguments {@link shellInput} reads (`fish -c` takes its script as `-c`'s value). */
const posixShells = new Set(["sh", "bash", "rbash", "zsh", "dash", "ksh", "ash", "mksh"]);
const interpreters = new Set(
  "python python2 python3 perl ruby node nodejs php deno bun lua tclsh awk gawk mawk nawk osascript pwsh".split(
    " ",
  ),
);
const downloaders = new Set(["curl", "wget", "fetch", "aria2c"]);

/**
 * Whether the program `name` (a command name, no folder) is a shell or an interpreter: it runs
 * code given in its words (`sh -c`, `python -c`, `node -e`) or in a file they name.
 */
export function isCodeRunner(name: string): boolean {
  return shells.has(name) || interpreters.has(name);
}
const diskFormatters =
  /^(mkfs(\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|wipefs|fdisk|sfdisk|cfdisk|parted|sgdisk|blkdiscard)$/;
const powerCommands = new Set(["shutdown", "reboot", "halt", "poweroff"]);
const harmlessDevices = new Set("/dev/null /dev/stdout /dev/stderr /dev/tty /dev/zero".split(" "));
const systemDirectory =
  /^\/(bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|sbin|srv|sys|usr|var|mnt|media|run|snap|Users|System|Library|Applications|private)$/;

/**
 * Whether a recursive delete or permission change of `target` takes a whole system, home or
 * workspace with it: `/`, a system directory, `~`, `~user`, `$HOME`, `.`, `..`, `*`, `.*`,
 * globs of those, and any target whose start is built by expansion (it could be `/`).
 */
export function isSweepingTarget(target: string): boolean {
  if (/^(\$\{?HOME\}?|~[A-Za-z0-9_.-]*)\/?(\*|\.\*|\.)?\/?$/.test(target)) return true;
  if (/^["']?\$/.test(target) || target.startsWith("`")) return true;
  if (/^(\.\.?\/?|\*|\.\*|\.\/\*|\.\/\.\*|\.\.\/.*)$/.test(target)) return true;
  if (target.startsWith("/")) {
    const trimmed = target.replace(/\/(\*|\.\*)$/, "") || "/";
    const normal = normalizeAbsolute(trimmed);
    return normal === "/" || systemDirectory.test(normal) || /^\/(home|Users)\/[^/]+$/.test(normal);
  }
  return false;
}

function isInlineCodeFlag(name: string, arg: string): boolean {
  if (shells.has(name)) return /^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg);
  if (name.startsWith("python")) return arg === "-c" || /^-[a-zA-Z]*c$/.test(arg);
  if (name === "php") return arg === "-r";
  if (name === "perl" || name === "ruby") return /^-[a-zA-Z]*[eE]$/.test(arg);
  if (/awk$/.test(name)) return !arg.startsWith("-");
  return ["-e", "--eval", "-p", "--print"].includes(arg);
}

/** Classifies a command whose program is `words[0]` (already unwrapped). */
export function classifyProgram(
  words: readonly ShellWord[],
  context: ClassifyContext,
  classifyWords: (words: readonly ShellWord[]) => void,
): void {
  const { findings } = context;
  const name = commandName((words[0] as ShellWord).value);
  const args = words.slice(1).map((w) => w.value);
  const only = args.length === 1 ? args[0] : undefined;
  if (
    only === "--version" ||
    only === "--help" ||
    (only === "-v" && (name === "node" || name === "npm"))
  )
    return;

  if (name === "printf" && args[0] !== undefined && args[0].startsWith("-v")) {
    const variable = args[0] === "-v" ? args[1] : args[0].slice(2);
    findings.addFinding(assignmentRisk(variable ?? ""));
    return;
  }
  // BSD-style `e` (`ps e`, `ps axeww`): every process's environment, the server's secrets (API
  // keys the commands' own environment leaves out) among them.
  if (name === "ps" && args.some((a) => !a.startsWith("-") && /^[A-Za-z]*e[A-Za-z]*$/.test(a))) {
    findings.add(High, "'ps e' shows other processes' environments, with their secrets.");
  }
  const readOnly = readOnlyPrograms.get(name);
  if (readOnly !== undefined) {
    findings.addFinding(checkProgramOptions(name, readOnly, args));
    return;
  }
  const pager = pagers.get(name);
  if (pager !== undefined) {
    classifyPager(name, pager, args, findings);
    return;
  }
  switch (name) {
    case "command":
      return; // `command -v` / `-V` only print (the wrapper rule took every other form).
    case "at":
    case "batch":
      classifyAt(name, words.slice(1), context);
      return;
    case "find":
      classifyFind(words, findings, classifyWords, isSweepingTarget);
      return;
    case "git":
      classifyGit(args, findings, context.assess);
      return;
    case "sed":
      classifySed(args, findings);
      return;
    case "tar":
      classifyTar(args, findings);
      return;
    case "rm":
      classifyRm(args, findings);
      return;
    case "eval":
      findings.add(Medium, "It evaluates text as a command ('eval').");
      context.assess(args.join(" "));
      return;
    case "source":
    case ".":
      findings.add(High, `It runs the script '${args[0] ?? ""}' inside the shell.`);
      assessProducedScripts(words, context);
      return;
    case "alias":
      for (const arg of args) {
        const at = arg.indexOf("=");
        if (at <= 0) continue;
        findings.add(High, "It defines an alias, which changes what a command name runs.");
        findings.aliases.set(arg.slice(0, at), arg.slice(at + 1));
        context.assess(arg.slice(at + 1));
      }
      return;
    case "trap":
      if (args.length >= 2 && !args[0]?.startsWith("-")) {
        findings.add(Medium, "It sets a trap, a command the shell runs later.");
        context.assess(args[0] as string);
      }
      return;
    case "export":
    case "declare":
    case "typeset":
    case "local":
    case "readonly": {
      // `export -n X` and `declare +x X` take X out of the commands' environment, and a bare
      // `local X` hides it in a function: judged as setting X (the git configuration every
      // command gets lives in GIT_CONFIG_* variables).
      let removes = name === "local";
      for (const arg of args) {
        if (arg.startsWith("-") || arg.startsWith("+")) {
          if (/f/.test(arg)) findings.add(Medium, `'${name} ${arg}' exports or changes functions.`);
          if ((name === "export" && /^-[a-z]*n/.test(arg)) || /^\+[a-z]*x/.test(arg)) {
            removes = true;
          }
          continue;
        }
        const variable = assignmentName(arg);
        if (variable !== undefined) findings.addFinding(assignmentRisk(variable));
        else if (removes && /^[A-Za-z_][A-Za-z0-9_]*$/.test(arg)) {
          findings.addFinding(removalRisk(arg, `'${name}'`));
        }
      }
      return;
    }
    case "unset":
      for (const arg of args) {
        if (arg.startsWith("-")) {
          if (/f/.test(arg)) return;
          continue;
        }
        if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(arg)) findings.addFinding(removalRisk(arg, "'unset'"));
      }
      return;
    case "mapfile":
    case "readarray":
      classifyMapfileCallback(name, args, context);
      for (const operand of operands(words.map((w) => w.value))) {
        if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(operand)) findings.addFinding(assignmentRisk(operand));
      }
      return;
    case "enable":
      if (args.some((a) => /^-[a-zA-Z]*f/.test(a))) {
        findings.add(
          High,
          "'enable -f' loads a shared library into the shell, which runs its code.",
        );
      } else {
        findings.add(Medium, "'enable' turns shell builtins on or off, changing what a name runs.");
      }
      return;
    case "read":
    case "getopts":
      for (const operand of operands(words.map((w) => w.value)).slice(name === "getopts" ? 1 : 0)) {
        if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(operand)) findings.addFinding(assignmentRisk(operand));
      }
      return;
  }
  if (name === "chmod" || name === "chown" || name === "chgrp") {
    if (hasFlag(args, "R", ["--recursive"])) {
      const sweeping = operands(words.map((w) => w.value)).some(
        (w) => isSweepingTarget(w) && w !== "." && w !== "*" && w !== "./*",
      );
      findings.add(
        sweeping ? Critical : High,
        sweeping
          ? `It changes ownership or permissions recursively across the system ('${name} -R').`
          : `It changes ownership or permissions recursively ('${name} -R').`,
      );
    } else {
      findings.add(Medium, `It changes ownership or permissions ('${name}').`);
    }
    return;
  }
  if (name === "dd") {
    const output = args.find((a) => a.startsWith("of="))?.slice(3);
    if (output?.startsWith("/dev/") && !harmlessDevices.has(output)) {
      findings.add(Critical, `It writes raw data onto a device ('dd of=${output}').`);
    } else {
      findings.add(High, "It copies raw data with 'dd', which overwrites without asking.");
    }
    return;
  }
  if (diskFormatters.test(name)) {
    findings.add(Critical, `It formats or repartitions a disk ('${name}').`);
    return;
  }
  if (powerCommands.has(name) || (name === "init" && (only === "0" || only === "6"))) {
    findings.add(Critical, `It shuts down or restarts the machine ('${name}').`);
    return;
  }
  if (
    name === "systemctl" &&
    ["poweroff", "reboot", "halt", "kexec"].some((a) => args.includes(a))
  ) {
    findings.add(Critical, "It shuts down or restarts the machine ('systemctl').");
    return;
  }
  if (name === "shred") {
    findings.add(High, "It destroys file contents beyond recovery ('shred').");
    return;
  }
  if (
    ["tee", "cp", "mv", "ln", "install", "cat"].includes(name) &&
    args.some((a) => blockDevice.test(a))
  ) {
    findings.add(Critical, `It writes onto a disk device ('${name}').`);
    return;
  }
  if (downloaders.has(name)) {
    findings.downloadSeen = true;
    findings.add(Medium, `It downloads from the network ('${name}').`);
    return;
  }
  if (shells.has(name) || interpreters.has(name)) {
    classifyInterpreter(name, words, context);
    return;
  }
  findings.add(Medium, `'${name}' is not a known read-only command.`);
}

/**
 * Assesses the scripts a shell (or `source`) would read from its operands: `<(echo ...)`
 * process substitutions, and its input when an operand is `/dev/stdin` or `-`.
 */
function assessProducedScripts(words: readonly ShellWord[], context: ClassifyContext): boolean {
  let reads = false;
  for (const word of words.slice(1)) {
    for (const body of word.substitutions)
      for (const script of scriptsProducedBy(body)) context.assess(script);
    if (stdinPaths.has(word.value)) {
      reads = true;
      for (const script of context.stdinScripts) context.assess(script);
    }
  }
  return reads;
}

/** Whether a substitution among the words runs a download (`bash <(curl ...)`, `sh -c "$(wget ...)"`). */
function downloadsInSubstitution(words: readonly ShellWord[]): boolean {
  return words.some((word) =>
    word.substitutions.some((body) => {
      const parsed = lexShellCommand(body);
      if (!parsed.ok) return false;
      return parsed.segments.some((words) => {
        const program = unwrapCommand(words).words[0];
        return (
          (program !== undefined && downloaders.has(commandName(program.value))) ||
          downloadsInSubstitution(words)
        );
      });
    }),
  );
}

/**
 * `at` and `batch` run their input, or the file of `-f`, as a shell script later; listing,
 * removing and printing jobs (`-l`, `-r`, `-d`, `-c`) run nothing.
 */
function classifyAt(name: string, args: readonly ShellWord[], context: ClassifyContext): void {
  // `-q QUEUE`, `-f FILE`, `-t TIME` take a value: a queue's letter (`-qc`) is no option.
  const letters = readOptionsWhole(args, atSyntax).letters;
  if ([..."lrdc"].some((letter) => letters.has(letter))) return;
  if (letters.has("f")) {
    context.findings.add(High, `It runs the commands of a file later ('${name} -f').`);
    return;
  }
  runsInput(name, context);
}

function classifyInterpreter(
  name: string,
  words: readonly ShellWord[],
  context: ClassifyContext,
): void {
  const { findings } = context;
  const args = words.slice(1).map((w) => w.value);
  if (downloadsInSubstitution(words)) {
    findings.add(Critical, `It runs code downloaded from the network with '${name}'.`);
    return;
  }
  const inlineAt = args.findIndex((a) => isInlineCodeFlag(name, a));
  if (inlineAt !== -1) {
    let script = /awk$/.test(name) ? args[inlineAt] : args[inlineAt + 1];
    if (posixShells.has(name)) {
      // `bash -c -- 'cmd'`, `bash -c -e 'cmd'`: the script is the first operand after the options.
      const input = shellInput(words.slice(1));
      script = input.kind === "command" ? input.script?.value : undefined;
    }
    if (shells.has(name) && script !== undefined) {
      findings.add(Medium, `It runs a script through '${name} -c'.`);
      context.assess(script);
    } else {
      findings.add(Medium, `It runs inline code with '${name}'.`);
    }
    return;
  }
  if (shells.has(name) && assessProducedScripts(words, context)) {
    findings.add(High, `It runs a script '${name}' reads from its input.`);
    return;
  }
  const rest = operands([name, ...args]);
  const runsModule = !shells.has(name) && args.includes("-m");
  const readsStdin = !runsModule && (rest.length === 0 || rest[0] === "-" || args.includes("-s"));
  if (readsStdin) {
    if (findings.downloadSeen) {
      findings.add(
        Critical,
        `It pipes a download into '${name}', running whatever the server sends.`,
      );
    } else {
      findings.add(High, `It runs a script '${name}' reads from its input.`);
    }
    if (shells.has(name)) for (const script of context.stdinScripts) context.assess(script);
    return;
  }
  findings.add(Medium, `It runs '${rest[0] ?? name}' with '${name}'.`);
}

/**
 * `mapfile -C CALLBACK` evaluates CALLBACK with each line read appended as an argument: with a
 * callback like `eval` or `sh -c`, the file's lines run as code. The callback is High and is
 * assessed as a command itself.
 */
function classifyMapfileCallback(
  name: string,
  args: readonly string[],
  context: ClassifyContext,
): void {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--" || !arg.startsWith("-")) break;
    const at = arg.indexOf("C");
    if (at === -1) {
      // Options with an argument (`-d X`, `-n 5`, ...): skip the argument when it is the next word.
      if (/[dnOsuc]$/.test(arg)) i++;
      continue;
    }
    const callback = at < arg.length - 1 ? arg.slice(at + 1) : args[i + 1];
    context.findings.add(
      High,
      `'${name} -C' runs a callback command on every line it reads, with the line as an argument.`,
    );
    if (callback !== undefined) context.assess(callback);
    return;
  }
}

function classifyRm(args: readonly string[], findings: ClassifyContext["findings"]): void {
  const recursive = hasFlag(args, "rR", ["--recursive"]);
  const targets = operands(["rm", ...args]);
  if (args.includes("--no-preserve-root")) {
    findings.add(Critical, "It deletes with --no-preserve-root.");
    return;
  }
  if (recursive) {
    const sweeping = targets.filter((t) => isSweepingTarget(t));
    if (sweeping.length > 0) {
      findings.add(
        Critical,
        `It deletes recursively from '${sweeping[0]}', taking a whole system, home or workspace with it.`,
      );
    } else {
      findings.add(High, "It deletes directories recursively ('rm -r').");
    }
    return;
  }
  findings.add(Medium, "It deletes files ('rm').");
}
