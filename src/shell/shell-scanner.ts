/**
 * The character-level half of the shell reader: words (quotes, escapes, `$` forms, backticks,
 * process substitution), operators, redirections and here-document bodies. The grammar
 * (`shell-grammar.ts`) pulls tokens from it and supplies the nested-program reader that `$(...)`,
 * backticks and `<(...)` need.
 *
 * It never executes or expands anything.
 *
 * @internal
 */
import type {
  Expansion,
  ShellRedirection,
  ShellSyntaxFlags,
  ShellToken,
  ShellWord,
} from "./shell-word.js";
import { quotedExpansion, ShellSyntaxError, splitExpansion, writtenText } from "./shell-word.js";

export type { ShellRedirection, ShellSyntaxFlags, ShellToken, ShellWord } from "./shell-word.js";
export { ShellSyntaxError } from "./shell-word.js";

/** Substitutions nested deeper than this are refused rather than risking the call stack. */
const maxNesting = 64;

const blanks = new Set([" ", "\t"]);
/** Characters that end an unquoted word. `<` and `>` start a word only as `<(` / `>(`. */
const wordEnders = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
/** After a `$`, these leave the `$` literal (bash, dash); anything else unknown is an expansion. */
const literalAfterDollar = new Set([
  " ",
  "\t",
  "\n",
  ";",
  "&",
  "|",
  ")",
  "<",
  ">",
  "/",
  ".",
  ",",
  ":",
  "%",
  "]",
  "}",
]);
const specialParameters = new Set(["@", "*", "#", "?", "$", "!", "-"]);
const nameStart = /[A-Za-z_]/;
const nameChar = /[A-Za-z0-9_]/;
const digit = /[0-9]/;
/** Brace expansion (`{a,b}`, `{1..3}`) turns one word into several. */
const braceExpansion = /\{[\s\S]*(?:,|\.\.)[\s\S]*\}/;
/** A word made only of unquoted digits (or bash's `{name}`) right before `<`/`>` names a file descriptor. */
const fdPrefix = /^(?:[0-9]+|\{[A-Za-z_][A-Za-z0-9_]*\})$/;

interface PendingHeredoc {
  readonly delimiter: string;
  readonly stripTabs: boolean;
  readonly redirection: ShellRedirection;
}

/**
 * Adds text to the word being read: `literal` when the shell still interprets it (unquoted, not
 * escaped), `expansion` when an expansion or substitution produces it (see `ShellWord.expansions`).
 */
type Append = (text: string, literal: boolean, expansion?: Expansion) => void;
const discard: Append = () => {};

/** Reads tokens from a command line; the grammar subclass decides what they mean. */
export abstract class ShellScanner {
  protected pos = 0;
  private nesting = 0;
  private pendingHeredocs: PendingHeredoc[] = [];
  private peeked: ShellToken | undefined;
  private wordDynamic = false;
  private wordSubstitutions: string[] = [];
  readonly flags: ShellSyntaxFlags = {
    hasSubstitution: false,
    hasExpansion: false,
    hasRedirection: false,
    hasSubshell: false,
    hasComment: false,
    hasBackground: false,
  };

  constructor(protected readonly src: string) {}

  /** Reads a nested program up to and including the `)` that closes it. */
  protected abstract parseNestedProgram(): void;

  protected fail(message: string): never {
    throw new ShellSyntaxError(message);
  }

  protected at(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  /** The next token, without consuming it. */
  protected peek(): ShellToken {
    this.peeked ??= this.readToken();
    return this.peeked;
  }

  /** Consumes and returns the next token. */
  protected take(): ShellToken {
    const token = this.peek();
    this.peeked = undefined;
    return token;
  }

  /** Whether there are here-documents whose bodies have not been read. */
  protected get heredocsPending(): boolean {
    return this.pendingHeredocs.length > 0;
  }

  private readToken(): ShellToken {
    this.skipBlanks();
    let c = this.at();
    while (c === "#") {
      this.flags.hasComment = true;
      const end = this.src.indexOf("\n", this.pos);
      this.pos = end === -1 ? this.src.length : end;
      this.skipBlanks();
      c = this.at();
    }
    const at = this.pos;
    if (c === undefined) return { kind: "end", at };
    if (c === "\n") {
      this.pos++;
      this.readHeredocBodies();
      return { kind: "op", op: "\n", at };
    }
    const two = this.src.slice(at, at + 2);
    const three = this.src.slice(at, at + 3);
    if (c === ";") {
      const op = three === ";;&" ? three : two === ";;" || two === ";&" ? two : ";";
      this.pos += op.length;
      return { kind: "op", op, at };
    }
    if (c === "|") {
      const op = two === "||" || two === "|&" ? two : "|";
      this.pos += op.length;
      return { kind: "op", op, at };
    }
    if (c === "&" && this.at(1) !== ">") {
      const op = two === "&&" ? two : "&";
      this.pos += op.length;
      return { kind: "op", op, at };
    }
    if (c === "(" || c === ")") {
      this.pos++;
      return { kind: "op", op: c, at };
    }
    if ((c === "<" || c === ">" || c === "&") && this.at(1) !== "(") {
      return { kind: "redirect", redirection: this.readRedirection(), at };
    }
    const { word, isFdPrefix } = this.readWord();
    return { kind: "word", word, isFdPrefix, at };
  }

  /** Skips blanks and backslash-newline line continuations. */
  private skipBlanks(): void {
    for (;;) {
      const c = this.at();
      if (c !== undefined && blanks.has(c)) this.pos++;
      else if (c === "\\" && this.at(1) === "\n") this.pos += 2;
      else return;
    }
  }

  /** Reads a redirection operator at `pos` and the word it applies to. */
  private readRedirection(): ShellRedirection {
    const start = this.pos;
    const three = this.src.slice(start, start + 3);
    const two = this.src.slice(start, start + 2);
    let operator: string;
    if (three === "<<<" || three === "<<-" || three === "&>>") operator = three;
    else if (["<<", "<&", "<>", ">>", ">|", ">&", "&>"].includes(two)) operator = two;
    else operator = this.src.charAt(start);
    this.flags.hasRedirection = true;
    this.pos += operator.length;
    this.skipBlanks();
    const c = this.at();
    const startsWord =
      c !== undefined &&
      c !== "#" &&
      (!wordEnders.has(c) || ((c === "<" || c === ">") && this.at(1) === "("));
    if (!startsWord) this.fail(`Redirection '${operator}' at offset ${start} has no target.`);
    const { word, isFdPrefix } = this.readWord();
    if (isFdPrefix) this.fail(`Redirection '${operator}' at offset ${start} has no target.`);
    if (operator === "<<" || operator === "<<-") {
      // An unquoted delimiter means the body is expanded like a double-quoted string.
      const redirection: ShellRedirection = {
        operator,
        target: word,
        bodyExpands: word.value === word.shadow,
      };
      this.pendingHeredocs.push({
        delimiter: word.value,
        stripTabs: operator === "<<-",
        redirection,
      });
      return redirection;
    }
    if (operator === "<<<") return { operator, target: word, body: word.value };
    return { operator, target: word };
  }

  /** After a newline, consumes the bodies of the here-documents opened on the line before it. */
  private readHeredocBodies(): void {
    for (const heredoc of this.pendingHeredocs) {
      const lines: string[] = [];
      for (;;) {
        if (this.pos >= this.src.length) {
          this.fail(`Here-document delimited by '${heredoc.delimiter}' is not terminated.`);
        }
        const end = this.src.indexOf("\n", this.pos);
        const line = this.src.slice(this.pos, end === -1 ? this.src.length : end);
        this.pos = end === -1 ? this.src.length : end + 1;
        const compared = heredoc.stripTabs ? line.replace(/^\t+/, "") : line;
        if (compared === heredoc.delimiter) break;
        lines.push(compared);
        if (heredoc.redirection.bodyExpands === true) this.flagBodyExpansions(line);
      }
      heredoc.redirection.body = lines.join("\n");
    }
    this.pendingHeredocs = [];
  }

  /** Flags what an expanding here-document body would run or expand (over-approximated). */
  private flagBodyExpansions(line: string): void {
    if (line.includes("`") || line.includes("$(")) this.flags.hasSubstitution = true;
    if (/\$[A-Za-z_{@*#?$!0-9-]/.test(line)) this.flags.hasExpansion = true;
  }

  /** Reads one word starting at `pos` (which is not a blank nor an operator). */
  private readWord(): { word: ShellWord; isFdPrefix: boolean } {
    let value = "";
    let shadow = "";
    let expansions = "";
    const outerDynamic = this.wordDynamic;
    const outerSubstitutions = this.wordSubstitutions;
    this.wordDynamic = false;
    this.wordSubstitutions = [];
    const append: Append = (text, literal, expansion) => {
      value += text;
      shadow += literal ? text : "\0".repeat(text.length);
      expansions += (expansion ?? writtenText).repeat(text.length);
    };
    for (;;) {
      const c = this.at();
      if (c === undefined) break;
      if (c === "<" || c === ">") {
        if (this.at(1) !== "(") break;
        const start = this.pos;
        this.pos += 2;
        this.flags.hasSubstitution = true;
        this.wordDynamic = true;
        this.nested();
        // A process substitution is one word: the path of a pipe.
        append(this.src.slice(start, this.pos), false, quotedExpansion);
        continue;
      }
      if (wordEnders.has(c)) break;
      if (c === "\\") {
        const next = this.at(1);
        if (next === undefined) this.fail("Command ends with a backslash that escapes nothing.");
        this.pos += 2;
        if (next !== "\n") append(next, false);
        continue;
      }
      if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end === -1) this.fail(`Unterminated single quote starting at offset ${this.pos}.`);
        append(this.src.slice(this.pos + 1, end), false);
        this.pos = end + 1;
        continue;
      }
      if (c === '"') {
        this.readDoubleQuoted(append);
        continue;
      }
      if (c === "`") {
        this.readBackticks(append, splitExpansion);
        continue;
      }
      if (c === "$") {
        this.readDollar(append, false);
        continue;
      }
      append(c, true);
      this.pos++;
    }
    if (braceExpansion.test(shadow)) this.flags.hasExpansion = true;
    const dynamic = this.wordDynamic;
    const substitutions = this.wordSubstitutions;
    this.wordDynamic = outerDynamic;
    this.wordSubstitutions = outerSubstitutions;
    const next = this.at();
    const isFdPrefix =
      (next === "<" || next === ">") &&
      this.at(1) !== "(" &&
      value === shadow &&
      fdPrefix.test(value);
    return { word: { value, shadow, expansions, dynamic, substitutions }, isFdPrefix };
  }

  /** Reads `"..."` at `pos`: `$` and backticks stay live, backslash escapes only `$ \` " \\` and newline. */
  private readDoubleQuoted(append: Append): void {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const c = this.at();
      if (c === undefined) this.fail(`Unterminated double quote starting at offset ${start}.`);
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === "\\") {
        const next = this.at(1);
        if (next === undefined) this.fail(`Unterminated double quote starting at offset ${start}.`);
        if (next === "\n") {
          this.pos += 2;
        } else if (next === "$" || next === "`" || next === '"' || next === "\\") {
          append(next, false);
          this.pos += 2;
        } else {
          append("\\", false);
          this.pos++;
        }
        continue;
      }
      if (c === "`") {
        this.readBackticks(append, quotedExpansion);
        continue;
      }
      if (c === "$") {
        this.readDollar(append, true);
        continue;
      }
      append(c, false);
      this.pos++;
    }
  }

  /** Reads `` `...` `` at `pos`: a command substitution, kept as written. */
  private readBackticks(append: Append, expansion: Expansion): void {
    const start = this.pos;
    this.pos++;
    for (;;) {
      const c = this.at();
      if (c === undefined)
        this.fail(`Unterminated backtick substitution starting at offset ${start}.`);
      if (c === "\\") {
        if (this.at(1) === undefined) {
          this.fail(`Unterminated backtick substitution starting at offset ${start}.`);
        }
        this.pos += 2;
        continue;
      }
      this.pos++;
      if (c === "`") break;
    }
    this.flags.hasSubstitution = true;
    this.wordDynamic = true;
    this.wordSubstitutions.push(
      this.src.slice(start + 1, this.pos - 1).replace(/\\([`$\\])/g, "$1"),
    );
    append(this.src.slice(start, this.pos), false, expansion);
  }

  /** Reads what starts with `$` at `pos`: a substitution, an expansion, or a literal `$`. */
  private readDollar(append: Append, inDoubleQuotes: boolean): void {
    const start = this.pos;
    const next = this.at(1);
    const expansion = inDoubleQuotes ? quotedExpansion : splitExpansion;
    const keep = (as = expansion) => append(this.src.slice(start, this.pos), false, as);
    const quoteInside = inDoubleQuotes && (next === '"' || next === "'");
    if (next === undefined || literalAfterDollar.has(next) || quoteInside) {
      append("$", !inDoubleQuotes);
      this.pos++;
      return;
    }
    if (next === "(") {
      // `$(...)` and arithmetic `$((...))` alike: the nested text is a program.
      this.flags.hasSubstitution = true;
      this.wordDynamic = true;
      this.pos += 2;
      this.nested();
      keep();
      return;
    }
    this.flags.hasExpansion = true;
    this.wordDynamic = true;
    if (next === '"' && !inDoubleQuotes) {
      // `$"..."` is a translated string: the `$` is dropped and the quotes read as usual, but
      // what it gives is the translation, one word.
      this.pos++;
      this.readDoubleQuoted((text, literal) => append(text, literal, quotedExpansion));
      return;
    }
    if (next === "{") {
      this.pos += 2;
      this.skipParameterExpansion(start);
    } else if (nameStart.test(next)) {
      this.pos += 2;
      while (this.at() !== undefined && nameChar.test(this.at() as string)) this.pos++;
    } else if (digit.test(next) || specialParameters.has(next)) {
      this.pos += 2;
    } else if (next === "'" && !inDoubleQuotes) {
      // ANSI-C quoting: its escapes decode to text this reader does not compute.
      this.pos += 2;
      for (;;) {
        const c = this.at();
        if (c === undefined) this.fail(`Unterminated $'...' quote starting at offset ${start}.`);
        this.pos += c === "\\" ? 2 : 1;
        if (c === "'") break;
      }
      keep(quotedExpansion);
      return;
    } else {
      // `$[...]` (old arithmetic) and shell-specific forms such as zsh's `$=name`.
      this.pos++;
    }
    keep();
  }

  /** Skips to the `}` that closes the `${` at `start`, honouring quotes and nested forms. */
  private skipParameterExpansion(start: number): void {
    this.enter();
    let depth = 1;
    while (depth > 0) {
      const c = this.at();
      if (c === undefined) this.fail(`Unterminated '\${' starting at offset ${start}.`);
      if (c === "\\") {
        this.pos += 2;
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end === -1) this.fail(`Unterminated single quote starting at offset ${this.pos}.`);
        this.pos = end + 1;
      } else if (c === '"') {
        this.readDoubleQuoted(discard);
      } else if (c === "`") {
        this.readBackticks(discard, quotedExpansion);
      } else if (c === "$") {
        this.readDollar(discard, false);
      } else {
        if (c === "{") depth++;
        if (c === "}") depth--;
        this.pos++;
      }
    }
    this.nesting--;
  }

  /** Reads a nested program (a substitution's) up to and including its closing `)`. */
  private nested(): void {
    const bodyStart = this.pos;
    this.enter();
    const saved = this.peeked;
    this.peeked = undefined;
    const savedHeredocs = this.pendingHeredocs;
    this.pendingHeredocs = [];
    this.parseNestedProgram();
    if (this.pendingHeredocs.length > 0) {
      this.fail("Here-document has no body: the substitution ends on the line of its '<<'.");
    }
    this.pendingHeredocs = savedHeredocs;
    this.peeked = saved;
    this.nesting--;
    this.wordSubstitutions.push(this.src.slice(bodyStart, this.pos - 1));
  }

  private enter(): void {
    this.nesting++;
    if (this.nesting > maxNesting) {
      this.fail(`Substitutions are nested more than ${maxNesting} deep.`);
    }
  }
}
