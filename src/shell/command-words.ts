import type { ShellSimpleCommand } from "./shell-grammar.js";
import type { ShellWord } from "./shell-scanner.js";
import { lexShellCommand } from "./shell-syntax.js";

/**
 * Small readers of command words shared by the risk rules and the deny matcher.
 *
 * @internal
 */

/** The last path component of a word (`/usr/bin/rm` -> `rm`). */
export function commandName(word: string): string {
  const slash = word.lastIndexOf("/");
  return slash === -1 ? word : word.slice(slash + 1);
}

export function isOption(word: string): boolean {
  return word.startsWith("-") && word !== "-" && word !== "--";
}

/** True when a short-option word (`-rf`) or a long one (`--recursive`) says `letter` / `long`. */
export function hasFlag(
  words: readonly string[],
  letters: string,
  long: readonly string[],
): boolean {
  for (const word of words) {
    if (word === "--") return false;
    if (word.startsWith("--")) {
      if (long.includes(word.split("=")[0] as string)) return true;
    } else if (word.startsWith("-") && word.length > 1) {
      for (const letter of letters) if (word.slice(1).includes(letter)) return true;
    }
  }
  return false;
}

/** The operands (non-option words) after the command name; everything after `--` counts. */
export function operands(words: readonly string[]): string[] {
  const out: string[] = [];
  let optionsEnded = false;
  for (const word of words.slice(1)) {
    if (!optionsEnded && word === "--") {
      optionsEnded = true;
      continue;
    }
    if (optionsEnded || !isOption(word)) out.push(word);
  }
  return out;
}

/** The bodies of the `$(...)`, `<(...)`, `>(...)` and backtick substitutions in a text. */
export function substitutionBodies(word: string): string[] {
  const bodies: string[] = [];
  for (let i = 0; i < word.length; i++) {
    const c = word[i];
    if ((c === "$" || c === "<" || c === ">") && word[i + 1] === "(") {
      let depth = 0;
      let quote: string | undefined;
      for (let j = i + 1; j < word.length; j++) {
        const d = word[j];
        if (quote !== undefined) {
          if (d === quote) quote = undefined;
          else if (d === "\\" && quote === '"') j++;
          continue;
        }
        if (d === "'" || d === '"') quote = d;
        else if (d === "\\") j++;
        else if (d === "(") depth++;
        else if (d === ")" && --depth === 0) {
          bodies.push(word.slice(i + 2, j));
          i = j;
          break;
        }
      }
    } else if (c === "`") {
      let end = i + 1;
      while (end < word.length && word[end] !== "`") end += word[end] === "\\" ? 2 : 1;
      if (end >= word.length) break;
      bodies.push(word.slice(i + 1, end).replace(/\\([`$\\])/g, "$1"));
      i = end;
    }
  }
  return bodies;
}

/** Characters that make the shell expand an unquoted word into file names or several words. */
const globOrBrace = /[*?]|\[[^\]]*\]|\{[^}]*(?:,|\.\.)[^}]*\}/;

/**
 * Whether the shell builds the word's text when it runs (an expansion, a substitution, an
 * unquoted glob or brace expansion): what it names cannot be read from the text.
 */
export function isBuiltByExpansion(word: ShellWord): boolean {
  if (word.dynamic) return true;
  const live = word.shadow.replace(/\0+/g, "\0");
  return globOrBrace.test(live);
}

/**
 * The literal text a word built by expansion starts with (before the first expansion, quote or
 * glob): what the word must begin with, whatever the expansion gives.
 */
export function literalPrefix(word: ShellWord): string {
  let end = 0;
  while (end < word.value.length) {
    const shadow = word.shadow[end];
    const value = word.value[end];
    if (shadow === "\0" && (value === "$" || value === "`" || value === "<" || value === ">"))
      break;
    if (shadow === "*" || shadow === "?" || shadow === "[" || shadow === "{") break;
    end++;
  }
  return word.value.slice(0, end);
}

/** Directories whose programs are the system's own: `/usr/bin/rm` is `rm`. */
const systemDirectories = new Set([
  "/bin",
  "/sbin",
  "/usr/bin",
  "/usr/sbin",
  "/usr/local/bin",
  "/usr/local/sbin",
]);

/** Where a command word says its program is. */
export type ProgramLocation =
  /** A bare name, looked up in PATH. */
  | "name"
  /** A path into the system's program directories: the same as its bare name. */
  | "system"
  /** A relative path: a program the workspace (the repository) ships. */
  | "workspace"
  /** Any other path: some program outside the workspace. */
  | "elsewhere";

/** Collapses `//`, `/./` and `/../` in an absolute path, as the kernel would read it. */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") out.pop();
    else out.push(part);
  }
  return `/${out.join("/")}`;
}

export function programLocation(word: string): ProgramLocation {
  if (!word.includes("/")) return "name";
  if (word.startsWith("/")) {
    const normal = normalizeAbsolute(word);
    const directory = normal.slice(0, normal.lastIndexOf("/")) || "/";
    return systemDirectories.has(directory) ? "system" : "elsewhere";
  }
  if (word.startsWith("~")) return "elsewhere";
  return "workspace";
}

/** Quotes words back into a command line that reads as exactly those words. */
export function quoteWords(words: readonly string[]): string {
  return words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");
}

/**
 * Text a command reads on its standard input that is a script when a shell reads it: its
 * here-documents and here-strings, and what `echo`, `printf` or `cat <<EOF` pipe into it.
 */
export function stdinScripts(command: ShellSimpleCommand): string[] {
  const scripts: string[] = [];
  for (const r of command.redirections) if (r.body !== undefined) scripts.push(r.body);
  const writer = command.stdinFrom;
  const first = writer?.words[0];
  const writerName = first === undefined ? undefined : commandName(first.value);
  if (writer !== undefined && (writerName === "echo" || writerName === "printf")) {
    const text = writer.words
      .slice(1)
      .filter((w) => !/^-[neE]+$/.test(w.value))
      .map((w) => w.value)
      .join(" ");
    scripts.push(text.replaceAll("\\n", "\n"));
  }
  if (writer !== undefined && writerName === "cat") scripts.push(...stdinScripts(writer));
  return scripts;
}

/**
 * Why the text a command reads through a pipe cannot be read from the command line as the
 * script a shell would run, if it cannot: it comes from a compound command or a program other
 * than `echo`, `printf` and `cat` of here-documents (`base64 -d`, `cat x.sh`), or their text is
 * built by expansion or has what they would rewrite (a backslash escape: `echo -e 'cat\x20.env'`,
 * `printf 'cat\040.env'`, which `dash`'s `echo` rewrites without `-e` too; a `printf` directive:
 * `printf '%s .env' cat`).
 */
export function unreadStdin(command: ShellSimpleCommand): string | undefined {
  if (command.stdinFromCompound === true) return "a compound command writes the shell's script";
  return command.stdinFrom === undefined ? undefined : unreadOutput(command.stdinFrom);
}

/**
 * Why what `writer` prints cannot be read from the command line as a script, if it cannot (see
 * {@link unreadStdin}).
 */
function unreadOutput(writer: ShellSimpleCommand): string | undefined {
  const first = writer.words[0];
  if (first === undefined) return undefined;
  const name = commandName(first.value);
  const args = writer.words.slice(1);
  if (first.dynamic) return "the program that writes the shell's script is built by expansion";
  if (name === "echo" || name === "printf") {
    const text = args.filter((w) => !(name === "echo" ? /^-[neE]+$/ : /^--$/).test(w.value));
    if (text.some((w) => w.dynamic)) return `the text '${name}' writes is built by expansion`;
    // printf's `\n` is a newline, as it is read; echo's is one in some shells only (dash).
    const escaped = (v: string) => (name === "printf" ? v.replaceAll("\\n", "") : v).includes("\\");
    if (text.some((w) => escaped(w.value) || (name === "printf" && w.value.includes("%")))) {
      return `'${name}' rewrites the text it writes (escapes, directives)`;
    }
    return undefined;
  }
  if (name === "cat") {
    if (args.length > 0) return "'cat' writes files' text as the shell's script";
    const fromFile = writer.redirections.some((r) => ["<", "<>", "<&"].includes(r.operator));
    if (fromFile) return "'cat' writes a file's text as the shell's script";
    return unreadStdin(writer);
  }
  return `the shell runs what '${name}' writes`;
}

/**
 * Why the script a shell or `source` reads from a process substitution (`sh <(cmd)`, `sh <
 * <(cmd)`, `. <(cmd)`) cannot be read from the command line, if it cannot: as {@link
 * unreadStdin}, for the one command `body` runs.
 */
export function unreadSubstitution(body: string): string | undefined {
  const parsed = lexShellCommand(body);
  if (!parsed.ok) return "the command that writes the script does not parse";
  const [command, ...others] = parsed.commands;
  if (command === undefined) return undefined;
  if (others.length > 0) return "several commands write the script";
  return unreadOutput(command);
}

/**
 * Whether a long option as written (`--compress-prog`) names `full` (`--compress-program`):
 * GNU getopt_long and git accept any unambiguous prefix, one letter too (`cp --t=DIR` is
 * `--target-directory`), so a prefix must be judged as the option it may stand for. A prefix
 * the program finds ambiguous is refused by it: reading it as `full` only asks more.
 */
export function namesLongOption(given: string, full: string): boolean {
  const name = given.split("=", 1)[0] as string;
  return name.length > 2 && full.startsWith(name);
}

/** Paths through which a program reads its standard input as a file. */
export const stdinPaths = new Set(["-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]);

/**
 * The text a substitution's program prints when that is known from the words (`echo`,
 * `printf`, `cat <<EOF`): what `bash <(echo ...)` or `. <(cat <<EOF ...)` runs as a script.
 */
export function scriptsProducedBy(body: string): string[] {
  const parsed = lexShellCommand(body);
  if (!parsed.ok) return [];
  const scripts: string[] = [];
  for (const command of parsed.commands) {
    const first = command.words[0];
    const name = first === undefined ? undefined : commandName(first.value);
    if (name === "echo" || name === "printf") {
      scripts.push(
        command.words
          .slice(1)
          .filter((w) => !/^-[neE]+$/.test(w.value))
          .map((w) => w.value)
          .join(" ")
          .replaceAll("\\n", "\n"),
      );
    }
    for (const r of command.redirections) if (r.body !== undefined) scripts.push(r.body);
  }
  return scripts;
}
