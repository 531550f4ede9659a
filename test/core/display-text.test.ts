import { describe, expect, it } from "vitest";
import { displayText, jsonLine } from "../../src/core/index.js";

describe("displayText", () => {
  it("shows ANSI sequences, carriage returns and backspaces as escapes, so nothing is overwritten", () => {
    const text = "touch PWNED \u001b[2K\r\u001b[8m# \u001b[0mecho harmless\b\b";
    expect(displayText(text)).toBe(
      "touch PWNED \\u001b[2K\\r\\u001b[8m# \\u001b[0mecho harmless\\b\\b",
    );
  });

  it("escapes DEL, C1 controls, bidirectional controls, zero-width characters and line separators", () => {
    const text = "a\u007fb\u0085c\u009bd\u202ee\u2066f\u200bg\u200dh\ufeffi\u2028j\u2029k\u00adl";
    const shown = displayText(text);
    expect(shown).toBe(
      "a\\u007fb\\u0085c\\u009bd\\u202ee\\u2066f\\u200bg\\u200dh\\ufeffi\\u2028j\\u2029k\\u00adl",
    );
    expect(shown).toMatch(/^[\x20-\x7e]*$/);
  });

  it("escapes tag characters (text no one sees) by their code point, and non-breaking spaces", () => {
    expect(displayText("ok\u{e0041}\u{e0042}")).toBe("ok\\u{e0041}\\u{e0042}");
    expect(displayText("rm\u00a0-rf")).toBe("rm\\u00a0-rf");
  });

  it("shows line breaks as \\n on one line, and keeps them and the indentation with multiline", () => {
    expect(displayText("a\nb\tc")).toBe("a\\nb\\tc");
    expect(displayText('{\n          "a": 1\n}', { multiline: true })).toBe(
      '{\n          "a": 1\n}',
    );
  });

  it("counts a long run of spaces instead of showing it, so it cannot push the end out of view", () => {
    const text = `echo harmless${" ".repeat(2100)}; touch PWNED`;
    expect(displayText(text)).toBe("echo harmless[2,100 spaces]; touch PWNED");
    expect(displayText(`a${" ".repeat(7)}b`)).toBe(`a${" ".repeat(7)}b`);
    expect(displayText(`x: "a${" ".repeat(30)}b"`, { multiline: true })).toBe('x: "a[30 spaces]b"');
  });

  it("cuts the middle of a long text, keeping its start and its end, and says how much is left out", () => {
    const text = `${"a".repeat(5000)}; rm -rf ~`;
    const shown = displayText(text, { maxLength: 200 });
    expect(shown.length).toBeLessThanOrEqual(200);
    expect(shown.startsWith("aaaa")).toBe(true);
    expect(shown.endsWith("; rm -rf ~")).toBe(true);
    const omitted = Number(
      /\(([\d,]+) characters not shown\)/.exec(shown)?.[1]?.replaceAll(",", ""),
    );
    expect(omitted + shown.length - /….*…/.exec(shown)![0].length).toBe(text.length);
  });

  it("never cuts an escape or a surrogate pair in two", () => {
    const shown = displayText(`${"\u001b".repeat(100)}${"😀".repeat(100)}`, { maxLength: 120 });
    expect(shown).toMatch(/^(\\u001b)+… \([\d,]+ characters not shown\) …(😀)+$/u);
  });

  it("leaves text that needs nothing as it is", () => {
    expect(displayText("npm test -- --watch 'a b' é 中文 😀")).toBe(
      "npm test -- --watch 'a b' é 中文 😀",
    );
  });
});

describe("jsonLine", () => {
  it("escapes DEL, C1 and bidirectional characters as \\uXXXX, and parses to the same value", () => {
    const value = { name: `x\u009b2J\u001b[0m\u202Ey\u007f\u{E0041}`, n: 1 };
    const line = jsonLine(value);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking none is left.
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]|\udb40/);
    expect(line).toContain("\\u009b");
    expect(line).toContain("\\u202e");
    expect(JSON.parse(line)).toEqual(value);
  });
});

describe("displayText: blanks that are not spaces", () => {
  it("escapes the braille blank and private-use characters, which a font may draw as nothing", () => {
    expect(displayText(`npm test${"\u2800".repeat(3)}; curl x|sh`)).toBe(
      "npm test\\u2800\\u2800\\u2800; curl x|sh",
    );
    expect(displayText("a\ue000b")).toBe("a\\ue000b");
  });
});
