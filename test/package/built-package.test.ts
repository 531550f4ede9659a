import { execFile, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(".");

/** Runs an ES module script with plain Node, importing aintern by its package name (dist/). */
async function runScript(code: string, cwd: string): Promise<string> {
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", code], {
    cwd: root,
    env: { ...process.env, WORKSPACE: cwd },
    timeout: 60_000,
  });
  return stdout.trim();
}

describe("the built package, imported by name as an installed one is", () => {
  let workspace: string;

  beforeAll(() => {
    // CI builds before the tests; a local `npm test` on a fresh clone builds here.
    if (!existsSync(join(root, "dist/cli/bin.js")) || !existsSync(join(root, "dist/_chunks"))) {
      execFileSync("npm", ["run", "build"], { cwd: root, stdio: "ignore" });
    }
    workspace = mkdtempSync(join(tmpdir(), "aintern-built-"));
  }, 120_000);

  afterAll(() => rmSync(workspace, { recursive: true, force: true }));

  it("runs a defined tool through the executor from the root", async () => {
    const out = await runScript(
      `
      import { defineTool, ToolRegistry, ToolExecutor, RiskLevel, ToolCategory, JsonSchemaBuilder } from "aintern";
      const echo = defineTool({
        id: "echo", name: "Echo", description: "Echoes", category: ToolCategory.Custom,
        riskLevel: RiskLevel.Safe,
        inputSchema: JsonSchemaBuilder.create().addString("text", "Text", { required: true }).build(),
        async execute({ text }) { return text; },
      });
      const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [echo] }) });
      const result = await executor.execute({ toolName: "echo", parameters: { text: "hi" } });
      console.log(result.status, result.result.data);
      `,
      workspace,
    );
    expect(out).toBe("completed hi");
  });

  it("runs terminal-execute in a sandbox process found through the package, and audits it", async () => {
    const out = await runScript(
      `
      import { ToolRegistry, ToolExecutor } from "aintern";
      import { builtinTools } from "aintern/tools";
      import { openStore } from "aintern/store/sqlite";
      const store = await openStore("sqlite::memory:");
      const executor = new ToolExecutor({
        registry: new ToolRegistry({ tools: builtinTools() }),
        audit: store.audit, workspacePath: process.env.WORKSPACE, approval: "none",
      });
      const result = await executor.execute({ toolName: "terminal-execute", parameters: { command: "echo from-sandbox" } });
      const row = await store.audit.get(result.metadata.executionId);
      console.log(result.status, JSON.stringify(result.result.data?.stdout ?? result.result.data).includes("from-sandbox"), row?.sandboxId);
      await executor.close?.(); await store.close();
      `,
      workspace,
    );
    expect(out).toBe("completed true process");
  });

  it("starts the aintern command", async () => {
    const { stdout } = await run(process.execPath, [join(root, "dist/cli/bin.js"), "--help"], {
      cwd: root,
    });
    expect(stdout).toContain("Usage:");
  });

  it("serves `aintern mcp` with V8's pretenuring off from its start", {
    timeout: 60_000,
  }, async () => {
    // V8 prints its pretenuring decisions at every scavenge while pretenuring is on
    // (--trace-pretenuring-statistics); the executable turns it off before loading the CLI.
    const child = spawn(
      process.execPath,
      [
        "--trace-pretenuring-statistics",
        join(root, "dist/cli/bin.js"),
        "mcp",
        "--workspace",
        workspace,
      ],
      { cwd: root, stdio: ["pipe", "pipe", "ignore"] },
    );
    let stdout = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const initialize = {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "t", version: "1" },
      },
    };
    // Enough requests for several scavenges.
    const requests = [JSON.stringify(initialize)];
    for (let id = 1; id <= 3000; id++) {
      requests.push(JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list" }));
    }
    child.stdin.end(`${requests.join("\n")}\n`);
    await exited;
    expect(stdout.split("\n").filter((line) => line.startsWith('{"')).length).toBe(3001);
    expect(stdout).not.toContain("pretenuring:");
  });
});
