import { matchCommandPattern } from "./command-pattern.js";
import {
  commandName,
  isBuiltByExpansion,
  literalPrefix,
  quoteWords,
  scriptsProducedBy,
  stdinScripts,
  substitutionBodies,
} from "./command-words.js";
import { shellInput } from "./shell-invocation.js";
import type { ShellWord } from "./shell-scanner.js";
import { lexShellCommand } from "./shell-syntax.js";
import { sshRunsInput } from "./ssh-runs-input.js";
import { unwrapCommand } from "./unwrap-command.js";

/** Whether a deny pattern hits a command line. */
export type DenyPatternMatch = "match" | "no-match" | "unsure";

/** Scripts nested deeper than this are not read: the deny check is unsure. */
const maxDepth = 8;

const shells = new Set(["sh", "bash", "rbash", "zsh", "dash", "ksh", "ash", "mksh", "busybox"]);
/** Programs known not to run their arguments as a command. */
const neverRunArguments = new Set(
  (
    "command echo printf cat ls grep egrep fgrep rg head tail wc sort uniq cut tr git npm yarn pnpm " +
    "mkdir touch cp mv ln chmod chown diff cmp stat file du df tree date test [ true false " +
    "basename dirname realpath readlink which type jq sed awk tar zip unzip gzip gunzip make"
  ).split(" "),
);

interface PatternHead {
  /** The pattern's first word: literal text, or the literal pieces around its `*`s. */
  readonly value: string;
  readonly pieces: readonly string[];
}

function patternHead(pattern: string): PatternHead | undefined {
  const syntax = lexShellCommand(pattern);
  if (!syntax.ok) return undefined;
  const word = syntax.segments[0]?.[0];
  if (word === undefined) return undefined;
  const pieces: string[] = [""];
  for (let i = 0; i < word.value.length; i++) {
    if (word.shadow[i] === "*") pieces.push("");
    else pieces[pieces.length - 1] += word.value.charAt(i);
  }
  return { value: word.value, pieces };
}

/** Whether a program word built by expansion could name the pattern's program. */
function couldBe(head: PatternHead, program: ShellWord): boolean {
  const prefix = literalPrefix(program);
  const candidates = [prefix, prefix.slice(prefix.lastIndexOf("/") + 1)];
  const first = head.pieces[0] ?? "";
  const exact = head.pieces.length === 1;
  return candidates.some((p) =>
    exact ? first.startsWith(p) : first.startsWith(p) || p.startsWith(first),
  );
}

/** Whether a later word names the pattern's program (an unknown program may run it). */
function mentions(head: PatternHead, words: readonly ShellWord[]): boolean {
  if (head.pieces.length !== 1) return false;
  return words.slice(1).some((w) => commandName(w.value) === head.value);
}

class DenyMatcher {
  readonly #aliases = new Map<string, string>();

  constructor(
    private readonly pattern: string,
    private readonly head: PatternHead | undefined,
  ) {}

  line(command: string, depth: number): DenyPatternMatch {
    if (depth > maxDepth) return "unsure";
    const parsed = lexShellCommand(command);
    if (!parsed.ok) return "unsure";
    let result: DenyPatternMatch = "no-match";
    const note = (found: DenyPatternMatch) => {
      if (found === "unsure") result = "unsure";
      return found === "match";
    };
    const nested = (text: string) =>
      substitutionBodies(text).some((body) => note(this.line(body, depth + 1)));
    const inWord = (word: ShellWord) =>
      word.substitutions.some((body) => note(this.line(body, depth + 1)));
    for (const word of parsed.inertWords) if (inWord(word)) return "match";
    for (const simple of parsed.commands) {
      if (note(this.words(simple.words, depth))) return "match";
      for (const word of simple.words) if (inWord(word)) return "match";
      for (const r of simple.redirections) {
        if (inWord(r.target)) return "match";
        if (r.body !== undefined && nested(r.body)) return "match";
      }
      // A script fed to a shell on its input (`echo ... | sh`, `sh <<EOF`).
      const effective = unwrapCommand(simple.words).words;
      const program = commandName(effective[0]?.value ?? "");
      // So is the input of `at` and `batch`, and of `ssh HOST` without a command (the remote
      // shell, on this machine for `localhost`).
      const sshInput = simple.words.length > 0 && sshStageRunsInput(simple.words);
      if (sshInput || program === "at" || program === "batch") {
        for (const text of stdinScripts(simple))
          if (note(this.line(text, depth + 1))) return "match";
      }
      if (shells.has(program) || program === "source" || program === ".") {
        for (const word of effective.slice(1)) {
          for (const body of word.substitutions) {
            for (const text of scriptsProducedBy(body))
              if (note(this.line(text, depth + 1))) return "match";
          }
        }
        for (const text of stdinScripts(simple))
          if (note(this.line(text, depth + 1))) return "match";
      }
    }
    return result;
  }

  words(original: readonly ShellWord[], depth: number): DenyPatternMatch {
    if (original.length === 0) return "no-match";
    const first = original[0] as ShellWord;
    const alias = first.dynamic ? undefined : this.#aliases.get(first.value);
    if (alias !== undefined) {
      this.#aliases.delete(first.value);
      const rest = quoteWords(original.slice(1).map((w) => w.value));
      const found = this.line(`${alias} ${rest}`, depth + 1);
      this.#aliases.set(first.value, alias);
      return found;
    }
    const unwrapped = unwrapCommand(original);
    for (const stage of unwrapped.stages) {
      if (stage.length === 0) continue;
      const values = stage.map((w) => w.value);
      if (matchCommandPattern(this.pattern, quoteWords(values))) return "match";
      const base = [commandName(values[0] as string), ...values.slice(1)];
      if (matchCommandPattern(this.pattern, quoteWords(base))) return "match";
    }
    let result: DenyPatternMatch = "no-match";
    for (const script of unwrapped.scripts) {
      const found = this.line(script, depth + 1);
      if (found === "match") return "match";
      if (found === "unsure") result = "unsure";
    }
    const words = unwrapped.words;
    const program = words[0];
    if (program === undefined) return result;
    if (isBuiltByExpansion(program)) {
      // `$X -rf`, `rm${IFS}-rf`: it could be the denied program.
      return this.head === undefined || couldBe(this.head, program) ? "match" : "unsure";
    }
    const name = commandName(program.value);
    const args = words.slice(1).map((w) => w.value);
    const script = (text: string | undefined): DenyPatternMatch =>
      text === undefined ? "no-match" : this.line(text, depth + 1);
    let inner: DenyPatternMatch = "no-match";
    if (shells.has(name)) {
      const input = shellInput(words.slice(1));
      if (input.kind === "command") inner = script(input.script?.value);
    } else if (name === "alias") {
      for (const arg of args) {
        const at = arg.indexOf("=");
        if (at <= 0) continue;
        const value = arg.slice(at + 1);
        this.#aliases.set(arg.slice(0, at), value);
        // `alias x=rm`: x now runs the denied program, whatever follows it.
        const head = lexShellCommand(value);
        const program = head.ok ? head.segments[0]?.[0]?.value : undefined;
        if (
          program !== undefined &&
          this.head?.pieces.length === 1 &&
          commandName(program) === this.head.value
        ) {
          return "match";
        }
        const found = this.line(value, depth + 1);
        if (found === "match") return "match";
        if (found === "unsure") inner = "unsure";
      }
    } else if (name === "eval" || name === "trap") {
      const text = name === "trap" ? args[0] : args.join(" ");
      inner = script(text);
    } else if (name === "find") {
      for (let i = 0; i < words.length; i++) {
        if (!["-exec", "-execdir", "-ok", "-okdir"].includes(words[i]?.value ?? "")) continue;
        let end = i + 1;
        while (end < words.length && words[end]?.value !== ";" && words[end]?.value !== "+") end++;
        const found = this.words(words.slice(i + 1, end), depth + 1);
        if (found === "match") return "match";
        if (found === "unsure") inner = "unsure";
        i = end;
      }
    } else if (
      name === "git" &&
      args.some((a) => a === "-c" || a.startsWith("--config-env") || a.startsWith("-c"))
    ) {
      // `git -c alias.x='!rm -rf /' x`: configuration can run anything.
      inner = "unsure";
    } else if (
      this.head !== undefined &&
      !neverRunArguments.has(name) &&
      mentions(this.head, words)
    ) {
      inner = "unsure";
    }
    if (inner === "match") return "match";
    return inner === "unsure" || result === "unsure" ? "unsure" : "no-match";
  }
}

/**
 * Whether a deny pattern (a command pattern such as `rm *`) hits any command a command line
 * would run: every simple command, inside compound commands, substitutions, `sh -c` and `eval`
 * scripts, `find -exec`, here-documents fed to a shell, after looking through assignments and
 * wrappers (`env`, `sudo`, `timeout`, `xargs`, `busybox`, ...), with a path's last component
 * tried as the program too (`/bin/rm` is `rm`).
 *
 * "match" when one does, or when a program name is built by expansion and could be the
 * pattern's (`$X -rf`, `r${E}m`); "unsure" when the line does not parse, is nested too deep,
 * or an unknown program is given the pattern's program as an argument; else "no-match".
 *
 * @example
 * ```ts
 * matchDenyPattern("rm *", "if true; then /bin/rm -rf x; fi"); // "match"
 * matchDenyPattern("rm *", "rm${IFS}-rf x");                  // "match"
 * matchDenyPattern("rm *", "ls -la");                          // "no-match"
 * ```
 */
export function matchDenyPattern(pattern: string, command: string): DenyPatternMatch {
  return new DenyMatcher(pattern, patternHead(pattern)).line(command, 0);
}

/** Whether one of `words`' wrappers is `ssh HOST` without a command (see {@link sshRunsInput}). */
function sshStageRunsInput(words: readonly ShellWord[]): boolean {
  return unwrapCommand(words).stages.some(
    (stage) => commandName(stage[0]?.value ?? "") === "ssh" && sshRunsInput(stage.slice(1)),
  );
}
