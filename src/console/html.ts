import { codePointNote, displayText, hiddenCharacters } from "../core/index.js";

/** Markup that is already safe: made only by {@link html} or {@link trustedHtml}. */
export class Html {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * What a person cannot see in a model's text, or what changes how the text around it is drawn
 * (bidirectional controls can make what a person reads differ from what runs, "Trojan Source";
 * zero-width and tag characters hide): {@link hiddenCharacters}, except the line ends and tabs
 * that lay out a file's content. A carriage return is a line end only before a newline: alone,
 * a diff draws what follows it on the same line or not at all, though JavaScript and Python
 * start a new line there, so it is shown as its code.
 */
const HIDDEN_IN_CONTENT = new RegExp(`(?![\n\t])(?!\r\n)${hiddenCharacters.source}`, "gu");

/** `text` with what {@link HIDDEN_IN_CONTENT} finds shown as its code (`[U+202E]`). */
export function visibleText(text: string): string {
  return text.replace(HIDDEN_IN_CONTENT, codePointNote);
}

/**
 * `text` on one line, for what a person must read exactly (a command to approve, a file path):
 * {@link displayText}, the escaping the approval form and the CLI use (control, bidirectional
 * and invisible characters as escapes, a newline as `\n`, a backslash as `\\`, so the text `\n`
 * never reads as a newline).
 */
export function singleLine(text: string): string {
  return displayText(text);
}

/**
 * `value` as indented JSON, as the approval form shows arguments: JSON's own escapes, and
 * {@link displayText}'s `\u202e` for the characters `JSON.stringify` leaves raw (not `[U+202E]`,
 * which a string could hold as text).
 */
export function shownJson(value: unknown): string {
  return displayText(JSON.stringify(value, null, 2) ?? "", {
    multiline: true,
    keepBackslashes: true,
  });
}

/**
 * `text` with `& < > " '` escaped, safe in element content and quoted attributes; bidirectional
 * controls are shown as their code ({@link visibleText}).
 */
export function escapeHtml(text: string): string {
  return visibleText(text).replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (part instanceof Html) return part.value;
  if (Array.isArray(part)) return (part as readonly Part[]).map(render).join("");
  return escapeHtml(String(part));
}

/**
 * The console's only way to build markup: every interpolated value is escaped unless it is
 * {@link Html} itself, so text from a model or a tool (arguments, results, reasons) is shown as
 * text, never as markup.
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? "";
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "");
  return new Html(out);
}

/** Markup from a library that escapes on its own (diff2html): used once, for the diff. */
export function trustedHtml(markup: string): Html {
  return new Html(markup);
}
