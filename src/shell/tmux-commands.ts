/**
 * The shell command lines a `tmux` command line runs: `tmux -c CMD`, and the shell-command of
 * `new-session`, `new-window`, `split-window`, `respawn-pane`, `respawn-window`, `run-shell`,
 * `display-popup`, `pipe-pane` and `if-shell`; and whether it types keys into a pane's shell
 * (`send-keys`), which cannot be read as a command line.
 *
 * @internal
 */

import { quoteWords } from "./command-words.js";
import { hidesOption, readOptions } from "./program-options.js";
import type { ShellWord } from "./shell-scanner.js";

interface TmuxCommand {
  /** Its flags that take a value. */
  readonly withArgument: string;
  /** The flag naming the directory its command starts in. */
  readonly directory?: string;
  /** Its first operand is a shell command and the others tmux commands (`if-shell`). */
  readonly condition?: true;
}

const startsIn = (withArgument: string, directory = "c"): TmuxCommand => ({
  withArgument,
  directory,
});

/** The tmux commands that run a shell command, by name and alias. */
const tmuxCommands: ReadonlyMap<string, TmuxCommand> = new Map([
  ["new-session", startsIn("cefFnstxy")],
  ["new", startsIn("cefFnstxy")],
  ["new-window", startsIn("ceFnt")],
  ["neww", startsIn("ceFnt")],
  ["split-window", startsIn("celtFp")],
  ["splitw", startsIn("celtFp")],
  ["respawn-pane", startsIn("cet")],
  ["respawnp", startsIn("cet")],
  ["respawn-window", startsIn("cet")],
  ["respawnw", startsIn("cet")],
  ["run-shell", startsIn("cdt")],
  ["run", startsIn("cdt")],
  ["display-popup", startsIn("bcdehsStTwxy", "d")],
  ["popup", startsIn("bcdehsStTwxy", "d")],
  ["pipe-pane", { withArgument: "t" }],
  ["pipep", { withArgument: "t" }],
  ["if-shell", { withArgument: "t", condition: true }],
  ["if", { withArgument: "t", condition: true }],
]);

/**
 * The tmux command `name` stands for: a name or alias, or a prefix of one (tmux takes a unique
 * prefix; one that names several is refused by tmux, and read here as the first).
 */
function tmuxCommand(name: string): TmuxCommand | undefined {
  const exact = tmuxCommands.get(name);
  if (exact !== undefined || name === "" || otherAliases.has(name)) return exact;
  for (const [full, command] of tmuxCommands) if (full.startsWith(name)) return command;
  return undefined;
}

/** Aliases of other tmux commands that are prefixes of those above. */
const otherAliases = new Set(["display"]);

/** tmux's own options that take a value (`-c` is a shell command it runs). */
const globalSyntax = { short: "cfLST" };

/** What {@link tmuxScripts} found. */
export interface TmuxScripts {
  /** Command lines tmux runs through a shell. */
  readonly scripts: readonly string[];
  /** Why what it runs cannot all be read (keys typed into a pane), if so. */
  readonly unread?: string;
}

/** tmux commands that type keys into a pane, where its shell runs them. */
const keyCommands = new Set(["send-keys", "send"]);

/**
 * The command lines `tmux ARGS` runs through a shell, as text to read. A command that starts in
 * a folder (`-c DIR`) is read after a `cd` there. A command name built by expansion has all its
 * words read as one command line.
 */
export function tmuxScripts(args: readonly ShellWord[]): TmuxScripts {
  const scripts: string[] = [];
  let rest = args.length;
  for (const item of readOptions(args, globalSyntax)) {
    if (item.kind === "built" || item.kind === "operand") {
      rest = item.at;
      break;
    }
    if (item.kind === "option" && item.name === "-c" && item.value !== undefined) {
      scripts.push(item.value.value);
    }
  }
  // Commands are separated by `;` (written `\;` or `';'`), also at the end of a word.
  let command: ShellWord[] = [];
  const commands: ShellWord[][] = [command];
  for (const word of args.slice(rest)) {
    if (word.value.endsWith(";") && !word.dynamic) {
      if (word.value !== ";") command.push({ ...word, value: word.value.slice(0, -1) });
      command = [];
      commands.push(command);
    } else command.push(word);
  }
  for (const words of commands) scripts.push(...commandScripts(words));
  const typed = commands.some(
    (words) => words.length > 1 && keyCommands.has(words[0]?.value ?? ""),
  );
  if (typed) return { scripts, unread: "'tmux send-keys' types keys into a pane's shell" };
  return { scripts };
}

function commandScripts(words: readonly ShellWord[]): string[] {
  const name = words[0];
  if (name === undefined) return [];
  const all = () => [words.map((w) => w.value).join(" ")];
  if (hidesOption(name, {})) return all();
  const command = tmuxCommand(name.value);
  if (command === undefined) return [];
  let directory: ShellWord | undefined;
  const operands: ShellWord[] = [];
  for (const item of readOptions(words.slice(1), { short: command.withArgument })) {
    if (item.kind === "built") return all();
    if (item.kind === "operand") operands.push(item.word);
    if (item.kind !== "option" || item.name !== `-${command.directory}`) continue;
    directory = item.value;
  }
  if (operands.length === 0) return [];
  const values = operands.map((w) => w.value);
  // A folder built by expansion stays an expansion (`cd $D`): where it leads is not known.
  const folder = (word: ShellWord) => (word.dynamic ? word.value : quoteWords([word.value]));
  const inFolder = (script: string) =>
    directory === undefined ? script : `cd ${folder(directory)} && ${script}`;
  if (command.condition === true) {
    // `if-shell COND 'tmux command' ['tmux command']`: the others are tmux commands.
    const [condition = "", ...then] = values;
    return [condition, ...then.map((text) => `tmux ${text}`)];
  }
  return [inFolder(values.join(" "))];
}
