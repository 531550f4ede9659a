import { maxRiskLevel, RiskLevel } from "../core/index.js";
import { classifyProgram } from "./classify-program.js";
import {
  commandName,
  isBuiltByExpansion,
  programLocation,
  quoteWords,
  stdinScripts,
  substitutionBodies,
  unreadStdin,
} from "./command-words.js";
import { assignmentRisk } from "./environment-assignments.js";
import { commandFileOperands } from "./file-operands.js";
import { type ClassifyContext, RiskFindings, runsInput } from "./risk-findings.js";
import type { ShellRedirection, ShellWord } from "./shell-scanner.js";
import { lexShellCommand } from "./shell-syntax.js";
import { sshRunsInput } from "./ssh-runs-input.js";
import { unwrapCommand } from "./unwrap-command.js";
import { wrapperFindings } from "./wrapper-findings.js";
import { writeTargetFinding } from "./write-target.js";

/** What {@link assessCommandRisk} tells about a shell command. */
export interface CommandRiskAssessment {
  /** The risk of running the command. */
  readonly riskLevel: RiskLevel;
  /** Why, one sentence per finding, highest risk first. */
  readonly reasons: readonly string[];
}

const { Medium, High, Critical } = RiskLevel;

/** Scripts nested deeper than this (`sh -c "sh -c ..."`, `$($(...))`) are not read: High. */
const maxDepth = 8;

function assessRedirection(
  redirection: ShellRedirection,
  findings: RiskFindings,
  assess: (c: string) => void,
): void {
  const { operator, target } = redirection;
  for (const body of target.substitutions) assess(body);
  if (redirection.body !== undefined && redirection.bodyExpands !== false) {
    for (const body of substitutionBodies(redirection.body)) assess(body);
  }
  const writes = [">", ">>", ">|", "<>", "&>", "&>>", ">&"].includes(operator);
  if (!writes || (operator === ">&" && /^[0-9-]+$/.test(target.value))) return;
  findings.addFinding(writeTargetFinding("It", target.value, target.dynamic));
  if (operator === ">|")
    findings.add(Medium, "It overwrites a file even where the shell forbids clobbering ('>|').");
}

/** Programs that write to files their arguments name (`cp a .git/hooks/x`, `tee ~/.bashrc`). */
const fileWriters = new Set(
  "cp mv tee install ln dd sort rsync truncate touch patch split csplit shred".split(" "),
);

/**
 * A file-writing program whose arguments name a file that runs code, or a place outside the
 * working directory, is judged as a redirection there would be: High. Every path argument
 * counts (a source too), which errs towards asking.
 */
function assessWriteTargets(words: readonly ShellWord[], findings: RiskFindings): void {
  const first = words[0];
  if (first === undefined || !fileWriters.has(commandName(first.value))) return;
  const rest = words.slice(1);
  for (const [index, word] of rest.entries()) {
    // `dd of=x`, `sort --output=x`, `-ox`: the path after `=`.
    const value = word.value.includes("=")
      ? word.value.slice(word.value.indexOf("=") + 1)
      : word.value;
    if (value === "" || (value.startsWith("-") && !word.value.includes("="))) continue;
    // A name built by expansion is judged where it is surely written to: the last operand
    // (`cp a "$DEST"`, `tee "$F"`) or an `of=` / `--output=` value; a source is not.
    const written = index === rest.length - 1 || word.value.includes("=");
    findings.addFinding(
      writeTargetFinding(`'${commandName(first.value)}'`, value, written && word.dynamic),
    );
  }
}

/** Devices any command may read or write: `2>/dev/null`, `cat /dev/stdin`. */
const harmlessDevices = /^\/dev\/(null|zero|random|urandom|stdin|stdout|stderr|tty|fd\/\d+)$/;
/** Files that hold secrets or credentials, or aintern's own: reading one is not read-only-safe. */
const secretFile =
  /(^|\/)(\.git|\.aintern|\.direnv|\.ssh|\.gnupg|\.aws)(\/|$)|(^|\/)(\.env(\..*)?|\.envrc|\.npmrc|\.yarnrc(\..*)?|\.netrc|\.pgpass|aintern\.config\.json|aintern\.policy\.json)$/i;

/**
 * A read-only program is Low only on files in the working directory: a file operand (`cat x`,
 * `< x`, see `commandFileOperands`) outside it (`/etc/shadow`, `~/x`, `../x`) or one that holds
 * secrets (`.env`, `.npmrc`, `.git/config`) makes the command Medium at least.
 */
function assessFileOperands(command: string, findings: RiskFindings): void {
  for (const path of commandFileOperands(command).paths) {
    if (harmlessDevices.test(path)) continue;
    if (path.startsWith("/") || path.startsWith("~") || path.split("/").includes("..")) {
      findings.add(Medium, `It names '${path}', a file outside the working directory.`);
    } else if (secretFile.test(path)) {
      findings.add(Medium, `It names '${path}', a file that holds secrets or controls programs.`);
    }
  }
}

function assessInto(command: string, findings: RiskFindings, depth: number): void {
  if (depth > maxDepth) {
    findings.add(High, `Scripts or substitutions are nested more than ${maxDepth} deep.`);
    return;
  }
  const parsed = lexShellCommand(command);
  if (!parsed.ok) {
    findings.add(High, `It does not parse as a shell command: ${parsed.error}`);
    return;
  }
  const { flags } = parsed;
  if (flags.hasSubstitution)
    findings.add(Medium, "It runs a command substitution ($(...), backticks, <(...)).");
  if (flags.hasRedirection) findings.add(Medium, "It redirects input or output.");
  if (flags.hasExpansion) {
    findings.add(
      Medium,
      "It expands variables or braces, so the words run are not the words shown.",
    );
  }
  if (flags.hasSubshell)
    findings.add(Medium, "It groups commands in a subshell, a group or a function.");
  if (flags.hasComment)
    findings.add(Medium, "It contains a comment, which shells read differently.");
  const assess = (nested: string) => assessInto(nested, findings, depth + 1);
  // `for GIT_CONFIG_COUNT in 0; do git status; done` sets the variable as an assignment would,
  // and an exported one reaches the commands. A loop's own variable (`i`), not exported, only
  // changes expansions, which are judged where they are.
  for (const name of parsed.loopVariables) {
    const risk = assignmentRisk(name.dynamic ? "GIT_CONFIG_COUNT" : name.value);
    if (risk !== undefined && risk.level >= High) findings.addFinding(risk);
  }
  for (const word of parsed.inertWords) for (const body of word.substitutions) assess(body);
  for (const simple of parsed.commands) {
    for (const word of simple.words) for (const body of word.substitutions) assess(body);
    for (const redirection of simple.redirections) assessRedirection(redirection, findings, assess);
    const context: ClassifyContext = {
      findings,
      assess,
      stdinScripts: stdinScripts(simple),
      unreadInput:
        unreadStdin(simple) ??
        (simple.redirections.some((r) => r.operator === "<" || r.operator === "<>")
          ? "a file's text"
          : undefined),
    };
    classifyWords(simple.words, context);
    assessWriteTargets(unwrapCommand(simple.words).words, findings);
  }
}

/** Judges one simple command's words: assignments, wrappers, the program's location and rules. */
function classifyWords(words: readonly ShellWord[], context: ClassifyContext): void {
  const { findings } = context;
  const first = words[0];
  const alias =
    first === undefined || first.dynamic ? undefined : findings.aliases.get(first.value);
  if (alias !== undefined) {
    // An alias defined earlier: what runs is its text followed by the other words.
    const name = first?.value ?? "";
    findings.aliases.delete(name); // As the shell does: an alias is not expanded inside itself.
    context.assess(`${alias} ${quoteWords(words.slice(1).map((w) => w.value))}`);
    findings.aliases.set(name, alias);
    return;
  }
  const unwrapped = unwrapCommand(words);
  for (const name of unwrapped.assignments) findings.addFinding(assignmentRisk(name));
  for (const finding of unwrapped.findings) findings.addFinding(finding);
  for (const finding of wrapperFindings(unwrapped.stages)) findings.addFinding(finding);
  for (const script of unwrapped.scripts) context.assess(script);
  // `echo CMD | ssh HOST`: the remote shell, on this machine for `localhost`, runs the input.
  for (const stage of unwrapped.stages) {
    const name = stage[0] === undefined ? "" : commandName(stage[0].value);
    if (name === "ssh" && sshRunsInput(stage.slice(1))) runsInput(name, context);
  }
  const program = unwrapped.words[0];
  if (program === undefined) return;
  if (isBuiltByExpansion(program)) {
    findings.add(
      Critical,
      `The program it runs ('${program.value}') is built by expansion, so it could be any command.`,
    );
    return;
  }
  const location = programLocation(program.value);
  if (location === "workspace") {
    findings.add(High, `It runs '${program.value}', a program the workspace itself ships.`);
  } else if (location === "elsewhere") {
    findings.add(
      Medium,
      `It runs '${program.value}' by a path outside the system's program directories.`,
    );
  }
  classifyProgram(unwrapped.words, context, (inner) => classifyWords(inner, context));
}

/**
 * The risk of running a shell command, from the same reader the approval patterns use
 * (`parseCommand`). Nothing is run or expanded. Every simple command is judged, wherever it
 * stands (inside `if`, `while`, `for`, `case`, groups, subshells, functions, substitutions,
 * `sh -c` / `eval` scripts, `find -exec`, here-documents fed to a shell), after looking through
 * assignments and wrappers (`env`, `sudo`, `timeout`, `xargs`, `busybox`, ...); the riskiest
 * part decides.
 *
 * - **Low**: every command is a read-only program (`ls`, `cat`, `grep`, `head`, `find` without
 *   actions, `git status|log|diff|show`, ...) with options from its allow list.
 * - **Medium**: anything not listed below; an option a read-only program's allow list does not
 *   know; substitution, redirection, expansion, a group or a comment; a `VAR=value` that is not
 *   known to be harmless; a program by a path outside the system's directories.
 * - **High**: options and variables that make a program run another (`git -c`, `--git-dir`,
 *   `git config` writes, `rg --pre`, `sort --compress-program`, `tar --to-command`, pager
 *   options, `sed` `w`/`e`/`-i`, `find -exec/-delete/-fprint`, `xargs`, `GIT_*`, `LD_*`,
 *   `*_PAGER`, `EDITOR`, `PATH`, ...); a program the workspace ships (`./x`, `bin/x`);
 *   `rm -r`, `git push --force`, `git reset --hard`, `dd`, `chmod -R`, `shred`; `sudo`/`doas`;
 *   `source`; a shell reading a script from its input; output written outside the working
 *   directory or into files that run code (`.git/`, `.bashrc`, ...); any command that does not
 *   parse.
 * - **Critical**: `rm -rf` of `/`, `~`, `$HOME`, a system directory, `.`, `*` or a path built by
 *   expansion; `mkfs*`, `fdisk`, `dd of=/dev/...`, writes to a disk device; a download piped
 *   into a shell; `shutdown`/`reboot`; and a program name built by expansion (`$X`,
 *   `rm${IFS}-rf`, `/bin/r?`), which could be any of these.
 *
 * @example
 * ```ts
 * assessCommandRisk("git status").riskLevel;                     // RiskLevel.Low
 * assessCommandRisk("if true; then rm -rf ~; fi").riskLevel;     // RiskLevel.Critical
 * assessCommandRisk("git -c core.pager=sh log").riskLevel;       // RiskLevel.High
 * ```
 */
export function assessCommandRisk(command: string): CommandRiskAssessment {
  const findings = new RiskFindings();
  assessInto(command, findings, 0);
  assessFileOperands(command, findings);
  let riskLevel: RiskLevel = RiskLevel.Low;
  for (const finding of findings.list) riskLevel = maxRiskLevel(riskLevel, finding.level);
  const reasons =
    findings.list.length === 0
      ? ["Every command in it is read-only."]
      : [...findings.list].sort((a, b) => b.level - a.level).map((f) => f.reason);
  return Object.freeze({ riskLevel, reasons: Object.freeze(reasons) });
}
