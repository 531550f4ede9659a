import { describe, expect, it } from "vitest";
import { displayText, jsonLine, jsonTextForEditing } from "../../src/core/index.js";

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

describe("displayText: a backslash", () => {
  it("is shown as \\\\, so a real line break and the text \\n never look alike", () => {
    const real = "echo 'ok'\nrm -rf ~/x";
    const literal = "echo 'ok'\\nrm -rf ~/x";
    expect(displayText(real)).toBe("echo 'ok'\\nrm -rf ~/x");
    expect(displayText(literal)).toBe("echo 'ok'\\\\nrm -rf ~/x");
    expect(displayText(real)).not.toBe(displayText(literal));
  });

  it("is shown as \\\\, so a real ESC and the text \\u001b never look alike", () => {
    const real = "printf '\u001b[2K'";
    const literal = "printf '\\u001b[2K'";
    expect(displayText(real)).toBe("printf '\\u001b[2K'");
    expect(displayText(literal)).toBe("printf '\\\\u001b[2K'");
    expect(displayText(`a\\\u001bb`)).toBe("a\\\\\\u001bb");
  });

  it("is escaped with multiline too, where \\r and \\t are", () => {
    expect(displayText("a\\r\n\tb\r", { multiline: true })).toBe("a\\\\r\n\\tb\\r");
  });

  it("is never cut in two past maxLength: no lone backslash joins what follows", () => {
    for (let maxLength = 40; maxLength <= 60; maxLength++) {
      const shown = displayText(`${"\\".repeat(100)}n${"\\".repeat(100)}`, { maxLength });
      const [head, tail] = shown.split(/… \([\d,]+ characters not shown\) …/);
      expect(head).toMatch(/^(\\\\)*$/);
      expect(tail).toMatch(/^(\\\\)*$/);
      expect(shown.length).toBeLessThanOrEqual(maxLength);
    }
    const shown = displayText(`x${"\\".repeat(30)}${" ".repeat(100)}y`, { maxLength: 44 });
    expect(shown).toMatch(/^x(\\\\)*… \([\d,]+ characters not shown\) …(\[100 spaces\])?y$/);
  });

  it("is left alone with keepControls, for text JSON.stringify escapes next", () => {
    expect(displayText("a\\nb\u001b", { keepControls: true })).toBe("a\\nb\u001b");
    const json = JSON.stringify({ v: displayText("a\\n\nb", { keepControls: true }) });
    expect(json).toBe('{"v":"a\\\\n\\nb"}');
  });

  it("is left alone in JSON text with keepBackslashes, whose escapes are never cut in two", () => {
    const json = JSON.stringify({ real: "a\nb", text: "a\\nb", bidi: "\u202e" });
    expect(displayText(json, { keepBackslashes: true })).toBe(
      '{"real":"a\\nb","text":"a\\\\nb","bidi":"\\u202e"}',
    );
    for (let maxLength = 40; maxLength <= 60; maxLength++) {
      const shown = displayText(JSON.stringify(`${"\u0001".repeat(50)}`), {
        maxLength,
        keepBackslashes: true,
      });
      expect(shown).toMatch(/^"(\\u0001)*… \([\d,]+ characters not shown\) …(\\u0001)*"$/);
    }
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

describe("displayText: marks that draw nothing, or over other lines", () => {
  it("escapes Mongolian free variation selectors, which draw nothing (rm, U+180B, -rf reads as rm -rf)", () => {
    expect(displayText("rm\u180b\u180c\u180d\u180f -rf")).toBe(
      "rm\\u180b\\u180c\\u180d\\u180f -rf",
    );
    expect(displayText("rm\u180b -rf")).not.toBe(displayText("rm -rf"));
  });

  it("escapes every default-ignorable code point, whatever its category", () => {
    for (let code = 0; code <= 0x10ffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCodePoint(code);
      if (/\p{Default_Ignorable_Code_Point}/u.test(character)) {
        expect([code, displayText(`a${character}b`)]).not.toEqual([code, `a${character}b`]);
      }
    }
  });

  it("escapes a combining mark past the fourth on one letter, so a stack cannot cover other lines", () => {
    expect(displayText("e\u0301\u0302")).toBe("e\u0301\u0302");
    const stack = `rm -rf ~ #${"\u0489".repeat(200)}`;
    const shown = displayText(stack, { maxLength: 2_000 });
    expect(shown.startsWith(`rm -rf ~ #${"\u0489".repeat(4)}\\u0489`)).toBe(true);
    expect(shown.match(/\p{M}/gu)).toHaveLength(4);
    const json = displayText(JSON.stringify({ v: stack }), { keepBackslashes: true });
    expect(json.match(/\p{M}/gu)).toHaveLength(4);
    expect(JSON.parse(json)).toEqual({ v: stack });
  });
});

describe("displayText: text drawn right to left", () => {
  it("escapes right-to-left letters, so the punctuation between them is drawn where it is", () => {
    // Drawn as `cat ב < א` by a terminal or browser: a redirection reading the other file.
    expect(displayText("cat א > ב")).toBe("cat \\u05d0 > \\u05d1");
    expect(displayText("cp ملف.txt /tmp")).toBe("cp \\u0645\\u0644\\u0641.txt /tmp");
    // Arabic-Indic digits, presentation forms, and scripts past U+FFFF (Adlam).
    expect(displayText("x\u0661 \ufb2a \u{1e900}")).toBe("x\\u0661 \\ufb2a \\u{1e900}");
  });

  it("leaves left-to-right scripts and symbols as they are", () => {
    expect(displayText("ls 文件 файл αβγ café → ✓")).toBe("ls 文件 файл αβγ café → ✓");
  });

  it("escapes them in JSON text too, and leaves them to that pass with keepControls", () => {
    expect(displayText('{"path": "א"}', { keepBackslashes: true })).toBe('{"path": "\\u05d0"}');
    expect(displayText("א", { keepControls: true })).toBe("א");
  });
});

describe("displayText: text that reads as its own notes", () => {
  it("escapes a literal [30 spaces], which would pass for a run of spaces", () => {
    expect(displayText("echo [30 spaces] hi")).toBe("echo \\u005b30 spaces] hi");
    expect(displayText(`echo${" ".repeat(30)}hi`)).toBe("echo[30 spaces]hi");
    expect(displayText("a[1] [x spaces]")).toBe("a[1] [x spaces]");
  });

  it("escapes a literal cut note, which would pass for text left out", () => {
    expect(displayText("rm … (1,234 characters not shown) … x")).toBe(
      "rm \\u2026 (1,234 characters not shown) … x",
    );
    expect(displayText("wait…")).toBe("wait…");
    const cut = displayText(`${"a".repeat(100)}z`, { maxLength: 60 });
    expect(cut).toMatch(/^a+… \([\d,]+ characters not shown\) …a*z$/);
  });
});

describe("jsonTextForEditing", () => {
  const values: unknown[] = [
    { command: "echo done #\u202e ~ fr- mr\u202c" },
    { path: "cat \u05d0 > \u05d1", name: "\u0627\u0644\u0645\u0644\u0641 1 2" },
    { tag: "a\u{E0041}b", lone: "x\ud800y", zero: "a\u200bb\u2060c\ufeff" },
    { marks: "Z\u0301\u0302\u0303\u0304\u0305\u0306\u0307", c1: "\u009b2J", del: "\u007f" },
    { backslashes: "a\\\u202eb\\\\\u202ec", spaces: `a${" ".repeat(40)}b`, lines: "x\ny\tz" },
    ["\u2028", "\u2029", "\u00a0", "\u3000", { "\u202ekey": 1 }],
  ];

  it.each(values)(
    "parses to the same value, with nothing left that draws out of place: %j",
    (value) => {
      const text = jsonTextForEditing(JSON.stringify(value, null, 2));
      expect(JSON.parse(text)).toEqual(value);
      expect(text).not.toMatch(
        /[\u202a-\u202e\u2066-\u2069\u200b\u2060\ufeff\u0590-\u08ff\u009b\u007f\u2028\u2029\u00a0\u3000]|\p{Cs}|\u{E0041}/u,
      );
      expect(text).not.toMatch(/\p{M}{5}/u);
      // Layout and runs of spaces are the person's to read and edit: kept.
      expect(text).toContain("\n  ");
    },
  );

  it("names a character after an odd run of backslashes by its code: an escape there would change the text", () => {
    // A backslash then U+05D0 is no JSON escape (the text does not parse); two backslashes and
    // `u05d0` would be valid JSON, meaning something else.
    const bs = "\\";
    expect(jsonTextForEditing(`"a${bs}\u05d0 > ${bs}\u05d1"`)).toBe(
      `"a${bs}[U+05D0] > ${bs}[U+05D1]"`,
    );
    expect(jsonTextForEditing(`"a${bs}${bs}\u05d0"`)).toBe(`"a${bs}${bs}${bs}u05d0"`);
    expect(jsonTextForEditing(`"${bs}\u{E0041}"`)).toBe(`"${bs}[U+E0041]"`);
  });

  it("reads a long run of backslashes once, not once for each of them", () => {
    // A run followed by a plain character was read again from each of its backslashes: 200,000
    // of them (400,000 in the JSON) would take about twenty minutes; read once, milliseconds.
    const text = JSON.stringify({ command: `echo ${"\\".repeat(200_000)}x \u202e` });
    expect(jsonTextForEditing(text).endsWith('x \\u202e"}')).toBe(true);
  });

  it("keeps JSON's own escapes and a stack of up to four marks", () => {
    expect(jsonTextForEditing('"a\\u202e\\n\\\\"')).toBe('"a\\u202e\\n\\\\"');
    expect(jsonTextForEditing('"e\u0301\u0302\u0303\u0304"')).toBe('"e\u0301\u0302\u0303\u0304"');
    expect(jsonTextForEditing('"e\u0301\u0302\u0303\u0304\u0305"')).toBe(
      '"e\u0301\u0302\u0303\u0304\\u0305"',
    );
  });
});
