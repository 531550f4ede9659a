const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why `text` could not be stored and read back unchanged on both dialects, or `undefined` when
 * it can: PostgreSQL refuses the NUL character in text, and UTF-8 has no lone surrogates (the
 * driver would turn them into U+FFFD). Used for the permission and call stores' keys and fields,
 * which must come back exactly as they went in (JSON columns are safe: `JSON.stringify` escapes
 * both).
 */
export function unstorableTextReason(text: string): string | undefined {
  if (text.includes("\0")) return "contains a NUL character, which PostgreSQL cannot store";
  if (loneSurrogate.test(text)) return "contains a lone UTF-16 surrogate, which is not valid text";
  return undefined;
}
