import { RiskLevel } from "../core/index.js";
import { commandName } from "./command-words.js";
import { assignmentName } from "./environment-assignments.js";
import { hidesOption, type OptionSyntax, readOptions, splitsIntoWords } from "./program-options.js";
import type { RiskFinding } from "./read-only-programs.js";
import { shellInput } from "./shell-invocation.js";
import type { ShellWord } from "./shell-scanner.js";
import { sliceWord } from "./shell-word.js";
import { tmuxScripts } from "./tmux-commands.js";

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
  /** Why something a program runs cannot be read as a command line (`tmux send-keys`). */
  readonly unread: readonly string[];
}

interface WrapperRule {
  /**
   * Short options (letters) and long options that take an argument. A long option is also
   * written as any prefix getopt_long takes (`--sig` for `--signal`); an option whose argument
   * is optional (`env --default-signal[=SIG]`) takes it only after `=` and is not listed.
   */
  readonly withArgument?: string;
  readonly longWithArgument?: readonly string[];
  /** Operands to skip after the options (`timeout DURATION`, `chrt PRIORITY`, `flock FILE`). */
  readonly operands?: number;
  /** Operands to skip before the options (`setarch ARCH [options] cmd`). */
  readonly leadingOperands?: number;
  /** One operand comes first unless an option was given (`runcon CONTEXT cmd`). */
  readonly contextUnlessOptions?: true;
  /** Options whose argument is a command line run by a shell. */
  readonly scriptOptions?: readonly string[];
  readonly finding?: RiskFinding;
  /** `-` alone is an option (`env -`), not the command. */
  readonly dashIsOption?: true;
  /** The script option may come after operands (`su root -c cmd`, `flock file -c cmd`). */
  readonly scriptAnywhere?: true;
  /**
   * Its options may come after operands, as getopt_long reads them (`su root --command=cmd`):
   * script options are looked for there by their getopt syntax, not only as `-c`/`--command`.
   */
  readonly permutes?: true;
  /** The words after the operands form one command line for a shell (`watch`, `ssh`). */
  readonly joinsCommand?: true;
  /**
   * Options are read again after its operands, up to the next operand or `--`, unless `--` came
   * before them: OpenSSH's `ssh HOST -T -- cmd` (its command is `cmd`).
   */
  readonly optionsAfterOperands?: true;
  /**
   * Short options whose value is optional, so attached only (nsenter's `-n/proc/1/ns/net`): in
   * a group, one takes the rest of the word.
   */
  readonly optionalAttached?: string;
}

const elevated = (name: string): RiskFinding => ({
  level: RiskLevel.High,
  reason: `It runs a command with elevated privileges ('${name}').`,
});

const wrappers: ReadonlyMap<string, WrapperRule> = new Map<string, WrapperRule>([
  [
    "sudo",
    {
      withArgument: "ugUpCDhrtTRc",
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
  [
    "run0",
    {
      withArgument: "ugD",
      longWithArgument: [
        "--user",
        "--group",
        "--chdir",
        "--nice",
        "--setenv",
        "--unit",
        "--property",
        "--description",
        "--slice",
        "--machine",
        "--background",
      ],
      finding: elevated("run0"),
    },
  ],
  [
    "runuser",
    {
      scriptAnywhere: true,
      permutes: true,
      withArgument: "ugGcsw",
      longWithArgument: [
        "--user",
        "--group",
        "--supp-group",
        "--command",
        "--session-command",
        "--shell",
        "--whitelist-environment",
      ],
      scriptOptions: ["-c", "--command", "--session-command"],
      finding: elevated("runuser"),
    },
  ],
  [
    "su",
    {
      scriptAnywhere: true,
      permutes: true,
      withArgument: "cgGsw",
      longWithArgument: [
        "--command",
        "--session-command",
        "--group",
        "--supp-group",
        "--shell",
        "--whitelist-environment",
      ],
      scriptOptions: ["-c", "--command", "--session-command"],
      finding: elevated("su"),
    },
  ],
  ["sg", { scriptAnywhere: true, withArgument: "c", operands: 1, scriptOptions: ["-c"] }],
  [
    "env",
    {
      dashIsOption: true,
      withArgument: "uCSP",
      longWithArgument: ["--unset", "--chdir", "--split-string"],
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
  [
    "ionice",
    {
      withArgument: "cnpPu",
      longWithArgument: ["--class", "--classdata", "--pid", "--pgid", "--uid"],
    },
  ],
  [
    "chrt",
    {
      withArgument: "TPD",
      longWithArgument: ["--sched-runtime", "--sched-period", "--sched-deadline"],
      operands: 1,
    },
  ],
  ["taskset", { withArgument: "", operands: 1 }],
  ["timeout", { withArgument: "sk", longWithArgument: ["--signal", "--kill-after"], operands: 1 }],
  [
    "flock",
    {
      scriptAnywhere: true,
      withArgument: "wEc",
      longWithArgument: ["--timeout", "--wait", "--conflict-exit-code", "--command"],
      operands: 1,
      scriptOptions: ["-c", "--command"],
    },
  ],
  [
    "script",
    {
      scriptAnywhere: true,
      permutes: true,
      withArgument: "cEIOTBmo",
      longWithArgument: [
        "--command",
        "--echo",
        "--log-io",
        "--log-in",
        "--log-out",
        "--log-timing",
        "--logging-format",
        "--output-limit",
      ],
      scriptOptions: ["-c", "--command"],
    },
  ],
  [
    "watch",
    {
      joinsCommand: true,
      withArgument: "nq",
      longWithArgument: ["--interval", "--equexit"],
    },
  ],
  [
    "xargs",
    {
      withArgument: "aEILnPsd",
      longWithArgument: [
        "--arg-file",
        "--delimiter",
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
      withArgument: "SGRwl",
      longWithArgument: [
        "--setgroups",
        "--monotonic",
        "--boottime",
        "--load-interp",
        "--setuid",
        "--setgid",
        "--map-user",
        "--map-group",
        "--map-users",
        "--map-groups",
        "--propagation",
        "--root",
        "--wd",
      ],
    },
  ],
  [
    "nsenter",
    {
      withArgument: "tSG",
      optionalAttached: "muinpUCTrwW",
      longWithArgument: ["--target", "--setuid", "--setgid"],
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
    {
      withArgument: "aeoOpPsSuUXIbE",
      longWithArgument: [
        "--output",
        "--trace",
        "--signal",
        "--attach",
        "--trace-path",
        "--string-limit",
        "--user",
        "--env",
        "--columns",
        "--summary-sort-by",
        "--summary-columns",
        "--abbrev",
        "--verbose",
        "--raw",
        "--read",
        "--write",
        "--inject",
        "--fault",
        "--status",
        "--trace-fds",
        "--argv0",
      ],
    },
  ],
  [
    "ltrace",
    {
      withArgument: "aADeFlnopsuwx",
      longWithArgument: ["--align", "--config", "--indent", "--library", "--output"],
    },
  ],
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
      optionsAfterOperands: true,
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
        "--nice",
        "--service-type",
        "--on-calendar",
        "--on-active",
        "--path-property",
        "--socket-property",
        "--timer-property",
      ],
      finding: elevated("systemd-run"),
    },
  ],
  [
    "prlimit",
    // The limits (`--nofile=100`, `-n100`) take their values attached only.
    {
      withArgument: "po",
      longWithArgument: ["--pid", "--output"],
      finding: { level: RiskLevel.Medium, reason: "It sets resource limits ('prlimit')." },
    },
  ],
  ["setarch", { leadingOperands: 1 }],
  ...["linux32", "linux64", "i386", "x86_64", "uname26"].map((name): [string, WrapperRule] => [
    name,
    {},
  ]),
  ["logsave", { operands: 1 }],
  [
    "runcon",
    {
      contextUnlessOptions: true,
      withArgument: "rtul",
      longWithArgument: ["--role", "--type", "--user", "--range"],
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

/** How `rule` writes its options, for {@link readOptions}. */
function optionSyntax(rule: WrapperRule): OptionSyntax {
  return { short: rule.withArgument ?? "", long: rule.longWithArgument };
}

/**
 * Skips a wrapper's options and operands; returns the index of its command and any scripts.
 * Options are read as getopt_long reads them up to the first operand (the wrappers stop there:
 * what follows is the command's), long ones also by a prefix (`--sig` for `--signal`). A word
 * that may be an option the text does not show (`nice -"$X" 5 cat x`, `timeout "$T" 5 cat x`),
 * or a value the shell may split into more words, stops the skipping there: what the wrapper
 * runs cannot be told, so that word is taken for the program, which is built by expansion.
 */
function skipWrapperArguments(
  words: readonly ShellWord[],
  start: number,
  rule: WrapperRule,
  scripts: string[],
): number {
  const syntax = optionSyntax(rule);
  let from = start;
  const leading = Math.min(from + (rule.leadingOperands ?? 0), words.length);
  for (; from < leading && !(words[from] as ShellWord).value.startsWith("-"); from++) {
    if (hidesOption(words[from] as ShellWord, syntax)) return from;
  }
  const args = words.slice(from).map((word) => optionalValueCut(word, rule));
  let i = words.length;
  for (const item of readOptions(args, syntax)) {
    if (item.kind === "built") return from + item.at;
    if (item.kind === "operand") {
      // `env -` is `env -i`; after `--` it is the command.
      const dashed = args[item.at - 1]?.value === "--";
      if (item.word.value === "-" && rule.dashIsOption === true && !dashed) continue;
      i = from + item.at;
      break;
    }
    if (item.kind !== "option") continue;
    if (rule.scriptOptions?.includes(item.name) && item.value !== undefined) {
      scripts.push(item.value.value);
    }
  }
  // runcon's options (`-c` too, which takes no value) each replace its CONTEXT operand.
  const optioned = args
    .slice(0, i - from)
    .some((w) => w.value.startsWith("-") && w.value !== "-" && w.value !== "--");
  const context = rule.contextUnlessOptions === true && !optioned ? 1 : 0;
  const operands = (rule.operands ?? 0) + context;
  const end = Math.min(i + operands, words.length);
  for (let at = i; at < end; at++) if (hidesOption(words[at] as ShellWord, syntax)) return at;
  const terminated = (words[i - 1] as ShellWord | undefined)?.value === "--";
  if (rule.optionsAfterOperands !== true || terminated || end >= words.length) return end;
  for (const item of readOptions(words.slice(end), { ...syntax, pastDoubleDash: undefined })) {
    if (item.kind === "built" || item.kind === "operand") return end + item.at;
  }
  return words.length;
}

/**
 * `word` cut after the first of `rule`'s short options whose value is optional (`-n/proc/x` is
 * `-n`, its value attached): the rest of the group is that value, not more options. A word the
 * shell may split into several (`-n$X`) is kept whole: the words after the split are the
 * wrapper's command, which the text does not show, and the walk must see that.
 */
function optionalValueCut(word: ShellWord, rule: WrapperRule): ShellWord {
  const letters = rule.optionalAttached;
  const v = word.value;
  if (letters === undefined || !/^-[^-]/.test(v) || splitsIntoWords(word)) return word;
  for (let j = 1; j < v.length; j++) {
    const letter = v.charAt(j);
    if ((rule.withArgument ?? "").includes(letter)) return word;
    if (letters.includes(letter)) return sliceWord(word, 0, j + 1);
  }
  return word;
}

/**
 * The scripts of a wrapper's script option written after its operands: as getopt_long permutes
 * them (`su root --session-command=cmd`), else as `-c` / `--command` literally (`flock FILE -c
 * cmd`, `sg GROUP -c cmd`, `su root -- -c cmd`).
 */
function trailingScripts(words: readonly ShellWord[], rule: WrapperRule): string[] {
  const scripts: string[] = [];
  if (rule.permutes === true) {
    for (const item of readOptions(words, optionSyntax(rule))) {
      if (item.kind !== "option" || !rule.scriptOptions?.includes(item.name)) continue;
      if (item.value !== undefined) scripts.push(item.value.value);
    }
    if (scripts.length > 0) return scripts;
  }
  // Also after `--`: su hands the words after the user to the shell (`su root -- -ec cmd`),
  // which reads them as its options.
  const dashes = words.findIndex((w) => w.value === "--");
  if (rule.permutes === true && dashes !== -1) {
    const input = shellInput(words.slice(dashes + 1));
    if (input.kind === "command" && input.script !== undefined) return [input.script.value];
  }
  for (let k = 0; k < words.length; k++) {
    const value = (words[k] as ShellWord).value;
    // `-c`, or last in a group of flags (`flock FILE -oc cmd`).
    if (/^-[a-zA-Z]*c$/.test(value) || value === "--command") {
      const script = words[k + 1]?.value;
      if (script !== undefined) scripts.push(script);
      break;
    }
    if (value.startsWith("--command=")) {
      scripts.push(value.slice("--command=".length));
      break;
    }
  }
  return scripts;
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
  const unread: string[] = [];
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
    if (name === "start-stop-daemon") {
      const started = startStopDaemonCommand(words);
      if (started === undefined) break;
      findings.push({
        level: RiskLevel.Medium,
        reason: "It starts a daemon ('start-stop-daemon').",
      });
      words = started;
      stages.push(words);
      continue;
    }
    const rule = wrappers.get(name);
    if (rule === undefined) {
      if (name === "tmux") {
        const found = tmuxScripts(words.slice(1));
        scripts.push(...found.scripts);
        if (found.unread !== undefined) unread.push(found.unread);
      }
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
      const trailing = trailingScripts(words.slice(next), rule);
      if (trailing.length > 0) {
        scripts.push(...trailing);
        next = words.length;
      }
    }
    const joins = rule.joinsCommand === true && !(name === "watch" && watchExecs(words, next));
    if (joins && next < words.length) {
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
      // `env -S 'rm -rf' ~`: the split string and the words after it form the command; env's
      // string is split into env's own arguments (`env -S'-i git status'` is `env -i git status`).
      const rest = words.slice(next).map((w) => w.value);
      const line = [...found, ...rest].join(" ");
      scripts.splice(
        scripts.length - found.length,
        found.length,
        name === "env" ? `env ${line}` : line,
      );
      next = words.length;
    }
    words = words.slice(next);
    stages.push(words);
    if (words.length === 0 && (name === "xargs" || name === "sudo" || name === "doas")) {
      // `xargs` alone runs `echo`; a bare `sudo -s` runs a shell.
      break;
    }
  }
  return { words, assignments, stages, scripts, findings, unread };
}

/**
 * Whether watch's options (`words` up to `end`) include `-x` / `--exec` (any prefix from
 * `--ex`, alone or in a group): watch then runs its words as they are, not joined into a line.
 */
function watchExecs(words: readonly ShellWord[], end: number): boolean {
  for (let i = 1; i < end; i++) {
    const v = (words[i] as ShellWord).value;
    if (v.startsWith("--")) {
      if (v.length >= 4 && "--exec".startsWith(v)) return true;
      continue;
    }
    if (!v.startsWith("-")) continue;
    for (const letter of v.slice(1)) {
      if (letter === "x") return true;
      if (letter === "n" || letter === "q") break;
    }
  }
  return false;
}

/**
 * How a wrapper of {@link unwrapCommand} writes its options (start-stop-daemon's too), or
 * undefined for a program that is none.
 *
 * @internal
 */
export function wrapperOptionSyntax(name: string): OptionSyntax | undefined {
  if (name === "start-stop-daemon") return startStopSyntax;
  const rule = wrappers.get(name);
  return rule === undefined ? undefined : optionSyntax(rule);
}

/** start-stop-daemon's options that take a value. */
const startStopSyntax: OptionSyntax = {
  short: "xpnugrsRaNPIkcdO",
  // `--start` is not a prefix of `--startas`.
  flags: ["--start", "--stop", "--status"],
  long: [
    "--exec",
    "--pidfile",
    "--name",
    "--user",
    "--group",
    "--chroot",
    "--signal",
    "--retry",
    "--startas",
    "--nicelevel",
    "--procsched",
    "--iosched",
    "--umask",
    "--chuid",
    "--chdir",
    "--output",
    "--notify-timeout",
    "--ppid",
  ],
};

/**
 * The command `start-stop-daemon` runs: its `--startas` program, else its `--exec` one, with
 * its operands as arguments (those after `--`, and any getopt_long moves there). Undefined when it names none; a word whose option the text
 * does not show is taken for the program (built by expansion).
 */
function startStopDaemonCommand(words: readonly ShellWord[]): ShellWord[] | undefined {
  let exec: ShellWord | undefined;
  let startAs: ShellWord | undefined;
  const operands: ShellWord[] = [];
  for (const item of readOptions(words.slice(1), startStopSyntax)) {
    if (item.kind === "built") return [item.word];
    if (item.kind === "operand") operands.push(item.word);
    if (item.kind !== "option" || item.value === undefined) continue;
    if (item.name === "-x" || item.name === "--exec") exec = item.value;
    if (item.name === "-a" || item.name === "--startas") startAs = item.value;
  }
  const program = startAs ?? exec;
  if (program === undefined) return undefined;
  return [program, ...operands];
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
