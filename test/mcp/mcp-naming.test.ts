import { describe, expect, it } from "vitest";
import { parseSince } from "../../src/cli/audit-command.js";
import { splitCommand } from "../../src/cli/mcp-runtime.js";
import { RiskLevel } from "../../src/core/index.js";
import { toolIdFor } from "../../src/mcp/import-mcp-tools.js";
import {
  approvalForm,
  decisionFromAnswer,
  McpToolNames,
  riskFromAnnotations,
  suggestPattern,
} from "../../src/mcp/index.js";

describe("MCP names, risk from annotations and the approval form", () => {
  it("maps ids that are not valid MCP names both ways, never two ids to one name", () => {
    const names = new McpToolNames(["file-read", "git:status", "git_status", "a b"]);
    expect(names.nameOf("file-read")).toBe("file-read");
    expect(names.nameOf("git_status")).toBe("git_status");
    expect(names.nameOf("git:status")).toBe("git_status_2");
    expect(names.idOf("git_status_2")).toBe("git:status");
    expect(names.idOf("constructor")).toBeUndefined();
  });

  it("gives upstream tools valid aintern ids", () => {
    expect(toolIdFor("up1_get.info")).toBe("up1_get_info");
    expect(toolIdFor("x", new Set(["x"]))).toBe("x_2");
    expect(toolIdFor("y".repeat(100))).toHaveLength(64);
  });

  it("reads read-only as Safe, destructive as High, anything else as Medium", () => {
    expect(riskFromAnnotations({ readOnlyHint: true })).toBe(RiskLevel.Safe);
    expect(riskFromAnnotations({ destructiveHint: true })).toBe(RiskLevel.High);
    expect(riskFromAnnotations({})).toBe(RiskLevel.Medium);
    expect(riskFromAnnotations(undefined)).toBe(RiskLevel.Medium);
  });

  it("suggests a folder glob for a path and the command exactly for a command", () => {
    expect(
      suggestPattern("file-write", { path: "src/app/main.ts" }, { workspacePath: process.cwd() }),
    ).toBe("src/app/**");
    expect(suggestPattern("terminal-execute", { command: "npm test -- --watch" })).toBe(
      "npm test -- --watch",
    );
    expect(suggestPattern("terminal-execute", { command: "npm test" })).toBe("npm test");
    expect(suggestPattern("terminal-execute", { command: "ls -la src" })).toBe("ls -la src");
    expect(suggestPattern("terminal-execute", { command: "make" })).toBe("make");
    expect(suggestPattern("terminal-execute", { command: "touch one.tmp" })).toBe("touch one.tmp");
    expect(suggestPattern("terminal-execute", { command: "git push origin main" })).toBe(
      "git push origin main",
    );
    expect(suggestPattern("x", {})).toBeUndefined();
  });

  it("offers no remembering for a Critical call (it is never remembered): approve once or deny", () => {
    const form = approvalForm({
      toolId: "terminal-execute",
      toolName: "terminal-execute",
      parameters: { command: "rm -rf /" },
      need: { reason: "Critical", riskLevel: RiskLevel.Critical, summary: "Run rm -rf /" },
    });
    const decision = (form.requestedSchema.properties as Record<string, { enum?: string[] }>)
      .decision;
    expect(decision?.enum).toEqual(["approve_once", "deny"]);
    expect(form.message).toContain("cannot be remembered");
  });

  it("shows bidirectional-text controls of the model's arguments in the form as their code", () => {
    const form = approvalForm({
      toolId: "terminal-execute",
      toolName: "terminal-execute",
      parameters: { command: "echo ok #\u202E ~ fr- mr" },
      need: { reason: "asks", riskLevel: RiskLevel.Medium, summary: "Run \u2066x\u2069" },
    });
    expect(form.message).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
    expect(form.message).toContain("\\u202e");
    expect(form.message).toContain("\\u2066");
  });

  it("turns each answer of the form into a decision, and anything unclear into a denial", () => {
    const need = {
      reason: "Medium Risk calls need approval",
      riskLevel: RiskLevel.Medium,
      summary: "Touch a",
    };
    const form = approvalForm({
      toolId: "touch",
      toolName: "touch",
      parameters: { path: "a" },
      need,
    });
    expect(form.message).toMatch(/Medium risk/);
    expect(
      decisionFromAnswer({ action: "accept", content: { decision: "approve_once" } }).approved,
    ).toBe(true);
    expect(
      decisionFromAnswer({ action: "accept", content: { decision: "approve_session" } })
        .rememberForSession,
    ).toBe(true);
    expect(
      decisionFromAnswer({ action: "accept", content: { decision: "approve_always" } })
        .rememberForTool,
    ).toBe(true);
    expect(
      decisionFromAnswer({
        action: "accept",
        content: { decision: "approve_pattern", pattern: "src/**" },
      }).rememberPattern,
    ).toBe("src/**");
    expect(
      decisionFromAnswer({ action: "accept", content: { decision: "approve_pattern" } }).approved,
    ).toBe(false);
    expect(
      decisionFromAnswer({ action: "accept", content: { decision: "yes please" } }).approved,
    ).toBe(false);
    expect(decisionFromAnswer({ action: "cancel" }).approved).toBe(false);
    expect(
      decisionFromAnswer({ action: "accept", content: { decision: "deny", reason: "later" } })
        .reason,
    ).toBe("later");
  });

  it("parses --since and --upstream command lines", () => {
    expect(parseSince("1h", 10_000_000)?.getTime()).toBe(10_000_000 - 3_600_000);
    expect(parseSince("2026-01-02")?.toISOString()).toBe("2026-01-02T00:00:00.000Z");
    expect(parseSince("soon")).toBeUndefined();
    expect(parseSince("2026-11-26T10:00Z")?.toISOString()).toBe("2026-11-26T10:00:00.000Z");
    expect(parseSince("2026-11-26 10:00:30+01:00")?.toISOString()).toBe("2026-11-26T09:00:30.000Z");
    // What Date would read as some day in 2001 (every row), and a time no Date can hold.
    for (const loose of ["12", "1", "Nov 26", "26 Nov 2026", "99999999999d", "2026-13-45"]) {
      expect(parseSince(loose, 10_000_000), loose).toBeUndefined();
    }
    expect(splitCommand(`"/usr/bin/node" --import tsx 'a b.ts'`)).toEqual([
      "/usr/bin/node",
      "--import",
      "tsx",
      "a b.ts",
    ]);
  });
});
