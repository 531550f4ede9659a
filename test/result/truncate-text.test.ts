import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AinternError } from "../../src/core/index.js";
import { truncateText, truncationMarker } from "../../src/result/index.js";

const markerPattern = /… \[truncated ([\d,]+) of ([\d,]+) characters\]$/;

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** The kept prefix and the reported cut of a truncated text. */
function split(result: string): { kept: string; cut?: number; total?: number } {
  const match = markerPattern.exec(result);
  if (match === null) return { kept: result };
  return {
    kept: result.slice(0, match.index),
    cut: Number(match[1]?.replaceAll(",", "")),
    total: Number(match[2]?.replaceAll(",", "")),
  };
}

// Strings rich in surrogate pairs: emoji, skin tones, flags, plus ASCII and accents.
const emojiText = fc.string({
  unit: fc.constantFrom("a", "é", "😀", "👍🏽", "🇫🇷", "𝔸", "\n", "中"),
  maxLength: 400,
});
const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 400 }), emojiText);
const limit = fc.integer({ min: 0, max: 450 });

describe("truncateText properties", () => {
  it("never returns more than maxLength characters, marker included", () => {
    fc.assert(
      fc.property(anyText, limit, (text, maxLength) => {
        expect(truncateText(text, maxLength).length).toBeLessThanOrEqual(maxLength);
      }),
      { numRuns: 2000 },
    );
  });

  it("returns text that fits unchanged", () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(truncateText(text, text.length)).toBe(text);
        expect(truncateText(text, text.length + 10)).toBe(text);
      }),
    );
  });

  it("keeps a prefix of the text and never splits a surrogate pair", () => {
    fc.assert(
      fc.property(anyText, limit, (text, maxLength) => {
        const { kept } = split(truncateText(text, maxLength));
        expect(text.startsWith(kept)).toBe(true);
        const at = kept.length;
        if (at > 0 && at < text.length) {
          expect(isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at))).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("says exactly how much was cut of how much", () => {
    fc.assert(
      fc.property(anyText, limit, (text, maxLength) => {
        const result = truncateText(text, maxLength);
        const { kept, cut, total } = split(result);
        if (cut !== undefined) {
          expect(cut).toBe(text.length - kept.length);
          expect(total).toBe(text.length);
          expect(cut).toBeGreaterThan(0);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("uses the room it has: at most one character short of the limit beside the marker", () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 200, maxLength: 2000 }),
        fc.integer({ min: 60, max: 199 }),
        (text, maxLength) => {
          const result = truncateText(text, maxLength);
          const longest = truncationMarker(text.length, text.length).length;
          const { kept } = split(result);
          expect(kept.length).toBeGreaterThanOrEqual(maxLength - longest - 1);
        },
      ),
    );
  });
});

describe("truncateText", () => {
  it("appends a marker with grouped counts", () => {
    const result = truncateText("x".repeat(60_000), 50_000);

    expect(result.length).toBeLessThanOrEqual(50_000);
    expect(result).toMatch(/^x+… \[truncated 10,0\d\d of 60,000 characters\]$/);
  });

  it("hard-cuts within the limit when the marker does not fit", () => {
    expect(truncateText("abcdefghijklmnopqrstuvwxyz".repeat(4), 10)).toBe("abcdefghij");
    expect(truncateText("abc", 0)).toBe("");
    expect(truncateText("a😀b", 2)).toBe("a");
  });

  it("drops an emoji whole rather than splitting it", () => {
    const text = `${"😀".repeat(100)}`;
    const result = truncateText(text, 101);
    const { kept } = split(result);

    expect(kept.length % 2).toBe(0);
    expect([...kept].every((char) => char === "😀")).toBe(true);
  });

  it("rounds a fractional limit down and treats Infinity as no limit", () => {
    expect(truncateText("abcdef", 3.9)).toBe("abc");
    expect(truncateText("abcdef", Number.POSITIVE_INFINITY)).toBe("abcdef");
  });

  it("rejects a negative or NaN limit with INVALID_MAX_LENGTH", () => {
    expect(() => truncateText("abc", -1)).toThrow(AinternError);
    try {
      truncateText("abc", Number.NaN);
      expect.unreachable();
    } catch (error) {
      expect(AinternError.isInstance(error) && error.code).toBe("INVALID_MAX_LENGTH");
    }
  });
});
