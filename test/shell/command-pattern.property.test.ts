import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { matchCommandPattern, parseCommand } from "../../src/shell/index.js";

/** Plain words: letters, digits and punctuation the shell does not interpret. */
const plainWord = fc.stringMatching(/^[a-z0-9_.,:=+@%/-]{1,8}$/);

/** A word written plainly, single-quoted or double-quoted; none of them runs anything. */
const safeWord = fc.oneof(
  plainWord,
  plainWord.map((w) => `'${w} ${w}'`),
  plainWord.map((w) => `"${w}"`),
);

const separator = fc.constantFrom(" && ", " || ", "; ", " | ", " & ", "\n");

/** Constructs that must keep a command from being approved, wherever they stand. */
const hazard = fc.oneof(
  plainWord.map((w) => `$(${w})`),
  plainWord.map((w) => `"$(${w})"`),
  plainWord.map((w) => `\`${w}\``),
  plainWord.map((w) => `"a\`${w}\`"`),
  plainWord.map((w) => `<(${w})`),
  plainWord.map((w) => `>(${w})`),
  plainWord.map((w) => `>${w}`),
  plainWord.map((w) => `> ${w}`),
  plainWord.map((w) => `>>${w}`),
  plainWord.map((w) => `<${w}`),
  plainWord.map((w) => `2>${w}`),
  plainWord.map((w) => `$${w.replace(/[^a-z_]/g, "") || "X"}`),
  plainWord.map((w) => `"\${${w.replace(/[^a-z_]/g, "") || "X"}}"`),
  fc.constant("2>&1"),
);

/** A command line of safe words and separators with one hazard placed somewhere among its words. */
const commandWithHazard = fc
  .tuple(
    fc.array(fc.array(safeWord, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
    fc.array(separator, { minLength: 3, maxLength: 3 }),
    hazard,
    fc.nat(),
    fc.nat(),
  )
  .map(([segments, separators, danger, segmentAt, wordAt]) => {
    // Copies: fast-check reuses generated values while shrinking, so they must not be mutated.
    const lines = segments.map((words) => [...words]);
    const target = lines[segmentAt % lines.length] as string[];
    target.splice(wordAt % (target.length + 1), 0, danger);
    return lines.map((words, i) => (i === 0 ? "" : separators[i - 1]) + words.join(" ")).join("");
  });

/**
 * An independent model of where `$(`, backticks, `<` and `>` are live: outside single quotes
 * (and, for `<` and `>`, outside double quotes too), not escaped by a backslash.
 */
function hasLiveHazard(command: string): boolean {
  let state: "none" | "single" | "double" = "none";
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    const next = command[i + 1];
    if (state === "single") {
      if (c === "'") state = "none";
      continue;
    }
    if (c === "\\") {
      i++;
      continue;
    }
    const substitution = c === "`" || (c === "$" && next === "(");
    if (state === "double") {
      if (c === '"') state = "none";
      else if (substitution) return true;
      continue;
    }
    if (c === "'") state = "single";
    else if (c === '"') state = "double";
    else if (substitution || c === "<" || c === ">") return true;
  }
  return false;
}

/** Quotes, escapes and operators: the characters a shell reads specially. */
const shellSpecials = [
  "'",
  '"',
  "\\",
  "$",
  "(",
  ")",
  "`",
  ";",
  "&",
  "|",
  "<",
  ">",
  "#",
  "{",
  "}",
  ",",
  "*",
  "\n",
];
const shellishAlphabet = ["a", "b", " ", ...shellSpecials, "x y"];
const shellishString = fc
  .array(fc.constantFrom(...shellishAlphabet), { maxLength: 24 })
  .map((parts) => parts.join(""));

/** Any UTF-16 text up to U+2100: controls, NUL, C1 and the bidirectional marks included. */
const anyText = fc
  .array(fc.integer({ min: 0, max: 0x2100 }), { maxLength: 64 })
  .map((codes) => String.fromCharCode(...codes));

/** Printable ASCII plus tab, newline and a few non-ASCII letters: anything a quoted word holds. */
const wordCharacter = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  fc.constantFrom("\t", "\n", "é", "ß", "日"),
);

describe("matchCommandPattern properties", () => {
  it("never lets a permissive pattern approve a command with a substitution or redirection", () => {
    fc.assert(
      fc.property(commandWithHazard, (command) => {
        expect(matchCommandPattern("*", command)).toBe(false);
        expect(matchCommandPattern("* *", command)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it("never matches a random string with $(, a backtick, < or > outside single quotes", () => {
    fc.assert(
      fc.property(shellishString, (command) => {
        fc.pre(hasLiveHazard(command));
        expect(matchCommandPattern("*", command)).toBe(false);
      }),
      { numRuns: 3000 },
    );
  });

  it("covers a command of safe words and separators with `*`", () => {
    const safeCommand = fc
      .tuple(
        fc.array(fc.array(safeWord, { minLength: 1, maxLength: 4 }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.array(separator, { minLength: 3, maxLength: 3 }),
      )
      .map(([segments, separators]) =>
        segments.map((words, i) => (i === 0 ? "" : separators[i - 1]) + words.join(" ")).join(""),
      );
    fc.assert(
      fc.property(safeCommand, (command) => {
        expect(matchCommandPattern("*", command)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("reads back any words written single-quoted", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 8, unit: wordCharacter }), {
          minLength: 1,
          maxLength: 5,
        }),
        (words) => {
          const command = words.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(" ");
          const parsed = parseCommand(command);
          expect(parsed.ok && parsed.segments).toEqual([words]);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("never throws on arbitrary input", () => {
    fc.assert(
      fc.property(anyText, (command) => {
        expect(typeof parseCommand(command).ok).toBe("boolean");
        expect(typeof matchCommandPattern("*", command)).toBe("boolean");
        expect(typeof matchCommandPattern(command, "npm test")).toBe("boolean");
      }),
      { numRuns: 1000 },
    );
  });
});

describe("parseCommand against bash", () => {
  /**
   * Runs `command` in a real bash where every command is "not found" and reports its words, with
   * globbing off and in an empty directory, so what bash would run can be compared.
   */
  function runInBash(command: string): { segments: string[][]; files: string[] } {
    const cwd = mkdtempSync(join(tmpdir(), "aintern-bash-cwd-"));
    const out = mkdtempSync(join(tmpdir(), "aintern-bash-out-"));
    try {
      const handler =
        "command_not_found_handle() { " +
        `printf '%s\\0' "$@" $'\\1' > "${out}/$BASHPID.$RANDOM"; return 0; }`;
      spawnSync(
        "env",
        ["-i", "bash", "-c", `set -f; ${handler}; PATH=/nonexistent; ${command}\nwait`],
        {
          cwd,
          encoding: "utf8",
          timeout: 10_000,
        },
      );
      const segments = readdirSync(out)
        .map((file) => readFileSync(join(out, file), "utf8"))
        .join("")
        .split("\u0001\0")
        .filter((record) => record !== "")
        .map((record) => record.split("\0").slice(0, -1));
      return { segments, files: readdirSync(cwd) };
    } finally {
      rmSync(cwd, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  }

  const sortedJson = (segments: readonly (readonly string[])[]) =>
    segments.map((words) => JSON.stringify(words)).sort();

  it("reads the same commands and words as bash for every command it finds plain", () => {
    // Words bash would treat as keywords, builtins or assignments are left out of the alphabet.
    const alphabet = [
      "ab",
      "c",
      "x y",
      " ",
      "  ",
      ...shellSpecials,
      "&&",
      "-",
      "$(ab)",
      "2>",
      '"a b"',
      "'q r'",
    ];
    const candidate = fc
      .array(fc.constantFrom(...alphabet), { minLength: 1, maxLength: 16 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(candidate, (command) => {
        const parsed = parseCommand(command);
        const plain =
          parsed.ok &&
          !parsed.hasSubstitution &&
          !parsed.hasExpansion &&
          !parsed.hasRedirection &&
          !parsed.hasSubshell &&
          !parsed.hasComment &&
          // With `||` bash skips the right side after a success; its words cannot be observed.
          !command.includes("||");
        fc.pre(plain);
        const bash = runInBash(command);
        expect(bash.files).toEqual([]);
        expect(sortedJson(bash.segments)).toEqual(
          sortedJson(parsed.ok ? parsed.segments.filter((words) => words.length > 0) : []),
        );
      }),
      // Each run starts bash; shrinking a failure would take minutes, so report it unshrunk.
      { numRuns: 120, maxSkipsPerRun: 1000, endOnFailure: true },
    );
    // 120 starts of bash: about 5 s on an idle machine, over 20 s on a loaded one.
  }, 120_000);

  it("sees the command bash runs inside a substitution, and flags it", () => {
    const command = "ab $(c d)";
    const bash = runInBash(command);
    expect(sortedJson(bash.segments)).toEqual(sortedJson([["c", "d"], ["ab"]]));
    const parsed = parseCommand(command);
    expect(parsed.ok && parsed.hasSubstitution).toBe(true);
  });
});
