import {
  type ShellRedirection,
  ShellScanner,
  type ShellToken,
  type ShellWord,
} from "./shell-scanner.js";
import { writtenText } from "./shell-word.js";

/**
 * One simple command the shell would run: its words (assignments first, as written) and its
 * redirections. Commands inside compound commands (`if`, `while`, `for`, `case`, `{ }`, `( )`,
 * function bodies) are listed as if they ran, in text order.
 */
export interface ShellSimpleCommand {
  readonly words: readonly ShellWord[];
  readonly redirections: readonly ShellRedirection[];
  /** The simple command whose output this one reads through a pipe (`a | b`: `a` for `b`). */
  stdinFrom?: ShellSimpleCommand;
  /**
   * The pipe comes from a compound command (`{ a; b; } | c`, `( a ) | c`): `stdinFrom` is then
   * only its last simple command, and the others write to the pipe too.
   */
  stdinFromCompound?: true;
}

/** Words the shell expands but does not run: `for` lists, `case` subjects and patterns, `[[ ]]`. */
const reservedWords = new Set([
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "select",
  "in",
  "case",
  "esac",
  "{",
  "}",
  "!",
  "function",
  "[[",
  "time",
  "coproc",
]);

type Stop = (token: ShellToken) => boolean;

/** Whether `token` is the unquoted reserved word `name`. */
function isReserved(token: ShellToken, ...names: string[]): boolean {
  return (
    token.kind === "word" &&
    token.word.value === token.word.shadow &&
    names.includes(token.word.value)
  );
}

function isOp(token: ShellToken, ...ops: string[]): boolean {
  return token.kind === "op" && ops.includes(token.op);
}

/** An operator token of a `[[ ]]` as an unquoted word of the same text. */
function operatorWord(op: string): ShellWord {
  return {
    value: op,
    shadow: op,
    expansions: writtenText.repeat(op.length),
    dynamic: false,
    substitutions: [],
  };
}

function describe(token: ShellToken): string {
  if (token.kind === "op") return token.op === "\n" ? "newline" : `'${token.op}'`;
  if (token.kind === "word") return `'${token.word.value}'`;
  if (token.kind === "redirect") return `'${token.redirection.operator}'`;
  return "the end of the command";
}

/**
 * A recursive-descent reader of the shell grammar (POSIX `sh` plus the bash forms an agent is
 * likely to write): lists, `&&`/`||`, pipelines, `!`, `time`, subshells, groups, `if`, `while`,
 * `until`, `for`, `select`, `case`, functions, `[[ ]]`, `coproc`. It collects every simple
 * command, wherever it stands, so each can be judged.
 *
 * @internal
 */
export class ShellGrammar extends ShellScanner {
  commands: ShellSimpleCommand[] = [];
  /** Words that are expanded but not run (their substitutions still run). */
  readonly inertWords: ShellWord[] = [];
  /**
   * The words of `for NAME in WORDS` and `select NAME in WORDS` lists (also in `inertWords`):
   * unlike `case` words and `[[ ]]` operands, the shell globs these against the file system.
   */
  readonly loopWords: ShellWord[] = [];
  /** The variables `for NAME` and `select NAME` set. */
  readonly loopVariables: ShellWord[] = [];
  /**
   * The tokens of each `[[ ... ]]`, brackets excluded, as words: an operator (`&&`, `(`, `<`)
   * as a word of that text, so the test expression can be read (`[[ -e x && ! -d y ]]`).
   */
  readonly conditionals: ShellWord[][] = [];

  /** Reads the whole input. */
  parseProgram(): ShellSimpleCommand[] {
    this.parseList(() => false);
    const token = this.peek();
    if (token.kind !== "end") {
      if (isOp(token, ")")) this.fail(`Unexpected ')' at offset ${token.at}: no '(' opens it.`);
      this.fail(`Unexpected ${describe(token)} at offset ${token.at}.`);
    }
    if (this.heredocsPending) {
      this.fail("Here-document has no body: the command ends on the line of its '<<'.");
    }
    return this.commands;
  }

  protected parseNestedProgram(): void {
    const outer = this.commands;
    this.commands = [];
    this.parseList((t) => isOp(t, ")"));
    const token = this.take();
    this.commands = outer;
    if (!isOp(token, ")")) this.fail("Unterminated substitution: missing ')'.");
  }

  private skipNewlines(): void {
    while (isOp(this.peek(), "\n")) this.take();
  }

  /** A list of and-or lists separated by `;`, `&` or newlines, up to a token `stop` accepts. */
  private parseList(stop: Stop): void {
    for (;;) {
      this.skipNewlines();
      const token = this.peek();
      if (token.kind === "end" || stop(token)) return;
      this.parseAndOr();
      const after = this.peek();
      if (isOp(after, ";", "&", "\n")) {
        this.take();
        if (after.kind === "op" && after.op === "&") this.flags.hasBackground = true;
        continue;
      }
      if (after.kind === "end" || stop(after)) return;
      this.fail(`Unexpected ${describe(after)} at offset ${after.at}.`);
    }
  }

  private parseAndOr(): void {
    this.parsePipeline();
    while (isOp(this.peek(), "&&", "||")) {
      this.take();
      this.skipNewlines();
      this.expectCommandAfterOperator();
      this.parsePipeline();
    }
  }

  private expectCommandAfterOperator(): void {
    if (this.peek().kind === "end") {
      this.fail("Command ends with an operator ('&&', '||' or '|') that has no command after it.");
    }
  }

  private parsePipeline(): void {
    let token = this.peek();
    while (isReserved(token, "!", "time")) {
      const taken = this.take();
      const time = isReserved(taken, "time");
      token = this.peek();
      // `time -o FILE cmd`: in POSIX mode (sh) bash does not read `time` before a word that
      // starts with `-` as its keyword, and dash has none: it is the program (GNU time).
      if (time && taken.kind === "word" && token.kind === "word" && /^-./.test(token.word.value)) {
        if (token.word.value !== "--") {
          this.pendingWords.push(taken.word);
          break;
        }
      }
      token = this.peek();
      // bash's `time -p -- cmd` and `time -- cmd` run cmd (`--` ends time's options).
      if (time && token.kind === "word" && token.word.value === "--") this.take();
      token = this.peek();
    }
    let simple = this.parseCommand();
    while (isOp(this.peek(), "|", "|&")) {
      // `|&` pipes standard error too: a redirection in disguise.
      if (isOp(this.take(), "|&")) this.flags.hasRedirection = true;
      this.skipNewlines();
      this.expectCommandAfterOperator();
      const writer = this.commands.at(-1);
      const first = this.commands.length;
      const compound = !simple;
      simple = this.parseCommand();
      const reader = this.commands[first];
      if (reader !== undefined && writer !== undefined) reader.stdinFrom = writer;
      if (reader !== undefined && compound) reader.stdinFromCompound = true;
    }
  }

  private expectReserved(name: string, opened: string): void {
    const token = this.take();
    if (!isReserved(token, name)) {
      this.fail(
        `'${opened}' without its '${name}': found ${describe(token)} at offset ${token.at}.`,
      );
    }
  }

  /** Parses one command of a pipeline; true when it is a simple command. */
  private parseCommand(): boolean {
    const token = this.peek();
    if (token.kind === "end") {
      this.fail("Command ends with an operator ('&&', '||' or '|') that has no command after it.");
    }
    if (isOp(token, "(")) {
      this.take();
      this.parseSubshell();
      this.parseTrailingRedirections();
      return false;
    }
    if (token.kind === "op") {
      this.fail(`Unexpected ${describe(token)} at offset ${token.at}: no command before it.`);
    }
    if (token.kind === "word" && isReserved(token, ...reservedWords)) {
      this.parseCompound(token.word.value);
      return false;
    }
    this.parseSimpleCommand();
    return true;
  }

  private parseSubshell(): void {
    this.flags.hasSubshell = true;
    this.parseList((t) => isOp(t, ")"));
    if (!isOp(this.take(), ")")) this.fail("Unclosed '(': missing ')'.");
  }

  private parseCompound(keyword: string): void {
    const opening = this.take();
    const stopAt =
      (...names: string[]): Stop =>
      (t) =>
        isReserved(t, ...names);
    switch (keyword) {
      case "{":
        this.flags.hasSubshell = true;
        this.parseList(stopAt("}"));
        this.expectReserved("}", "{");
        break;
      case "if":
        this.parseList(stopAt("then"));
        this.expectReserved("then", "if");
        for (;;) {
          this.parseList(stopAt("elif", "else", "fi"));
          const next = this.take();
          if (isReserved(next, "fi")) break;
          if (isReserved(next, "else")) {
            this.parseList(stopAt("fi"));
            this.expectReserved("fi", "if");
            break;
          }
          if (!isReserved(next, "elif"))
            this.fail(`'if' without its 'fi' (found ${describe(next)}).`);
          this.parseList(stopAt("then"));
          this.expectReserved("then", "elif");
        }
        break;
      case "while":
      case "until":
        this.parseList(stopAt("do"));
        this.expectReserved("do", keyword);
        this.parseList(stopAt("done"));
        this.expectReserved("done", keyword);
        break;
      case "for":
      case "select":
        this.parseFor(keyword);
        break;
      case "case":
        this.parseCase();
        break;
      case "function": {
        const name = this.take();
        if (name.kind !== "word") this.fail(`'function' needs a name at offset ${name.at}.`);
        if (isOp(this.peek(), "(")) {
          this.take();
          if (!isOp(this.take(), ")")) this.fail("A function name is followed by '()'.");
        }
        this.parseFunctionBody();
        return;
      }
      case "[[":
        this.parseConditional();
        break;
      case "coproc":
        // `coproc NAME { ...; }` or `coproc command`: what follows runs.
        this.parseCommand();
        return;
      case "!":
      case "time":
        this.parseCommand();
        return;
      default:
        this.fail(`Unexpected '${keyword}' at offset ${opening.at}.`);
    }
    this.parseTrailingRedirections();
  }

  private parseFunctionBody(): void {
    this.skipNewlines();
    this.flags.hasSubshell = true;
    const token = this.peek();
    if (token.kind === "end") this.fail("A function definition has no body.");
    this.parseCommand();
  }

  private parseFor(keyword: string): void {
    if (
      this.src.startsWith("((", this.pos) ||
      this.src.slice(this.pos).trimStart().startsWith("((")
    ) {
      this.skipArithmeticFor();
    } else {
      const name = this.take();
      if (name.kind !== "word") this.fail(`'${keyword}' needs a variable name.`);
      this.loopVariables.push(name.word);
      this.skipNewlines();
      if (isReserved(this.peek(), "in")) {
        this.take();
        for (;;) {
          const token = this.peek();
          if (token.kind !== "word") break;
          this.take();
          this.inertWords.push(token.word);
          this.loopWords.push(token.word);
        }
      }
    }
    const separator = this.peek();
    if (isOp(separator, ";", "\n")) this.take();
    this.skipNewlines();
    this.expectReserved("do", keyword);
    this.parseList((t) => isReserved(t, "done"));
    this.expectReserved("done", keyword);
  }

  /** `for ((init; test; step))`: arithmetic only; a substitution inside is refused. */
  private skipArithmeticFor(): void {
    const start = this.src.indexOf("((", this.pos);
    const end = this.src.indexOf("))", start + 2);
    if (end === -1) this.fail("Unterminated 'for ((': missing '))'.");
    const body = this.src.slice(start + 2, end);
    if (/[`$]/.test(body))
      this.fail("A 'for ((...))' with an expansion or substitution is not read.");
    this.flags.hasExpansion = true;
    this.pos = end + 2;
  }

  private parseCase(): void {
    const subject = this.take();
    if (subject.kind !== "word") this.fail("'case' needs a word to match.");
    this.inertWords.push(subject.word);
    this.skipNewlines();
    this.expectReserved("in", "case");
    for (;;) {
      this.skipNewlines();
      let token = this.peek();
      if (isReserved(token, "esac")) {
        this.take();
        return;
      }
      if (token.kind === "end") this.fail("'case' without its 'esac'.");
      if (isOp(token, "(")) this.take();
      for (;;) {
        token = this.take();
        if (token.kind !== "word") this.fail(`A 'case' pattern is expected at offset ${token.at}.`);
        this.inertWords.push(token.word);
        const next = this.take();
        if (isOp(next, ")")) break;
        if (!isOp(next, "|")) this.fail(`Unexpected ${describe(next)} in a 'case' pattern.`);
      }
      this.parseList((t) => isOp(t, ";;", ";&", ";;&") || isReserved(t, "esac"));
      if (isOp(this.peek(), ";;", ";&", ";;&")) this.take();
    }
  }

  /** `[[ ... ]]`: a test; its words are expanded, not run. */
  private parseConditional(): void {
    const expression: ShellWord[] = [];
    this.conditionals.push(expression);
    for (;;) {
      const token = this.take();
      if (token.kind === "end") this.fail("'[[' without its ']]'.");
      if (token.kind === "word") {
        if (token.word.value === "]]" && token.word.shadow === "]]") return;
        this.inertWords.push(token.word);
        expression.push(token.word);
      } else if (token.kind === "redirect") {
        this.inertWords.push(token.redirection.target);
        expression.push(operatorWord(token.redirection.operator), token.redirection.target);
      } else {
        expression.push(operatorWord(token.op));
      }
    }
  }

  private parseTrailingRedirections(): void {
    const redirections: ShellRedirection[] = [];
    while (this.peek().kind === "redirect" || this.isFdPrefixNext()) {
      const token = this.take();
      if (token.kind === "redirect") redirections.push(token.redirection);
    }
    if (redirections.length > 0) this.commands.push({ words: [], redirections });
  }

  private isFdPrefixNext(): boolean {
    const token = this.peek();
    return token.kind === "word" && token.isFdPrefix;
  }

  /** Words read before a simple command that belong to it (`time` before `-o FILE cmd`). */
  private pendingWords: ShellWord[] = [];

  private parseSimpleCommand(): void {
    const words: ShellWord[] = this.pendingWords;
    this.pendingWords = [];
    const redirections: ShellRedirection[] = [];
    const command: ShellSimpleCommand = { words, redirections };
    // Pushed first so that a function body read below comes after its definition's name.
    const index = this.commands.length;
    this.commands.push(command);
    for (;;) {
      const token = this.peek();
      if (token.kind === "word") {
        this.take();
        if (!token.isFdPrefix) words.push(token.word);
        continue;
      }
      if (token.kind === "redirect") {
        this.take();
        redirections.push(token.redirection);
        continue;
      }
      if (isOp(token, "(")) {
        this.take();
        if (words.length === 1 && redirections.length === 0 && isOp(this.peek(), ")")) {
          // `name() body`: a function definition. The name is not a command; the body runs
          // whenever the name is called, so it is judged as if it ran.
          this.take();
          this.commands.splice(index, 1);
          this.parseFunctionBody();
          return;
        }
        // `ls !(x)` and other extended globs: read what is inside as commands, conservatively.
        this.parseSubshell();
        continue;
      }
      return;
    }
  }
}
