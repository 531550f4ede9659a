import { isCodeRunner } from "./classify-program.js";
import { matchCommandPattern, validateCommandPattern } from "./command-pattern.js";
import { commandName } from "./command-words.js";
import type { ShellWord } from "./shell-scanner.js";
import { lexShellCommand } from "./shell-syntax.js";
import { unwrapCommand } from "./unwrap-command.js";

/**
 * Programs whose first word is a subcommand that decides what runs (`npm test` against
 * `npm exec`): a pattern for one of them keeps its subcommand.
 */
const subcommandPrograms = new Set([
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "git",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "dotnet",
  "gh",
  "make",
  "mvn",
  "gradle",
]);

/** Programs that run the package named by their first word (`npx vitest`): kept with it. */
const packageRunners = new Set(["npx", "bunx"]);

/**
 * Subcommands whose next word names what runs (`npm run build`, `go run main.go`,
 * `docker run image`): a pattern keeps that word too, else it would approve running anything.
 */
const runningSubcommands = new Set(["run", "run-script", "exec", "x", "dlx", "start"]);

/**
 * Programs that run what their words say, beyond the wrappers `unwrapCommand` looks through:
 * `eval` and `source` run text as shell code, `find -exec` runs any command.
 */
const runsItsWords = new Set(["eval", "source", ".", "find", "trap"]);

/** A word written the same with or without quotes: no glob, expansion, quote or space. */
const plainWord = /^[A-Za-z0-9_@%+:,./-]+$/;

/**
 * A command pattern worth offering to remember for `command` (see `matchCommandPattern`), or
 * undefined when none is sure to cover only it.
 *
 * The pattern is the command exactly (`npm test -- --watch`, `ls -la src`), never with a
 * wildcard: a trailing `*` would also take options that change what a program runs or where it
 * writes (`make test --eval=...`, `npm test --script-shell=...`, `curl -o aintern.config.json`,
 * `zip -TT cmd`). None is offered when the command would run any command at all: a program that
 * runs other commands or code from its words (`sudo`, `env`, `xargs`, `sh`, `python`, `node`,
 * `npm exec`, `npx sh`), an assignment in front (`A=1 cmd`), a word that is not plain (a glob, an
 * expansion, quotes), or a subcommand program followed by an option (`git -c alias.x=... x`).
 * The pattern returned always passes `validateCommandPattern` and covers every simple command of
 * `command`. A remembered command still runs the project's files as they are at each call
 * (`npm test` runs package.json's script, which the model may edit).
 *
 * @example
 * ```ts
 * suggestCommandPattern("npm test -- --watch"); // "npm test -- --watch"
 * suggestCommandPattern("ls -la src"); // "ls -la src"
 * suggestCommandPattern("sudo rm -rf build"); // undefined
 * ```
 */
export function suggestCommandPattern(command: string): string | undefined {
  const syntax = lexShellCommand(command);
  if (!syntax.ok) return undefined;
  const words = syntax.segments[0];
  if (words === undefined) return undefined;
  const pattern = patternOf(words);
  if (pattern === undefined || validateCommandPattern(pattern) !== undefined) return undefined;
  // Every simple command of the line must match, as when the grant is used (`npm test && rm x`).
  return matchCommandPattern(pattern, command) ? pattern : undefined;
}

function patternOf(words: readonly ShellWord[]): string | undefined {
  const texts = words.map((word) => (plainWord.test(word.value) ? word.value : undefined));
  const [program, first, second] = texts;
  if (program === undefined) return undefined;
  // The command exactly: a trailing `*` would also take options that change what runs or where
  // it writes (`make test --eval=...`, `curl -o aintern.config.json`, `npm test --script-shell`).
  const exact = texts.every((text) => text !== undefined) ? texts.join(" ") : undefined;
  const name = commandName(program);
  const unwrapped = unwrapCommand(words);
  if (packageRunners.has(name)) {
    // `npx vitest run`: only the package's program may run; `npx sh -c ...` would run anything.
    const runs = unwrapped.words[0];
    if (unwrapped.stages.length !== 2 || runs === undefined || runs !== words[1]) return undefined;
    if (runsCode(commandName(runs.value)) || first === undefined) return undefined;
    return exact;
  }
  // A wrapper, an assignment or a run subcommand (`npm exec`): what really runs is elsewhere.
  if (unwrapped.stages.length > 1 || runsCode(name)) return undefined;
  if (words.length === 1 || !subcommandPrograms.has(name)) return exact;
  if (first === undefined || !/^[a-z][a-z0-9:-]*$/.test(first)) return undefined;
  if (runningSubcommands.has(first) && words.length > 2) {
    if (second === undefined || second.startsWith("-")) return undefined;
  }
  return exact;
}

function runsCode(name: string): boolean {
  return isCodeRunner(name) || runsItsWords.has(name);
}
