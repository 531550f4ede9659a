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

/** `text` with `& < > " '` escaped, safe in element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
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
