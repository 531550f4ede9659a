/**
 * Characters that must never reach a person's terminal, a spreadsheet or a dialog as they are:
 * C0 controls (ESC starts terminal commands, BEL ends OSC ones such as a clipboard write), DEL,
 * C1 controls (U+009B is a one-character CSI), and the invisible formatting characters that
 * reorder or hide text ("Trojan Source"): bidirectional marks, embeddings, overrides and
 * isolates, zero-width characters, line and paragraph separators, the byte-order mark, the
 * interlinear annotation characters, and Unicode tags (U+E0000-U+E007F, invisible ASCII).
 * Global: for `replace` and `matchAll` (its `lastIndex` makes `test` stateful).
 */
export const UNSAFE_DISPLAY_CHARACTERS: RegExp =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
  /[\u0000-\u001f\u007f-\u009f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|\udb40[\udc00-\udc7f]/g;

/** Options of {@link displayText}. */
export interface DisplayTextOptions {
  /** Keep line feeds (`\n`) as line breaks, for a message of several lines. Default false. */
  readonly multiline?: boolean;
}

/**
 * `text` safe to print where a person reads it (a terminal, a log, a dialog): each character of
 * {@link UNSAFE_DISPLAY_CHARACTERS} is shown as its escape, so it is seen and does nothing. Line
 * feed, carriage return and tab become `\n`, `\r`, `\t`, other controls `\x1b` (C0, DEL) or
 * `\x9b` (C1), formatting characters their code point (`[U+202E]`). Text with none is returned
 * as it is. Every field a CLI command prints from a model, a tool, an upstream server or a
 * configuration goes through this.
 *
 * @example
 * ```ts
 * displayText("ok\u001b[2K\rSafe"); // "ok\\x1b[2K\\rSafe"
 * displayText("abc\u202Etxt.exe"); // "abc[U+202E]txt.exe"
 * displayText("a\nb", { multiline: true }); // "a\nb"
 * ```
 */
export function displayText(text: string, options: DisplayTextOptions = {}): string {
  return text.replace(UNSAFE_DISPLAY_CHARACTERS, (c) => {
    if (c === "\n") return options.multiline === true ? c : "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    const code = c.codePointAt(0)!;
    if (code <= 0x9f) return `\\x${code.toString(16).padStart(2, "0")}`;
    return `[U+${code.toString(16).toUpperCase().padStart(4, "0")}]`;
  });
}

/**
 * `value` as one line of JSON in which every character of {@link UNSAFE_DISPLAY_CHARACTERS} is
 * written as a `\uXXXX` escape: `JSON.stringify` escapes C0 controls but leaves DEL, C1 controls
 * and bidirectional or invisible characters raw, and a terminal or a viewer would act on them. The
 * result parses to the same value.
 *
 * @example
 * ```ts
 * jsonLine({ name: "a\u009b2Jb" }); // '{"name":"a\\u009b2Jb"}'
 * ```
 */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE_DISPLAY_CHARACTERS, (c) => {
    let escaped = "";
    for (let i = 0; i < c.length; i++)
      escaped += `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`;
    return escaped;
  });
}
