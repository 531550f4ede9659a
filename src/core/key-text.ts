/**
 * The most UTF-16 code units an id that becomes a database key may have (execution id, call id,
 * session id, batch id, permission id). PostgreSQL refuses a btree index entry past about
 * 2,700 bytes, and one such entry makes every later insert, and the recovery on open, fail; 512
 * code units are at most 1,536 bytes of UTF-8, far from that bound and far above any provider's
 * call id (about 40).
 */
export const MAX_KEY_LENGTH = 512;

// C0 controls (NUL included), DEL and the C1 controls: never part of an id, and NUL cannot be
// stored in PostgreSQL text at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point.
const controlCharacter = /[\u0000-\u001f\u007f-\u009f]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: replacing them is the point.
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/g;
const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `text` cannot be an id stored as a database key, or `undefined` when it can: empty, longer
 * than {@link MAX_KEY_LENGTH}, holding a control character (NUL included), or a lone UTF-16
 * surrogate. The reason reads after the field name: `"executionId is 3,000 characters long…"`.
 *
 * @example
 * ```ts
 * keyTextProblem("call_abc"); // undefined
 * keyTextProblem("a\u0000b"); // "contains the control character U+0000 at index 1; …"
 * ```
 */
export function keyTextProblem(text: string): string | undefined {
  if (text.length === 0) return "is empty";
  if (text.length > MAX_KEY_LENGTH) {
    return `is ${text.length.toLocaleString("en-US")} characters long; an id may have at most ${MAX_KEY_LENGTH}`;
  }
  const control = controlCharacter.exec(text);
  if (control !== null) {
    const code = control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    return `contains the control character U+${code} at index ${control.index}; an id may hold printable characters only`;
  }
  if (loneSurrogate.test(text)) return "contains a lone UTF-16 surrogate, which is not valid text";
  return undefined;
}

/** `text` with each control character (see {@link keyTextProblem}) replaced by U+FFFD. */
export function replaceControlCharacters(text: string): string {
  return text.replace(controlCharacters, "\uFFFD");
}
