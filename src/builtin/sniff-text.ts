import { isUtf8 } from "node:buffer";

/** How many leading bytes decide whether a file is text. */
export const sniffLength = 8192;

/**
 * True when `sample` (the first bytes of a file) looks like UTF-8 text: no NUL byte, and valid
 * UTF-8 except possibly a multi-byte character cut off at the end of the sample.
 *
 * @internal
 */
export function looksLikeText(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false;
  // A character cut by the sample's end is at most 3 bytes long; try a shorter prefix for it.
  // (isUtf8 checks without decoding: no string is made of the sample.)
  for (let cut = 0; cut <= Math.min(3, sample.length); cut++) {
    if (isUtf8(sample.subarray(0, sample.length - cut))) return true;
    if (sample.length < sniffLength) return false;
  }
  return false;
}

/**
 * The longest prefix of `bytes` that ends on a UTF-8 character boundary (so decoding it never
 * shows a replacement character for a character cut in two).
 *
 * @internal
 */
export function trimToCharBoundary(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  // Step back over continuation bytes (10xxxxxx) to the lead byte of the last character.
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && ((bytes[end - back - 1] as number) & 0xc0) === 0x80) {
    back++;
  }
  const leadIndex = end - back - 1;
  if (leadIndex < 0) return bytes.subarray(0, 0);
  const lead = bytes[leadIndex] as number;
  const needed = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (needed !== back + 1) end = leadIndex;
  return bytes.subarray(0, end);
}
