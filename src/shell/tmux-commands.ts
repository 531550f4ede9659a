/**
 * What a `tmux` command line runs, read failing closed. tmux has about ninety commands; the
 * ones read are those that run a shell command (`tmux -c CMD`, `new-session`, `new-window`,
 * `split-window`, `respawn-pane`, `respawn-window`, `run-shell`, `display-popup`, `pipe-pane`,
 * `if-shell`), whose shell command is read as a script, and a list of commands that run nothing
 * and touch no file (`ls`, `attach`, `kill-session`, `display-message`, `capture-pane`, ...).
 * Anything else cannot be read and makes the call ask: any other command (`send-keys`,
 * `paste-buffer`, `source-file`, `load-buffer`, `save-buffer`, `set-option`, `set-hook`,
 * `bind-key`, `command-prompt`, `confirm-before`, `display-menu`, ...), `run-shell -C`,
 * `pipe-pane -I`, `detach-client -E`, `tmux -f FILE`, a `-e VAR=value` for the command's
 * environment, a value with `#(` (a format that runs a shell command), a value built by
 * expansion outside a shell command, and a command name that is not a tmux command or an
 * ambiguous prefix of several.
 *
 * @internal
 */

import { quoteWords } from "./command-words.js";
import { hidesOption, readOptions, restOfWord } from "./program-options.js";
import type { ShellWord } from "./shell-scanner.js";
import { sliceWord } from "./shell-word.js";

interface ShellCommand {
  /** Its flags that take a value. */
  readonly withArgument: string;
  /** The flag naming the directory its command starts in. */
  readonly directory?: string;
  /** Its first operand is a shell command and the others tmux commands (`if-shell`). */
  readonly condition?: true;
  /** Its flag that makes its operand a tmux command, not a shell command (`run-shell -C`). */
  readonly tmuxCommand?: string;
  /** Its flag that types the command's output into the pane (`pipe-pane -I`). */
  readonly typesOutput?: string;
}

const startsIn = (withArgument: string, directory = "c"): ShellCommand => ({
  withArgument,
  directory,
});

/** The tmux commands that run a shell command, by full name. */
const shellCommands: ReadonlyMap<string, ShellCommand> = new Map([
  ["new-session", startsIn("cefFnstxy")],
  ["new-window", startsIn("ceFnt")],
  ["split-window", startsIn("celtFp")],
  ["respawn-pane", startsIn("cet")],
  ["respawn-window", startsIn("cet")],
  ["run-shell", { ...startsIn("cdt"), tmuxCommand: "C" }],
  ["display-popup", startsIn("bcdehsStTwxy", "d")],
  ["pipe-pane", { withArgument: "t", typesOutput: "I" }],
  ["if-shell", { withArgument: "t", condition: true }],
]);

/** tmux commands that run nothing and touch no file; their values are names, targets, formats. */
const quietCommands = new Set([
  "attach-session",
  "break-pane",
  "capture-pane",
  "clear-history",
  "delete-buffer",
  "detach-client",
  "display-message",
  "has-session",
  "join-pane",
  "kill-pane",
  "kill-server",
  "kill-session",
  "kill-window",
  "last-pane",
  "last-window",
  "link-window",
  "list-buffers",
  "list-clients",
  "list-commands",
  "list-keys",
  "list-panes",
  "list-sessions",
  "list-windows",
  "move-pane",
  "move-window",
  "next-layout",
  "next-window",
  "previous-layout",
  "previous-window",
  "refresh-client",
  "rename-session",
  "rename-window",
  "resize-pane",
  "resize-window",
  "rotate-window",
  "select-layout",
  "select-pane",
  "select-window",
  "show-buffer",
  "show-environment",
  "show-hooks",
  "show-messages",
  "show-options",
  "show-window-options",
  "start-server",
  "swap-pane",
  "swap-window",
  "switch-client",
  "unlink-window",
  "wait-for",
]);

/** Quiet commands with an option that runs a shell command (`detach-client -E CMD`). */
const quietButFor: ReadonlyMap<string, { withArgument: string; runs: string }> = new Map([
  ["detach-client", { withArgument: "Est", runs: "E" }],
]);

/** Every tmux command (3.4) by full name, with its alias: a name resolves among all of them. */
const allCommands: ReadonlyMap<string, string | undefined> = new Map([
  ["attach-session", "attach"],
  ["bind-key", "bind"],
  ["break-pane", "breakp"],
  ["capture-pane", "capturep"],
  ["choose-buffer", undefined],
  ["choose-client", undefined],
  ["choose-tree", undefined],
  ["clear-history", "clearhist"],
  ["clear-prompt-history", "clearphist"],
  ["clock-mode", undefined],
  ["command-prompt", undefined],
  ["confirm-before", "confirm"],
  ["copy-mode", undefined],
  ["customize-mode", undefined],
  ["delete-buffer", "deleteb"],
  ["detach-client", "detach"],
  ["display-menu", "menu"],
  ["display-message", "display"],
  ["display-popup", "popup"],
  ["display-panes", "displayp"],
  ["find-window", "findw"],
  ["has-session", "has"],
  ["if-shell", "if"],
  ["join-pane", "joinp"],
  ["kill-pane", "killp"],
  ["kill-server", undefined],
  ["kill-session", undefined],
  ["kill-window", "killw"],
  ["last-pane", "lastp"],
  ["last-window", "last"],
  ["link-window", "linkw"],
  ["list-buffers", "lsb"],
  ["list-clients", "lsc"],
  ["list-commands", "lscm"],
  ["list-keys", "lsk"],
  ["list-panes", "lsp"],
  ["list-sessions", "ls"],
  ["list-windows", "lsw"],
  ["load-buffer", "loadb"],
  ["lock-client", "lockc"],
  ["lock-server", "lock"],
  ["lock-session", "locks"],
  ["move-pane", "movep"],
  ["move-window", "movew"],
  ["new-session", "new"],
  ["new-window", "neww"],
  ["next-layout", "nextl"],
  ["next-window", "next"],
  ["paste-buffer", "pasteb"],
  ["pipe-pane", "pipep"],
  ["previous-layout", "prevl"],
  ["previous-window", "prev"],
  ["refresh-client", "refresh"],
  ["rename-session", "rename"],
  ["rename-window", "renamew"],
  ["resize-pane", "resizep"],
  ["resize-window", "resizew"],
  ["respawn-pane", "respawnp"],
  ["respawn-window", "respawnw"],
  ["rotate-window", "rotatew"],
  ["run-shell", "run"],
  ["save-buffer", "saveb"],
  ["select-layout", "selectl"],
  ["select-pane", "selectp"],
  ["select-window", "selectw"],
  ["send-keys", "send"],
  ["send-prefix", undefined],
  ["server-access", undefined],
  ["set-buffer", "setb"],
  ["set-environment", "setenv"],
  ["set-hook", undefined],
  ["set-option", "set"],
  ["set-window-option", "setw"],
  ["show-buffer", "showb"],
  ["show-environment", "showenv"],
  ["show-hooks", undefined],
  ["show-messages", "showmsgs"],
  ["show-options", "show"],
  ["show-prompt-history", "showphist"],
  ["show-window-options", "showw"],
  ["source-file", "source"],
  ["split-window", "splitw"],
  ["start-server", "start"],
  ["suspend-client", "suspendc"],
  ["swap-pane", "swapp"],
  ["swap-window", "swapw"],
  ["switch-client", "switchc"],
  ["unbind-key", "unbind"],
  ["unlink-window", "unlinkw"],
  ["wait-for", "wait"],
]);

/** tmux's default `command-alias` entries that name one of the commands read here. */
const defaultAliases: ReadonlyMap<string, string> = new Map([
  ["split-pane", "split-window"],
  ["splitp", "split-window"],
]);

/**
 * The full name of the tmux command `name` stands for, as tmux finds it: a default command
 * alias, an alias, a full name, or a prefix of exactly one full name (a prefix of several is
 * refused by tmux, and undefined here).
 */
function tmuxCommandName(name: string): string | undefined {
  const aliased = defaultAliases.get(name);
  if (aliased !== undefined) return aliased;
  if (name === "") return undefined;
  for (const [full, alias] of allCommands) if (alias === name || full === name) return full;
  const matches = [...allCommands.keys()].filter((full) => full.startsWith(name));
  return matches.length === 1 ? matches[0] : undefined;
}

/** tmux's own options that take a value (`-c` is a shell command it runs). */
const globalSyntax = { short: "cfLST" };

/** What {@link tmuxScripts} found. */
export interface TmuxScripts {
  /** Command lines tmux runs through a shell. */
  readonly scripts: readonly string[];
  /** Why what it runs cannot all be read, if so. */
  readonly unread?: string;
}

/** A word whose text tmux may expand as a format that runs a shell command (`#(cmd)`). */
const runsFormat = (word: ShellWord) => word.value.includes("#(") || word.dynamic;

/** Why {@link runsFormat}: a `#(` written, or a value built by expansion that may hold one. */
const formatReason = (full: string, word: ShellWord) =>
  word.value.includes("#(")
    ? `a value of 'tmux ${full}' runs a shell command ('#(')`
    : `a value of 'tmux ${full}' is built by expansion (tmux expands '#(' in it)`;

/** Thrown (and caught in {@link tmuxScripts}) when a command cannot be read. */
class Unread {
  constructor(readonly reason: string) {}
}

/**
 * The command lines `tmux ARGS` runs through a shell, as text to read, or why they cannot all be
 * read. A command that starts in a folder (`-c DIR`) is read after a `cd` there.
 */
export function tmuxScripts(args: readonly ShellWord[]): TmuxScripts {
  try {
    return { scripts: readTmux(args) };
  } catch (error) {
    if (error instanceof Unread) return { scripts: [], unread: error.reason };
    throw error;
  }
}

function readTmux(args: readonly ShellWord[]): string[] {
  const scripts: string[] = [];
  let rest = args.length;
  for (const item of readOptions(args, globalSyntax)) {
    if (item.kind === "built") throw new Unread("a 'tmux' option is built by expansion");
    if (item.kind === "operand") {
      rest = item.at;
      break;
    }
    if (item.kind !== "option") continue;
    if (item.name === "-f") throw new Unread("'tmux -f' runs the tmux commands of a file");
    if (item.name === "-c" && item.value !== undefined) scripts.push(item.value.value);
  }
  // Commands are separated by `;` (written `\;` or `';'`), also at the end of a word; a word
  // ending in `\;` ends in a literal `;`.
  let command: ShellWord[] = [];
  const commands: ShellWord[][] = [command];
  for (const word of args.slice(rest)) {
    if (word.value.endsWith("\\;") && !word.dynamic) {
      command.push({ ...sliceWord(word, 0, -1), value: `${word.value.slice(0, -2)};` });
    } else if (word.value.endsWith(";") && !word.dynamic) {
      if (word.value !== ";") command.push(sliceWord(word, 0, -1));
      command = [];
      commands.push(command);
    } else command.push(word);
  }
  for (const words of commands) scripts.push(...commandScripts(words));
  return scripts;
}

/**
 * A tmux command's arguments as tmux reads them: flags (`-dP`) and options with a value (`-t x`,
 * `-tx`) up to the first word that is not one, or `--`; the rest are operands.
 */
function tmuxArguments(words: readonly ShellWord[], withArgument: string, full: string) {
  const options: [string, ShellWord][] = [];
  const flags = new Set<string>();
  let at = 0;
  for (; at < words.length; at++) {
    const word = words[at] as ShellWord;
    if (hidesOption(word, {})) {
      throw new Unread(`an option of 'tmux ${full}' is built by expansion`);
    }
    const v = word.value;
    if (!v.startsWith("-") || v === "-") break;
    if (v === "--") {
      at++;
      break;
    }
    for (let j = 1; j < v.length; j++) {
      const letter = v.charAt(j);
      if (!withArgument.includes(letter)) {
        flags.add(letter);
        continue;
      }
      const value = j < v.length - 1 ? restOfWord(word, j + 1) : words[++at];
      if (value === undefined) throw new Unread(`'tmux ${full} -${letter}' has no value`);
      options.push([letter, value]);
      break;
    }
  }
  return { options, flags, operands: words.slice(at) };
}

function commandScripts(words: readonly ShellWord[]): string[] {
  const name = words[0];
  if (name === undefined) return [];
  if (hidesOption(name, {}) || name.dynamic) {
    throw new Unread("a 'tmux' command's name is built by expansion");
  }
  const full = tmuxCommandName(name.value);
  if (full === undefined) throw new Unread(`'tmux ${name.value}' is not a known tmux command`);
  if (quietCommands.has(full)) {
    const format = words.find(runsFormat);
    if (format !== undefined) throw new Unread(formatReason(full, format));
    const syntax = quietButFor.get(full);
    if (syntax !== undefined) {
      const { options } = tmuxArguments(words.slice(1), syntax.withArgument, full);
      const runs = options.find(([letter]) => syntax.runs.includes(letter));
      if (runs !== undefined) throw new Unread(`'tmux ${full} -${runs[0]}' runs a shell command`);
    }
    return [];
  }
  const command = shellCommands.get(full);
  if (command === undefined) throw new Unread(`'tmux ${full}' is not read`);
  const { options, flags, operands } = tmuxArguments(words.slice(1), command.withArgument, full);
  let directory: ShellWord | undefined;
  for (const [name, value] of options) {
    if (name === "e") throw new Unread(`'tmux ${full} -e' sets the command's environment`);
    if (runsFormat(value)) throw new Unread(formatReason(full, value));
    if (name === command.directory) directory = value;
  }
  const asTmux = command.tmuxCommand !== undefined && flags.has(command.tmuxCommand);
  if (asTmux && operands.length > 0) throw new Unread(`'tmux ${full} -C' runs a tmux command`);
  if (command.typesOutput !== undefined && flags.has(command.typesOutput)) {
    throw new Unread(`'tmux ${full} -${command.typesOutput}' types its output into a pane`);
  }
  if (operands.some((w) => w.value.includes("#("))) {
    throw new Unread(`'tmux ${full}' may run a shell command from a format ('#(')`);
  }
  if (operands.length === 0) return [];
  // The folder is written, not built by expansion (a format of it may run `#(`; see above).
  const inFolder = (script: string) =>
    directory === undefined ? script : `cd ${quoteWords([directory.value])} && ${script}`;
  if (command.condition === true) {
    // `if-shell COND 'tmux command' ['tmux command']`: the others are tmux commands, read
    // through the shell reader as `tmux TEXT` only when tmux's syntax reads them the same.
    const [condition, ...then] = operands;
    for (const text of then) {
      if (text.dynamic || text.value.includes("\n") || /[^\w\s'"=:.,@/+-]/.test(text.value)) {
        throw new Unread("a tmux command of 'tmux if-shell' cannot be read");
      }
    }
    return [condition?.value ?? "", ...then.map((text) => `tmux ${text.value}`)];
  }
  // Several operands are the words of one command, run as they are: quote each.
  if (operands.length === 1) return [inFolder((operands[0] as ShellWord).value)];
  if (operands.some((w) => w.dynamic)) {
    throw new Unread(`a word of the command 'tmux ${full}' runs is built by expansion`);
  }
  return [inFolder(quoteWords(operands.map((w) => w.value)))];
}
