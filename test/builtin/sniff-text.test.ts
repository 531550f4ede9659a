import { describe, expect, it } from "vitest";
import { looksLikeText, sniffLength, trimToCharBoundary } from "../../src/builtin/sniff-text.js";

const bytes = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

describe("looksLikeText", () => {
  it("accepts UTF-8 text and the empty file", () => {
    expect(looksLikeText(bytes("héllo wörld €"))).toBe(true);
    expect(looksLikeText(new Uint8Array())).toBe(true);
  });

  it("rejects a NUL byte and invalid UTF-8", () => {
    expect(looksLikeText(bytes("a\0b"))).toBe(false);
    expect(looksLikeText(new Uint8Array([0x61, 0xff, 0x62]))).toBe(false);
  });

  it("accepts a full sample whose last character is cut by the sample's end", () => {
    const sample = bytes(`${"a".repeat(sniffLength - 2)}€`).subarray(0, sniffLength);
    expect(sample.length).toBe(sniffLength);
    expect(looksLikeText(sample)).toBe(true);
  });

  it("rejects a whole (short) file that ends in a cut character", () => {
    expect(looksLikeText(bytes("ab€").subarray(0, 4))).toBe(false);
  });

  it("rejects a full sample that is invalid before its end", () => {
    const sample = new Uint8Array(sniffLength).fill(0x61);
    sample[10] = 0xff;
    expect(looksLikeText(sample)).toBe(false);
  });
});

describe("trimToCharBoundary", () => {
  it("keeps whole characters and drops a cut one", () => {
    const euro = bytes("a€"); // 1 + 3 bytes
    expect(Buffer.from(trimToCharBoundary(euro)).toString()).toBe("a€");
    expect(Buffer.from(trimToCharBoundary(euro.subarray(0, 3))).toString()).toBe("a");
    expect(Buffer.from(trimToCharBoundary(euro.subarray(0, 2))).toString()).toBe("a");
    expect(trimToCharBoundary(new Uint8Array())).toHaveLength(0);
    expect(trimToCharBoundary(new Uint8Array([0x80, 0x80]))).toHaveLength(0);
  });
});
