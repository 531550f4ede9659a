// aintern audit, permissions and tools on a store written through the same runtime `aintern mcp` uses.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { cliArgs, fixtureTools, makeWorkspace, runCli } from "../mcp/mcp-support.js";

describe("aintern audit, permissions and tools", () => {
  it("prints the audit log as JSON lines or CSV, filtered by tool, status, session and time", async () => {
    const workspace = await makeWorkspace();
    const db = `sqlite:${workspace.path}/audit.db`;
    try {
      const runtime = await openMcpRuntime({
        workspace: workspace.path,
        db,
        tools: ["builtin", fixtureTools],
      });
      await runtime.processor.processCall({
        toolId: "echo",
        parameters: { text: "a" },
        sessionId: "s1",
      });
      await runtime.processor.processCall({
        toolId: "file-read",
        parameters: { path: "missing.txt" },
        sessionId: "s2",
      });
      await runtime.close();

      const all = await runCli(["audit", "--json", "--db", db]);
      expect(all.code).toBe(0);
      const rows = all.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { toolName: string; status: string });
      expect(rows.map((r) => r.toolName).sort()).toEqual(["echo", "file-read"]);

      const echo = await runCli([
        "audit",
        "--json",
        "--tool",
        "echo",
        "--session",
        "s1",
        "--since",
        "1h",
        "--db",
        db,
      ]);
      expect(echo.stdout.trim().split("\n")).toHaveLength(1);
      const none = await runCli(["audit", "--json", "--session", "s3", "--db", db]);
      expect(none.stdout).toBe("");

      const csv = await runCli(["audit", "--csv", "--status", "completed", "--db", db]);
      const lines = csv.stdout.trim().split("\n");
      expect(lines[0]).toBe(
        "startedAt,toolName,status,durationMs,errorCode,errorMessage,session,sandbox,wasApproved,executionId",
      );
      expect(lines.slice(1).every((l) => l.includes('"completed"'))).toBe(true);

      expect((await runCli(["audit", "--status", "finished", "--db", db])).code).toBe(2);
      expect((await runCli(["audit", "--since", "yesterday-ish", "--db", db])).code).toBe(2);
      expect((await runCli(["permissions", "revoke", "nope", "--db", db])).code).toBe(1);
    } finally {
      await workspace.remove();
    }
  }, 60_000);

  it("shows what an MCP client will see: names, risk and annotations", async () => {
    const workspace = await makeWorkspace();
    try {
      const { code, stdout } = await runCli([
        "tools",
        "--json",
        "--workspace",
        workspace.path,
        "--db",
        "sqlite::memory:",
        "--tools",
        "readonly",
      ]);
      expect(code).toBe(0);
      const tools = stdout
        .trim()
        .split("\n")
        .map(
          (l) =>
            JSON.parse(l) as { name: string; risk: string; annotations: { readOnlyHint: boolean } },
        );
      expect(tools.map((t) => t.name).sort()).toEqual(["file-read", "list-directory", "search"]);
      expect(tools.every((t) => t.risk === "Safe" && t.annotations.readOnlyHint)).toBe(true);
    } finally {
      await workspace.remove();
    }
  }, 60_000);

  it("stops quietly when its reader goes away (aintern audit | head), without a stack trace", async () => {
    const workspace = await makeWorkspace();
    const db = `sqlite:${workspace.path}/audit.db`;
    try {
      const runtime = await openMcpRuntime({
        workspace: workspace.path,
        db,
        tools: [fixtureTools],
      });
      for (let i = 0; i < 3; i++) {
        await runtime.processor.processCall({ toolId: "echo", parameters: { text: `${i}` } });
      }
      await runtime.close();
      for (const format of ["--json", "--csv"]) {
        const child = spawn(process.execPath, cliArgs("audit", format, "--db", db), {
          stdio: ["ignore", "pipe", "pipe"],
        });
        // The reader is gone before the first row is written: every write meets a closed pipe.
        child.stdout.destroy();
        let stderr = "";
        child.stderr.on("data", (chunk: Buffer) => {
          stderr += chunk.toString();
        });
        const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
        expect(stderr).toBe("");
        expect(code).toBe(0);
      }
    } finally {
      await workspace.remove();
    }
  }, 60_000);
});
