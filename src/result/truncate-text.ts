import { AinternError } from "../core/index.js";

/** The default limit, in characters, of serialized result data (spec 004: 50000). */
export const defaultMaxDataLength = 50_000;

/**
 * Shortens `text` to at most `maxLength` UTF-16 code units, marker included, and says how much
 * was cut: `"{\"items\":[1,2… [truncated 12,345 of 60,000 characters]"`.
 *
 * - Text that already fits is returned unchanged.
 * - The cut never falls between the two halves of a surrogate pair (an emoji is kept or dropped
 *   whole), so the result may be one character shorter than the limit.
 * - When `maxLength` is too small to hold the marker, the text is hard-cut within the limit and
 *   no marker is added.
 *
 * @param maxLength A non-negative number of characters; fractions are rounded down and
 *   `Infinity` means no limit.
 * @throws AinternError `INVALID_MAX_LENGTH` when `maxLength` is negative or NaN.
 */
export function truncateText(text: string, maxLength: number): string {
  const limit = normalizeLimit(maxLength);
  if (text.length <= limit) return text;

  // The marker for the whole length is the longest this text can need: the count cut never
  // has more digits than the total.
  const longestMarker = truncationMarker(text.length, text.length).length;
  if (longestMarker > limit) return text.slice(0, cutIndex(text, limit));

  const kept = cutIndex(text, limit - longestMarker);
  return text.slice(0, kept) + truncationMarker(text.length - kept, text.length);
}

/** The note appended to truncated text: `"… [truncated 120 of 1,000 characters]"`. */
export function truncationMarker(cutLength: number, totalLength: number): string {
  return `… [truncated ${groupDigits(cutLength)} of ${groupDigits(totalLength)} characters]`;
}

/**
 * Checks a character limit and rounds it down. Internal to the folder.
 *
 * @throws AinternError `INVALID_MAX_LENGTH` when `maxLength` is negative or NaN.
 */
export function normalizeLimit(maxLength: number): number {
  if (Number.isNaN(maxLength) || maxLength < 0) {
    throw new AinternError(
      "INVALID_MAX_LENGTH",
      `maxLength must be a non-negative number of characters, got ${maxLength}.`,
    );
  }
  return Math.floor(maxLength);
}

/** Moves a cut back by one when it would separate a high surrogate from its low surrogate. */
function cutIndex(text: string, index: number): number {
  if (index <= 0 || index >= text.length) return Math.max(0, index);
  const before = text.charCodeAt(index - 1);
  const after = text.charCodeAt(index);
  const splitsPair = before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff;
  return splitsPair ? index - 1 : index;
}

/** `12345` -> `"12,345"`, independent of the process locale. */
function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
