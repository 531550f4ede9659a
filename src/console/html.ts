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
 * Bidirectional-text controls (embeddings, overrides, isolates): in a model's text they can make
 * what a person reads differ from what runs ("Trojan Source"), so they are shown as their code.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** `text` with its bidirectional-text controls shown as `[U+202E]`, so they cannot reorder it. */
export function visibleText(text: string): string {
  return text.replace(
    BIDI_CONTROLS,
    (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}]`,
  );
}

/**
 * `text` on one line: control characters (newlines, tabs, escape) shown as `\n`, `\t`, `\x1b`,
 * and bidirectional controls as their code. For names a person must read exactly (a file path).
 */
export function singleLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return visibleText(text).replace(/[\u0000-\u001f\u007f]/g, (c) => {
    if (c === "\n") return "\\n";
    if (c === "\r") return "\\r";
    if (c === "\t") return "\\t";
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`;
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
