import { describe, expect, it } from "vitest";
import { formatAuditRow } from "../../src/cli/audit-command.js";
import type { AuditEntry } from "../../src/execution/index.js";

function entry(overrides: Partial<AuditEntry>): AuditEntry {
  return {
    id: "0190aaaa-0000-7000-8000-000000000001",
    executionId: "exec-1",
    toolName: "file-read",
    status: "failed",
    startedAt: new Date("2026-11-26T10:00:00Z"),
    completedAt: new Date("2026-11-26T10:00:01Z"),
    durationMs: 1000,
    wasApproved: true,
    timedOut: false,
    wasCancelled: false,
    ...overrides,
  } as AuditEntry;
}

describe("aintern audit's table", () => {
  it("prints a terminal escape from a tool name or a message as text, never as a command", () => {
    const line = formatAuditRow(
      entry({
        toolName: "\u001b]0;pwned\u0007x",
        errorMessage: "boom \u001b[2J\u009b1m cleared",
      }),
      "table",
      new Map(),
    );
    // The only escapes left are the table's own colours (ESC [ <digits> m).
    const esc = String.fromCharCode(27);
    const parts = line.split(esc).slice(1);
    expect(parts.every((part) => /^\[\d+m/.test(part))).toBe(true);
    expect(line).not.toContain("\u0007");
    expect(line).not.toContain("\u009b");
    expect(line).toContain("\\u001b]0;pwned\\u0007x");
  });

  it("shows a bidirectional override as its code, so it cannot reorder the row", () => {
    const line = formatAuditRow(
      entry({ toolName: "file-\u202Eetirw", errorMessage: "a\u2066b" }),
      "table",
      new Map(),
    );
    expect(line).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(line).toContain("file-\\u202eetirw");
  });

  it("prints a row whose time is not a time instead of failing the whole list", () => {
    const bad = entry({ startedAt: new Date(Number.NaN) });
    expect(formatAuditRow(bad, "table", new Map())).toContain("(invalid time)");
    expect(formatAuditRow(bad, "csv", new Map())).toContain("(invalid time)");
  });
});

describe("aintern audit's CSV", () => {
  it("never lets a spreadsheet read a cell as a formula, also behind a tab or carriage return", () => {
    for (const start of ["=", "+", "-", "@", "\t=", "\r="]) {
      const line = formatAuditRow(
        entry({ toolName: `${start}HYPERLINK("http://x")`, errorMessage: `${start}1+1` }),
        "csv",
        new Map(),
      );
      const cells = line.trimEnd().split(/,(?=")/);
      for (const cell of cells) expect(cell).toMatch(/^"(?![=+\-@\t\r])/);
      expect(line).toContain(
        `"'${start.replace("\t", "\\t").replace("\r", "\\r")}HYPERLINK(""http://x"")"`,
      );
    }
  });

  it("writes terminal escapes, C1 controls and bidirectional characters as text in every cell", () => {
    const line = formatAuditRow(
      entry({
        toolName: "x\u001b]52;c;cHduZWQ=\u0007y",
        errorMessage: "boom\u009b2J \u202Egnp.exe\nnext",
        conversationId: "s\u001b[2K",
      }),
      "csv",
      new Map(),
    );
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking none is left.
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202A-\u202E\u2066-\u2069]/);
    expect(line).toContain('"x\\u001b]52;c;cHduZWQ=\\u0007y"');
    expect(line).toContain('"boom\\u009b2J \\u202egnp.exe\\nnext"');
  });
});

describe("aintern audit's JSON lines", () => {
  it("escape C1 controls and bidirectional characters too, and still parse to the row", () => {
    const row = entry({ toolName: "a\u009b2Jb", errorMessage: "c\u202Ed\u001b[0m" });
    const line = formatAuditRow(row, "json", new Map());
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking none is left.
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202A-\u202E\u2066-\u2069]/);
    expect(JSON.parse(line)).toMatchObject({
      toolName: "a\u009b2Jb",
      errorMessage: "c\u202Ed\u001b[0m",
    });
  });
});
