/**
 * The hand-written lexer behind {@link parseCommand}: a conservative reading of a POSIX `sh`
 * subset plus the bash forms an agent is likely to write (`&>`, `|&`, `<<<`, `$'...'`, `<(...)`).
 *
 * It never executes or expands anything. It finds the simple commands of a command line and
 * their words, and flags every construct whose effect cannot be known from the text alone.
 * Once a flag is set, the segments are a best effort; callers that approve commands must treat a
 * flagged command as unknown (see `assessCommandSyntax`).
 *
 * @internal
 */

/** A word of a simple command as the lexer sees it. */
export interface ShellWord {
  /** The word with quotes removed and escapes applied; substitutions are kept as written. */
  readonly value: string;
  /**
   * `value` with every character that was quoted, escaped or produced by a substitution or
   * expansion replaced by NUL (input NUL bytes are refused, so NUL is free as a marker). What
   * remains are the characters the shell would still interpret: glob and brace characters.
   */
  readonly shadow: string;
}

/** The constructs a command line uses, each of which makes its effect depend on more than text. */
export interface ShellSyntaxFlags {
  hasSubstitution: boolean;
  hasExpansion: boolean;
  hasRedirection: boolean;
  hasSubshell: boolean;
  hasComment: boolean;
  hasBackground: boolean;
}

/** What the lexer returns: the words of each simple command, or why the text does not parse. */
export type ShellSyntax =
  | {
      readonly ok: true;
      readonly segments: readonly (readonly ShellWord[])[];
      readonly flags: Readonly<ShellSyntaxFlags>;
    }
  | { readonly ok: false; readonly error: string };

/** Thrown inside the lexer and turned into `{ ok: false }` by {@link lexShellCommand}. */
class ShellSyntaxError extends Error {}

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
/**
 * The offset of the first character a command may not contain, or -1: C0 controls other than tab
 * and newline, DEL, C1 controls, and the Unicode characters that reorder or separate lines on
 * screen (so a person would read a different command than the one that runs).
 */
function findForbiddenCharacter(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const forbidden =
      (code < 0x20 && code !== 0x09 && code !== 0x0a) ||
      (code >= 0x7f && code <= 0x9f) ||
      code === 0x200e ||
      code === 0x200f ||
      code === 0x2028 ||
      code === 0x2029 ||
      (code >= 0x202a && code <= 0x202e) ||
      (code >= 0x2066 && code <= 0x2069);
    if (forbidden) return i;
  }
  return -1;
}

interface PendingHeredoc {
  readonly delimiter: string;
  readonly stripTabs: boolean;
  readonly expands: boolean;
}

type ListState = "empty" | "command" | "binary";

interface WordResult {
  readonly word: ShellWord;
  /** True when the word is a file descriptor prefix such as the `2` of `2>`. */
  readonly isFdPrefix: boolean;
}

type Append = (text: string, literal: boolean) => void;

const discard: Append = () => {};

class Lexer {
  private pos = 0;
  private nesting = 0;
  private pendingHeredocs: PendingHeredoc[] = [];
  readonly flags: ShellSyntaxFlags = {
    hasSubstitution: false,
    hasExpansion: false,
    hasRedirection: false,
    hasSubshell: false,
    hasComment: false,
    hasBackground: false,
  };

  constructor(private readonly src: string) {}

  /** Reads the whole input as a list of simple commands. */
  parseProgram(): ShellWord[][] {
    return this.parseList(false);
  }

  private fail(message: string): never {
    throw new ShellSyntaxError(message);
  }

  private at(offset = 0): string | undefined {
    return this.src[this.pos + offset];
  }

  /**
   * Reads simple commands until the end of input or, when `nested`, the `)` that closes the
   * substitution the caller opened (consumed before returning).
   */
  private parseList(nested: boolean): ShellWord[][] {
    const segments: ShellWord[][] = [];
    let current: ShellWord[] = [];
    let hasContent = false;
    let state: ListState = "empty";
    let depth = 0;
    const flush = () => {
      if (hasContent) {
        const first = current[0]?.shadow;
        if (first === "{" || first === "}") this.flags.hasSubshell = true;
        segments.push(current);
      }
      current = [];
      hasContent = false;
    };
    const separator = (token: string) => {
      if (state !== "command") {
        this.fail(`Unexpected '${token}' at offset ${this.pos}: no command before it.`);
      }
      flush();
    };

    for (;;) {
      this.skipBlanks();
      const c = this.at();
      if (c === undefined) {
        if (nested) this.fail("Unterminated substitution: missing ')'.");
        if (depth > 0) this.fail("Unclosed '(': missing ')'.");
        if (state === "binary") {
          this.fail(
            "Command ends with an operator ('&&', '||' or '|') that has no command after it.",
          );
        }
        if (this.pendingHeredocs.length > 0) {
          this.fail("Here-document has no body: the command ends on the line of its '<<'.");
        }
        flush();
        return segments;
      }
      if (c === "#") {
        this.flags.hasComment = true;
        const end = this.src.indexOf("\n", this.pos);
        this.pos = end === -1 ? this.src.length : end;
        continue;
      }
      if (c === "\n") {
        this.pos++;
        this.readHeredocBodies();
        // A newline after `&&`, `||` or `|` continues the command, as in the shell.
        if (state === "command") {
          flush();
          state = "empty";
        }
        continue;
      }
      if (c === ";") {
        separator(";");
        this.pos++;
        state = "empty";
        continue;
      }
      if (c === "&" && this.at(1) !== "&" && this.at(1) !== ">") {
        separator("&");
        this.pos++;
        this.flags.hasBackground = true;
        state = "empty";
        continue;
      }
      if ((c === "&" && this.at(1) === "&") || c === "|") {
        const token =
          c === "&" ? "&&" : this.at(1) === "|" ? "||" : this.at(1) === "&" ? "|&" : "|";
        separator(token);
        // `|&` pipes standard error too: a redirection in disguise.
        if (token === "|&") this.flags.hasRedirection = true;
        this.pos += token.length;
        state = "binary";
        continue;
      }
      if (c === "(") {
        this.flags.hasSubshell = true;
        flush();
        this.pos++;
        depth++;
        state = "empty";
        continue;
      }
      if (c === ")") {
        if (state === "binary")
          this.fail(`Unexpected ')' at offset ${this.pos}: no command before it.`);
        this.pos++;
        if (depth === 0) {
          if (!nested) this.fail(`Unexpected ')' at offset ${this.pos - 1}: no '(' opens it.`);
          flush();
          return segments;
        }
        depth--;
        flush();
        // `(a) && b`: what follows a closed group is what follows a command.
        hasContent = false;
        state = "command";
        continue;
      }
      if ((c === "<" || c === ">" || c === "&") && this.at(1) !== "(") {
        this.readRedirection();
        hasContent = true;
        state = "command";
        continue;
      }
      const { word, isFdPrefix } = this.readWord();
      if (!isFdPrefix) current.push(word);
      hasContent = true;
      state = "command";
    }
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
  private readRedirection(): void {
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
      this.pendingHeredocs.push({
        delimiter: word.value,
        stripTabs: operator === "<<-",
        // An unquoted delimiter means the body is expanded like a double-quoted string.
        expands: word.value === word.shadow,
      });
    }
  }

  /** After a newline, consumes the bodies of the here-documents opened on the line before it. */
  private readHeredocBodies(): void {
    for (const heredoc of this.pendingHeredocs) {
      for (;;) {
        if (this.pos >= this.src.length) {
          this.fail(`Here-document delimited by '${heredoc.delimiter}' is not terminated.`);
        }
        const end = this.src.indexOf("\n", this.pos);
        const line = this.src.slice(this.pos, end === -1 ? this.src.length : end);
        this.pos = end === -1 ? this.src.length : end + 1;
        const compared = heredoc.stripTabs ? line.replace(/^\t+/, "") : line;
        if (compared === heredoc.delimiter) break;
        if (heredoc.expands) this.flagBodyExpansions(line);
      }
    }
    this.pendingHeredocs = [];
  }

  /** Flags what an expanding here-document body would run or expand (over-approximated). */
  private flagBodyExpansions(line: string): void {
    if (line.includes("`") || line.includes("$(")) this.flags.hasSubstitution = true;
    if (/\$[A-Za-z_{@*#?$!0-9-]/.test(line)) this.flags.hasExpansion = true;
  }

  /** Reads one word starting at `pos` (which is not a blank nor an operator). */
  private readWord(): WordResult {
    let value = "";
    let shadow = "";
    const append: Append = (text, literal) => {
      value += text;
      shadow += literal ? text : "\0".repeat(text.length);
    };
    for (;;) {
      const c = this.at();
      if (c === undefined) break;
      if (c === "<" || c === ">") {
        if (this.at(1) !== "(") break;
        const start = this.pos;
        this.pos += 2;
        this.flags.hasSubstitution = true;
        this.parseNested();
        append(this.src.slice(start, this.pos), false);
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
        this.readBackticks(append);
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
    const next = this.at();
    const isFdPrefix =
      (next === "<" || next === ">") &&
      this.at(1) !== "(" &&
      value === shadow &&
      fdPrefix.test(value);
    return { word: { value, shadow }, isFdPrefix };
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
        this.readBackticks(append);
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
  private readBackticks(append: Append): void {
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
    append(this.src.slice(start, this.pos), false);
  }

  /** Reads what starts with `$` at `pos`: a substitution, an expansion, or a literal `$`. */
  private readDollar(append: Append, inDoubleQuotes: boolean): void {
    const start = this.pos;
    const next = this.at(1);
    const keep = () => append(this.src.slice(start, this.pos), false);
    const quoteInside = inDoubleQuotes && (next === '"' || next === "'");
    if (next === undefined || literalAfterDollar.has(next) || quoteInside) {
      append("$", !inDoubleQuotes);
      this.pos++;
      return;
    }
    if (next === "(") {
      // `$(...)` and arithmetic `$((...))` alike: the nested text is a program.
      this.flags.hasSubstitution = true;
      this.pos += 2;
      this.parseNested();
      keep();
      return;
    }
    this.flags.hasExpansion = true;
    if (next === "{") {
      this.pos += 2;
      this.skipParameterExpansion(start);
    } else if (nameStart.test(next)) {
      this.pos += 2;
      while (this.at() !== undefined && nameChar.test(this.at() as string)) this.pos++;
    } else if (digit.test(next) || specialParameters.has(next)) {
      this.pos += 2;
    } else if (next === "'" && !inDoubleQuotes) {
      // ANSI-C quoting: its escapes decode to text this lexer does not compute.
      this.pos += 2;
      for (;;) {
        const c = this.at();
        if (c === undefined) this.fail(`Unterminated $'...' quote starting at offset ${start}.`);
        this.pos += c === "\\" ? 2 : 1;
        if (c === "'") break;
      }
    } else if (next === '"' && !inDoubleQuotes) {
      // `$"..."` is a translated string: the `$` is dropped and the quotes read as usual.
      this.pos++;
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
        this.readBackticks(discard);
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

  /** Reads a nested program up to and including its closing `)`. */
  private parseNested(): void {
    this.enter();
    this.parseList(true);
    this.nesting--;
  }

  private enter(): void {
    this.nesting++;
    if (this.nesting > maxNesting) {
      this.fail(`Substitutions are nested more than ${maxNesting} deep.`);
    }
  }
}

/**
 * Splits a command line into simple commands and words, flagging every construct whose effect
 * the text alone does not tell.
 *
 * @internal
 */
export function lexShellCommand(command: string): ShellSyntax {
  if (typeof command !== "string") return { ok: false, error: "Command is not a string." };
  const forbidden = findForbiddenCharacter(command);
  if (forbidden !== -1) {
    const code = command.charCodeAt(forbidden);
    const what =
      code === 0
        ? "a NUL byte"
        : `the control character U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
    return { ok: false, error: `Command contains ${what} at offset ${forbidden}.` };
  }
  const lexer = new Lexer(command);
  try {
    const segments = lexer.parseProgram();
    if (segments.length === 0) return { ok: false, error: "Command is empty." };
    return { ok: true, segments, flags: { ...lexer.flags } };
  } catch (error) {
    if (error instanceof ShellSyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}
