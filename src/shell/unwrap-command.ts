import { RiskLevel } from "../core/index.js";
import { commandName, isOption } from "./command-words.js";
import { assignmentName } from "./environment-assignments.js";
import { hidesOption, type OptionSyntax, splitsIntoWords } from "./program-options.js";
import type { RiskFinding } from "./read-only-programs.js";
import type { ShellWord } from "./shell-scanner.js";

/**
 * Looks through the programs that run the rest of their words as a command (`sudo`, `env`,
 * `timeout`, `xargs`, `busybox`, ...) to the program that really runs.
 *
 * @internal
 */

/** What {@link unwrapCommand} found. */
export interface UnwrappedCommand {
  /** The effective command: its program first. Empty for a command of assignments only. */
  readonly words: readonly ShellWord[];
  /** The variables assigned on the way (`A=1 env B=2 cmd`: A, B). */
  readonly assignments: readonly string[];
  /** Every word list met while unwrapping, the original first and `words` last. */
  readonly stages: readonly (readonly ShellWord[])[];
  /** Command lines a wrapper runs through a shell (`su -c`, `env -S`, `watch`, `flock -c`). */
  readonly scripts: readonly string[];
  /** What the wrappers add to the risk (`sudo`: elevated; `xargs`: runs a command on input). */
  readonly findings: readonly RiskFinding[];
}

interface WrapperRule {
  /** Short options (letters) and long options that take an argument. */
  readonly withArgument?: string;
  readonly longWithArgument?: readonly string[];
  /** Operands to skip after the options (`timeout DURATION`, `chrt PRIORITY`, `flock FILE`). */
  readonly operands?: number;
  /** Options whose argument is a command line run by a shell. */
  readonly scriptOptions?: readonly string[];
  readonly finding?: RiskFinding;
  /** `-` alone is an option (`env -`), not the command. */
  readonly dashIsOption?: true;
  /** The script option may come after operands (`su root -c cmd`, `flock file -c cmd`). */
  readonly scriptAnywhere?: true;
  /** The words after the operands form one command line for a shell (`watch`, `ssh`). */
  readonly joinsCommand?: true;
}

const elevated = (name: string): RiskFinding => ({
  level: RiskLevel.High,
  reason: `It runs a command with elevated privileges ('${name}').`,
});

const wrappers: ReadonlyMap<string, WrapperRule> = new Map<string, WrapperRule>([
  [
    "sudo",
    {
      withArgument: "ugUpCDhrtTR",
      longWithArgument: [
        "--user",
        "--group",
        "--other-user",
        "--prompt",
        "--close-from",
        "--chdir",
        "--host",
        "--role",
        "--type",
        "--command-timeout",
        "--chroot",
      ],
      finding: elevated("sudo"),
    },
  ],
  ["doas", { withArgument: "uC", finding: elevated("doas") }],
  ["pkexec", { longWithArgument: ["--user"], finding: elevated("pkexec") }],
  ["run0", { withArgument: "ugD", finding: elevated("run0") }],
  [
    "runuser",
    {
      scriptAnywhere: true,
      withArgument: "ugGcs",
      longWithArgument: ["--user", "--group", "--command", "--shell"],
      scriptOptions: ["-c", "--command"],
      finding: elevated("runuser"),
    },
  ],
  [
    "su",
    {
      scriptAnywhere: true,
      withArgument: "cgGsw",
      longWithArgument: ["--command", "--group", "--shell"],
      scriptOptions: ["-c", "--command"],
      finding: elevated("su"),
    },
  ],
  ["sg", { scriptAnywhere: true, withArgument: "c", operands: 1, scriptOptions: ["-c"] }],
  [
    "env",
    {
      dashIsOption: true,
      withArgument: "uCSP",
      longWithArgument: [
        "--unset",
        "--chdir",
        "--split-string",
        "--default-signal",
        "--ignore-signal",
        "--block-signal",
      ],
      scriptOptions: ["-S", "--split-string"],
    },
  ],
  ["command", {}],
  ["builtin", {}],
  ["exec", { withArgument: "a" }],
  ["nohup", {}],
  ["setsid", {}],
  ["time", { withArgument: "fo", longWithArgument: ["--format", "--output"] }],
  ["stdbuf", { withArgument: "ioe", longWithArgument: ["--input", "--output", "--error"] }],
  ["nice", { withArgument: "n", longWithArgument: ["--adjustment"] }],
  ["ionice", { withArgument: "cnpPu", longWithArgument: ["--class", "--classdata"] }],
  ["chrt", { operands: 1 }],
  ["taskset", { withArgument: "", operands: 1 }],
  ["timeout", { withArgument: "sk", longWithArgument: ["--signal", "--kill-after"], operands: 1 }],
  [
    "flock",
    {
      scriptAnywhere: true,
      withArgument: "wEc",
      longWithArgument: ["--timeout", "--conflict-exit-code", "--command"],
      operands: 1,
      scriptOptions: ["-c", "--command"],
    },
  ],
  [
    "script",
    {
      scriptAnywhere: true,
      withArgument: "cEeIOTtB",
      longWithArgument: ["--command", "--log-io", "--log-in", "--log-out", "--log-timing"],
      scriptOptions: ["-c", "--command"],
    },
  ],
  [
    "watch",
    {
      joinsCommand: true,
      withArgument: "nq",
      longWithArgument: ["--interval", "--differences", "--equexit"],
    },
  ],
  [
    "xargs",
    {
      withArgument: "aEeIiLlnPsd",
      longWithArgument: [
        "--arg-file",
        "--delimiter",
        "--eof",
        "--replace",
        "--max-lines",
        "--max-args",
        "--max-procs",
        "--max-chars",
        "--process-slot-var",
      ],
      finding: {
        level: RiskLevel.High,
        reason: "It runs a command on arguments read from its input ('xargs').",
      },
    },
  ],
  [
    "parallel",
    {
      finding: {
        level: RiskLevel.High,
        reason: "It runs commands built from its input ('parallel').",
      },
    },
  ],
  ["busybox", {}],
  ["toybox", {}],
  ["chroot", { operands: 1, finding: elevated("chroot") }],
  [
    "unshare",
    {
      withArgument: "S",
      longWithArgument: [
        "--setuid",
        "--setgid",
        "--map-user",
        "--map-group",
        "--propagation",
        "--root",
        "--wd",
      ],
    },
  ],
  [
    "nsenter",
    {
      withArgument: "tSGwr",
      longWithArgument: ["--target", "--setuid", "--setgid", "--wd", "--root"],
      finding: elevated("nsenter"),
    },
  ],
  [
    "setpriv",
    {
      longWithArgument: [
        "--reuid",
        "--regid",
        "--groups",
        "--inh-caps",
        "--ambient-caps",
        "--bounding-set",
        "--securebits",
        "--selinux-label",
        "--apparmor-profile",
      ],
    },
  ],
  [
    "strace",
    { withArgument: "eoOpPsSuUXIbE", longWithArgument: ["--output", "--trace", "--signal"] },
  ],
  ["ltrace", { withArgument: "eoOpPsSuUXIbEn" }],
  ["valgrind", {}],
  ["catchsegv", {}],
  ["unbuffer", {}],
  ["fakeroot", {}],
  ["firejail", {}],
  ["proxychains", { withArgument: "f" }],
  ["proxychains4", { withArgument: "f" }],
  ["torsocks", {}],
  ["xvfb-run", { withArgument: "nsefpa" }],
  ["dbus-run-session", {}],
  ["caffeinate", { withArgument: "tw" }],
  [
    "ssh",
    {
      joinsCommand: true,
      operands: 1,
      withArgument: "BbcDEeFIiJLlmOoPpQRSWw",
      finding: {
        level: RiskLevel.Medium,
        reason: "It runs a command on another machine ('ssh'), maybe this one.",
      },
    },
  ],
  ["gosu", { operands: 1, finding: elevated("gosu") }],
  ["su-exec", { operands: 1, finding: elevated("su-exec") }],
  ["tini", {}],
  ["dumb-init", {}],
  ["chronic", {}],
  ["nocache", {}],
  [
    "systemd-run",
    {
      withArgument: "pMEuH",
      longWithArgument: [
        "--unit",
        "--property",
        "--setenv",
        "--uid",
        "--gid",
        "--working-directory",
        "--description",
        "--slice",
        "--host",
        "--machine",
      ],
      finding: elevated("systemd-run"),
    },
  ],
  ["npx", { finding: { level: RiskLevel.Medium, reason: "It runs a package's program ('npx')." } }],
  [
    "bunx",
    { finding: { level: RiskLevel.Medium, reason: "It runs a package's program ('bunx')." } },
  ],
]);

/** `tool subcommand <command>` forms that run the rest as a command (`uv run`, `bundle exec`). */
const runSubcommands: ReadonlyMap<string, string> = new Map<string, string>([
  ["pnpm", "exec dlx"],
  ["yarn", "exec dlx"],
  ["bun", "x"],
  ["uv", "run"],
  ["poetry", "run"],
  ["pipenv", "run"],
  ["pdm", "run"],
  ["hatch", "run"],
  ["conda", "run"],
  ["bundle", "exec"],
  ["rbenv", "exec"],
  ["pyenv", "exec"],
  ["mise", "exec"],
  ["asdf", "exec"],
  ["npm", "exec"],
  ["direnv", "exec"],
]);

/**
 * Skips a wrapper's options and operands; returns the index of its command and any scripts. A
 * word that may be an option the text does not show (`nice -"$X" 5 cat x`, `timeout "$T" 5 cat
 * x`), or a value the shell may split into more words, stops the skipping there: what the
 * wrapper runs cannot be told, so that word is taken for the program, which is built by
 * expansion.
 */
function skipWrapperArguments(
  words: readonly ShellWord[],
  start: number,
  rule: WrapperRule,
  scripts: string[],
): number {
  const syntax: OptionSyntax = { short: rule.withArgument ?? "", long: rule.longWithArgument };
  const splits = (at: number) => words[at] !== undefined && splitsIntoWords(words[at]);
  let i = start;
  while (i < words.length) {
    if (hidesOption(words[i] as ShellWord, syntax)) return i;
    const word = (words[i] as ShellWord).value;
    if (word === "--") {
      i++;
      break;
    }
    // `env -` is `env -i`.
    if (!isOption(word) && !(word === "-" && rule.dashIsOption === true)) break;
    if (word.startsWith("--")) {
      const [name = word] = word.split("=", 1);
      const takes = rule.longWithArgument?.includes(name) ?? false;
      const value = word.includes("=") ? word.slice(word.indexOf("=") + 1) : words[i + 1]?.value;
      if (rule.scriptOptions?.includes(name) && value !== undefined) scripts.push(value);
      if (takes && !word.includes("=") && splits(i + 1)) return i + 1;
      i += takes && !word.includes("=") ? 2 : 1;
      continue;
    }
    // Short options: the first letter that takes an argument takes the rest of the word or the next one.
    let consumed = 1;
    for (let j = 1; j < word.length; j++) {
      const letter = word.charAt(j);
      if (rule.withArgument?.includes(letter)) {
        const attached = word.slice(j + 1);
        const value = attached !== "" ? attached : words[i + 1]?.value;
        if (rule.scriptOptions?.includes(`-${letter}`) && value !== undefined) scripts.push(value);
        if (attached === "") consumed = 2;
        if (attached === "" && splits(i + 1)) return i + 1;
        break;
      }
    }
    i += consumed;
  }
  const end = Math.min(i + (rule.operands ?? 0), words.length);
  for (let at = i; at < end; at++) if (hidesOption(words[at] as ShellWord, syntax)) return at;
  return end;
}

/**
 * Removes assignments and wrappers from the front of a simple command's words, as far as they
 * go, and returns the command that really runs.
 */
export function unwrapCommand(original: readonly ShellWord[]): UnwrappedCommand {
  const stages: (readonly ShellWord[])[] = [original];
  const assignments: string[] = [];
  const scripts: string[] = [];
  const findings: RiskFinding[] = [];
  let words = original;
  for (let round = 0; round < 64; round++) {
    let i = 0;
    while (i < words.length) {
      const name = assignmentName((words[i] as ShellWord).value);
      if (name === undefined) break;
      assignments.push(name);
      i++;
    }
    if (i > 0) {
      words = words.slice(i);
      stages.push(words);
    }
    const first = words[0];
    if (first === undefined) break;
    const name = commandName(first.value);
    const subs = runSubcommands.get(name);
    const sub = words[1]?.value;
    if (subs !== undefined && sub !== undefined && subs.split(" ").includes(sub)) {
      // `direnv exec DIR cmd`; the others take options (skipped) then the command.
      let next = 2;
      if (name === "direnv") next = 3;
      while (next < words.length && (words[next] as ShellWord).value.startsWith("-")) {
        if ((words[next] as ShellWord).value === "--") {
          next++;
          break;
        }
        next++;
      }
      findings.push({
        level: RiskLevel.Medium,
        reason: `It runs a command through '${name} ${sub}'.`,
      });
      words = words.slice(next);
      stages.push(words);
      continue;
    }
    const rule = wrappers.get(name);
    if (rule === undefined) {
      // `git -C dir --no-pager push`: deny rules also see it as `git push` (one more stage;
      // the risk rules still read the global options from `words`).
      if (name === "git") {
        const sub = gitSubcommandIndex(words);
        if (sub > 1 && sub < words.length) stages.push([first, ...words.slice(sub)]);
      }
      break;
    }
    if (rule.finding !== undefined) findings.push(rule.finding);
    if (name === "command" && words.slice(1).some((w) => /^-[a-zA-Z]*[vV]/.test(w.value))) break;
    const found: string[] = [];
    let next = skipWrapperArguments(words, 1, rule, found);
    scripts.push(...found);
    if (rule.scriptAnywhere === true) {
      // `su root -c 'cmd'`, `flock file -c 'cmd'`: the script option may follow operands.
      for (let k = next; k < words.length; k++) {
        const value = (words[k] as ShellWord).value;
        if (value === "-c" || value === "--command") {
          const script = words[k + 1]?.value;
          if (script !== undefined) scripts.push(script);
          next = words.length;
          break;
        }
        if (value.startsWith("--command=")) {
          scripts.push(value.slice("--command=".length));
          next = words.length;
          break;
        }
      }
    }
    if (rule.joinsCommand === true && next < words.length) {
      // watch and ssh join their words into one command line for a shell.
      scripts.push(
        words
          .slice(next)
          .map((w) => w.value)
          .join(" "),
      );
      next = words.length;
    }
    if (name === "parallel") {
      const separator = words.findIndex((w) => w.value === ":::" || w.value === "::::");
      if (separator !== -1) words = words.slice(0, separator);
    }
    if (found.length > 0 && (name === "env" || name === "sg" || name === "flock")) {
      // `env -S 'rm -rf' ~`: the split string and the words after it form the command.
      const rest = words.slice(next).map((w) => w.value);
      scripts.splice(scripts.length - found.length, found.length, [...found, ...rest].join(" "));
      next = words.length;
    }
    words = words.slice(next);
    stages.push(words);
    if (words.length === 0 && (name === "xargs" || name === "sudo" || name === "doas")) {
      // `xargs` alone runs `echo`; a bare `sudo -s` runs a shell.
      break;
    }
  }
  return { words, assignments, stages, scripts, findings };
}

/** git's global options that take the next word as their value. */
const gitGlobalWithValue = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
  "--exec-path",
  "--list-cmds",
]);

/** The index of git's subcommand: the first word after the global options. */
function gitSubcommandIndex(words: readonly ShellWord[]): number {
  let i = 1;
  while (i < words.length) {
    const value = (words[i] as ShellWord).value;
    if (!value.startsWith("-")) break;
    i += gitGlobalWithValue.has(value) ? 2 : 1;
  }
  return i;
}
