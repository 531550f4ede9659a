/** Settings of {@link displayText}. */
export interface DisplayTextOptions {
  /**
   * Keep line breaks (`\n`) and the indentation that starts a line: for text laid out in lines
   * (a message, an indented JSON block). Default `false`: the text is shown on one line, a line
   * break as `\n`.
   */
  readonly multiline?: boolean;
  /**
   * The most characters shown; past it the middle is cut and replaced by a note saying how many
   * characters of the text are not shown, so both its start and its end stay visible. Default
   * no limit.
   */
  readonly maxLength?: number;
  /**
   * Leave the characters to escape as they are, backslashes too, only collapse runs of spaces
   * and cut: for text that a later step escapes anyway (a string value `JSON.stringify` writes).
   * Default `false`.
   */
  readonly keepControls?: boolean;
  /**
   * Leave backslashes as they are: for JSON text (what `JSON.stringify` writes), in which a
   * backslash already starts an escape and a literal one is already written `\\`. Its escapes
   * (`\n`, `\"`, `\u001b`) are shown whole or not at all past `maxLength`. Default `false`: a
   * backslash is shown as `\\`.
   */
  readonly keepBackslashes?: boolean;
}

/**
 * Characters a person cannot see, or that change how the text around them is drawn (one at a
 * time, not global): C0
 * controls, DEL and C1 controls (`\p{Cc}`: ESC starts the ANSI sequences that erase a terminal
 * line or hide text, CR returns over it, backspace rubs it out), format characters (`\p{Cf}`:
 * bidirectional controls, zero-width space and joiners, soft hyphen, BOM, tag characters), the
 * line and paragraph separators, spaces other than U+0020, lone surrogates, unassigned code
 * points, private-use characters (a font may draw them as anything), letters and marks that
 * draw nothing (Unicode's default-ignorable code points: Hangul fillers, combining grapheme
 * joiner, variation selectors, Mongolian free variation selectors), and the braille blank.
 */
export const hiddenCharacters: RegExp =
  /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Cn}\p{Default_Ignorable_Code_Point}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000\u2800\p{Co}]/u;

/**
 * Letters, marks and digits of the scripts written right to left (Hebrew, Arabic, Syriac,
 * Thaana, N'Ko, Samaritan, Mandaic, their presentation forms, and the historic and other scripts
 * of U+10800–U+10FFF and U+1E800–U+1EFFF). A terminal or a browser lays them out right to left
 * and pulls the punctuation between them along, with no control character at all: `cat א > ב`
 * can be drawn as `cat ב < א`, a redirection that reads the other file. Shown escaped, nothing
 * in the text is drawn out of its order.
 */
export const rightToLeftCharacters: RegExp =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * A combining mark after {@link maxStackedMarks} others in a row: a stack of them (`Z̸̢̛̗͓...`)
 * is drawn above and below the line, over the text of the lines around it. Text people write
 * rarely puts more on one letter; the rest of a longer stack is shown escaped.
 */
const maxStackedMarks = 4;
const stackedMark = `(?<=\\p{M}{${maxStackedMarks}})\\p{M}`;

/** A run of spaces this long or longer is shown by its length: it could push text out of view. */
const longSpaceRun = 8;

/**
 * The first character of text that reads as one of the notes shown for what is not drawn (`[30
 * spaces]`, `… (1,234 characters not shown) …`), written as such: escaped, it cannot pass for a
 * real run of spaces or a cut.
 */
const noteImitation = `\\[(?=[\\d,]+ spaces\\])|…(?= \\([\\d,]+ characters not shown\\) …)`;

/** A character drawn out of its place, or not at all: hidden, right to left, or a stacked mark. */
const misdrawn = `${hiddenCharacters.source}|${rightToLeftCharacters.source}|${stackedMark}`;

/**
 * What is shown otherwise: a long run of spaces, `backslash`, a {@link misdrawn} character, and
 * `extra`.
 */
function piecePattern(backslash: string, extra?: string): RegExp {
  return new RegExp(
    ` {${longSpaceRun},}|${backslash}|${misdrawn}${extra === undefined ? "" : `|${extra}`}`,
    "gu",
  );
}

/** The pieces of text to escape: a backslash among them, and what imitates a note. */
const pieceOf = piecePattern("\\\\", noteImitation);

/**
 * The same in JSON text ({@link DisplayTextOptions.keepBackslashes}): a JSON escape instead of a
 * backslash, kept as it is but never cut in two.
 */
const pieceOfJson = piecePattern(`\\\\(?:u[0-9a-fA-F]{4}|["\\\\/bfnrt])`);

const shortEscapes: Readonly<Record<string, string>> = {
  "\b": "\\b",
  "\t": "\\t",
  "\n": "\\n",
  "\f": "\\f",
  "\r": "\\r",
};

/** A part of the text: shown as `shown`, standing for `length` UTF-16 code units of it. */
interface Piece {
  readonly shown: string;
  readonly length: number;
  /** Shown whole or not at all (an escape, a run's note); plain text may be cut anywhere. */
  readonly whole: boolean;
}

/**
 * `text` as it may be shown to a person who must read exactly what it says (a command to
 * approve, its arguments): nothing in it can hide, reorder or overwrite other text.
 *
 * - Invisible and control characters are shown as escapes, as JSON writes them: `\n`, `\r`,
 *   `\t`, `\b`, `\f`, else `\u001b` (`\u{e0041}` past U+FFFF). That covers ANSI sequences
 *   (`\u001b[2K`), bidirectional controls (`\u202e`), zero-width characters (`\u200b`) and
 *   U+2028/U+2029. With `multiline`, `\n` is kept.
 * - A backslash is shown as `\\`, as JSON writes it, so every escape shown stands for one
 *   thing: a line break is `\n`, while the text `\n` (a backslash, then `n`, harmless in an
 *   `echo` argument where a line break would start another command) is `\\n`. JSON text, whose
 *   backslashes already escape, keeps them with `keepBackslashes`.
 * - A run of 8 or more spaces is shown as its length, `[2,100 spaces]` (with `multiline`,
 *   indentation at the start of a line is kept).
 * - Past `maxLength` the middle is cut: `start… (1,234 characters not shown) …end`. An escape
 *   (`\\` too) is shown whole or not at all, so no lone `\` is left to join what follows.
 *
 * @example
 * ```ts
 * displayText("rm -rf ~ \u001b[2K\recho hi"); // "rm -rf ~ \\u001b[2K\\recho hi"
 * displayText("echo 'ok'\nrm -rf ~/x"); // "echo 'ok'\\nrm -rf ~/x" (a line break)
 * displayText("echo 'ok'\\nrm -rf ~/x"); // "echo 'ok'\\\\nrm -rf ~/x" (a backslash, then n)
 * displayText(`echo hi${" ".repeat(2100)}; touch x`); // "echo hi[2,100 spaces]; touch x"
 * ```
 */
export function displayText(text: string, options: DisplayTextOptions = {}): string {
  const pieces = piecesOf(text, options);
  const maxLength = options.maxLength ?? Number.POSITIVE_INFINITY;
  const shownLength = pieces.reduce((sum, piece) => sum + piece.shown.length, 0);
  if (shownLength <= maxLength) return pieces.map((piece) => piece.shown).join("");
  return cutMiddle(pieces, text.length, maxLength);
}

function piecesOf(text: string, options: DisplayTextOptions): Piece[] {
  const pieces: Piece[] = [];
  let plainFrom = 0;
  for (const match of text.matchAll(options.keepBackslashes === true ? pieceOfJson : pieceOf)) {
    const found = match[0];
    const at = match.index;
    let shown: string;
    if (found.startsWith(" ")) {
      // Indentation is layout, not content, in a multiline block.
      const startsLine = at === 0 || text.charAt(at - 1) === "\n";
      if (options.multiline === true && startsLine) continue;
      shown = `[${groupDigits(found.length)} spaces]`;
    } else if (found.startsWith("\\")) {
      // A backslash as JSON writes it, so `\\n` (a backslash, then n) never reads as `\n` (a
      // line break); JSON's own escapes are already that.
      if (options.keepControls === true) continue;
      shown = options.keepBackslashes === true ? found : "\\\\";
    } else if (options.keepControls === true || (found === "\n" && options.multiline === true)) {
      continue;
    } else {
      shown = escapeCharacter(found);
    }
    if (at > plainFrom) pieces.push(plainPiece(text.slice(plainFrom, at)));
    pieces.push({ shown, length: found.length, whole: true });
    plainFrom = at + found.length;
  }
  if (plainFrom < text.length) pieces.push(plainPiece(text.slice(plainFrom)));
  return pieces;
}

function plainPiece(text: string): Piece {
  return { shown: text, length: text.length, whole: false };
}

function escapeCharacter(character: string): string {
  const short = shortEscapes[character];
  if (short !== undefined) return short;
  const code = character.codePointAt(0) ?? 0;
  const hex = code.toString(16);
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/**
 * The start and the end of the pieces, about half of `maxLength` each, around a note of how
 * many of the text's `totalLength` characters are left out.
 */
function cutMiddle(pieces: readonly Piece[], totalLength: number, maxLength: number): string {
  // The note's length for the whole text is the longest it can be.
  const budget = Math.max(0, maxLength - note(totalLength).length);
  const head = take(pieces, Math.ceil(budget / 2), "start");
  const tail = take(pieces.slice(head.count).reverse(), Math.floor(budget / 2), "end");
  const omitted = totalLength - head.length - tail.length;
  return `${head.shown}${note(omitted)}${tail.shown}`;
}

function note(omitted: number): string {
  return `… (${groupDigits(omitted)} characters not shown) …`;
}

/**
 * Pieces from one end of `pieces` (already reversed for the end) that fit in `budget` shown
 * characters: how many pieces were used whole, what they show, and how much text they stand for.
 */
function take(
  pieces: readonly Piece[],
  budget: number,
  from: "start" | "end",
): { count: number; shown: string; length: number } {
  const parts: string[] = [];
  let used = 0;
  let length = 0;
  let count = 0;
  for (const piece of pieces) {
    const room = budget - used;
    if (piece.shown.length <= room) {
      parts.push(piece.shown);
      used += piece.shown.length;
      length += piece.length;
      count++;
      continue;
    }
    if (!piece.whole && room > 0) {
      const part = from === "start" ? startOf(piece.shown, room) : endOf(piece.shown, room);
      parts.push(part);
      length += part.length;
    }
    break;
  }
  if (from === "end") parts.reverse();
  return { count, shown: parts.join(""), length };
}

/** The first `count` code units of `text`, one fewer when that would split a surrogate pair. */
function startOf(text: string, count: number): string {
  const code = text.charCodeAt(count - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? count - 1 : count);
}

/** The last `count` code units of `text`, one fewer when that would split a surrogate pair. */
function endOf(text: string, count: number): string {
  const from = text.length - count;
  const code = text.charCodeAt(from);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? from + 1 : from);
}

/** `12345` -> `"12,345"`, whatever the process locale. */
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** What {@link jsonLine} writes as `\uXXXX`: what {@link displayText} escapes, but for spaces. */
const hiddenInJson = new RegExp(hiddenCharacters.source, "gu");

/**
 * `value` as one line of JSON in which every character {@link displayText} would escape is
 * written as a `\uXXXX` escape: `JSON.stringify` escapes C0 controls but leaves DEL, C1 controls
 * (U+009B is a one-character CSI) and bidirectional or invisible characters raw, and a terminal
 * or a viewer would act on them. The result parses to the same value.
 *
 * @example
 * ```ts
 * jsonLine({ name: "a\u009b2Jb" }); // '{"name":"a\\u009b2Jb"}'
 * ```
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(hiddenInJson, utf16Escapes);
}

/** `text` as JSON `\uXXXX` escapes, one per UTF-16 code unit (a pair past U+FFFF). */
function utf16Escapes(text: string): string {
  let escaped = "";
  for (let i = 0; i < text.length; i++) {
    escaped += `\\u${text.charCodeAt(i).toString(16).padStart(4, "0")}`;
  }
  return escaped;
}

/**
 * In JSON text, a character that draws nothing or out of its place (what {@link displayText}
 * escapes, but for the tabs and line ends that lay the text out, and runs of spaces), with the
 * whole run of backslashes right before it. A match starts only where a run does: tried at each
 * backslash of a long run, the pattern would take time growing with the square of the run.
 */
const misdrawnInJson = new RegExp(`(?<!\\\\)(\\\\*)((?![\\n\\r\\t])(?:${misdrawn}))`, "gu");

/**
 * `[U+202E]`: a character named by its code point, for text where an escape would change what it
 * says (a file's content, JSON that does not parse).
 *
 * @internal
 */
export function codePointNote(character: string): string {
  const code = character.codePointAt(0) ?? 0;
  return `[U+${code.toString(16).toUpperCase().padStart(4, "0")}]`;
}

/**
 * JSON text for a person to read and edit (the console's editable arguments): every character
 * that could hide or reorder what the person reads (bidirectional controls, invisible
 * characters, right-to-left letters, a stack of marks) written as a JSON escape (`\u202e`,
 * `\u05d0`, a pair such as `\udb40\udc41` past U+FFFF). Unlike {@link displayText}'s notes and
 * `[U+202E]`, these escapes are JSON's own: the text parses to exactly the values it parsed to
 * before, so submitting it unchanged changes no argument. A character right after an odd run of
 * backslashes (an escape JSON does not have: text that does not parse, and will not) is named by
 * its code instead, `[U+202E]`: an escape there would turn the backslash into an escaped one.
 *
 * @example
 * ```ts
 * jsonTextForEditing('{"command":"echo \u202eok"}'); // '{"command":"echo \\u202eok"}'
 * ```
 */
export function jsonTextForEditing(text: string): string {
  return text.replace(
    misdrawnInJson,
    (_whole: string, backslashes: string, character: string) =>
      backslashes +
      (backslashes.length % 2 === 1 ? codePointNote(character) : utf16Escapes(character)),
  );
}
