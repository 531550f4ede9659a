import { describe, expect, it } from "vitest";
import { displayText, jsonLine } from "../../src/core/index.js";

const ESC = "\u001b";

describe("displayText", () => {
  it("shows terminal controls, C1 controls and DEL as escapes, so none reaches a terminal", () => {
    const text = displayText(
      `a${ESC}[1A${ESC}[2K\rb${ESC}]52;c;cHduZWQ=\u0007c\u009b2Jd\u007f\t\n`,
    );
    expect(text).toBe("a\\x1b[1A\\x1b[2K\\rb\\x1b]52;c;cHduZWQ=\\x07c\\x9b2Jd\\x7f\\t\\n");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking none is left.
    expect(text).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
  });

  it("shows bidirectional and invisible formatting characters as their code point", () => {
    expect(displayText("abc\u202Etxt.exe")).toBe("abc[U+202E]txt.exe");
    expect(displayText("\u2066x\u2069\u200B\uFEFF\u2028")).toBe(
      "[U+2066]x[U+2069][U+200B][U+FEFF][U+2028]",
    );
    expect(displayText("tag\u{E0041}")).toBe("tag[U+E0041]");
  });

  it("keeps line feeds in a message of several lines when asked, and plain text as it is", () => {
    expect(displayText("one\ntwo\r", { multiline: true })).toBe("one\ntwo\\r");
    expect(displayText("file-write  é 日本 🙂")).toBe("file-write  é 日本 🙂");
  });
});

describe("jsonLine", () => {
  it("escapes DEL, C1 and bidirectional characters as \\uXXXX, and parses to the same value", () => {
    const value = { name: `x\u009b2J${ESC}[0m\u202Ey\u007f\u{E0041}`, n: 1 };
    const line = jsonLine(value);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking none is left.
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]|\udb40/);
    expect(line).toContain("\\u009b");
    expect(line).toContain("\\u202e");
    expect(JSON.parse(line)).toEqual(value);
  });
});
