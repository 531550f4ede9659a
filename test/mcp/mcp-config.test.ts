import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { RiskLevel } from "../../src/core/index.js";
import { InvalidMcpConfigError, loadMcpConfig, parseMcpConfig } from "../../src/mcp/index.js";

describe("aintern.config.json", () => {
  it("reads policy rules, isolation, limits and upstreams, with risk levels by name and paths from the file's folder", () => {
    const config = parseMcpConfig(
      {
        tools: ["readonly", "./my-tools.js"],
        policy: {
          deny: [{ commandPattern: "rm *", reason: "No deletions" }],
          allow: [{ toolId: "file-write", pathPattern: "src/**", maxRiskLevel: "Medium" }],
          tools: { "terminal-execute": "ask" },
        },
        isolation: { requireProcessFor: { riskLevelAtLeast: "High", categories: ["Terminal"] } },
        limits: { defaultTimeoutMs: 30_000 },
        upstreams: {
          fs: { command: "npx", args: ["-y", "server"], risk: { move_file: "High" } },
          remote: { url: "http://127.0.0.1:9/mcp" },
        },
      },
      "/etc/aintern/aintern.config.json",
    );
    expect(config.tools).toEqual(["readonly", "/etc/aintern/my-tools.js"]);
    expect(config.policy?.allow?.[0]).toEqual({
      toolId: "file-write",
      pathPattern: "src/**",
      maxRiskLevel: RiskLevel.Medium,
    });
    expect(config.isolation?.requireProcessFor?.riskLevelAtLeast).toBe(RiskLevel.High);
    expect(config.upstreams).toEqual([
      {
        name: "fs",
        command: "npx",
        args: ["-y", "server"],
        risk: { move_file: RiskLevel.High },
        cwd: "/etc/aintern",
      },
      { name: "remote", url: "http://127.0.0.1:9/mcp" },
    ]);
  });

  it("refuses a typo, a bad risk name or an upstream without a command, naming the key", () => {
    expect(() => parseMcpConfig({ polcy: {} })).toThrow(/'polcy' is not a setting/);
    expect(() => parseMcpConfig({ policy: { allow: [{ maxRiskLevel: "Huge" }] } })).toThrow(
      /'policy.allow\[0\].maxRiskLevel' must be a risk level/,
    );
    expect(() => parseMcpConfig({ upstreams: { x: { args: [] } } })).toThrow(
      /'upstreams.x' needs a command/,
    );
    expect(() => parseMcpConfig({ limits: { defaultTimeoutMs: -1 } })).toThrow(
      InvalidMcpConfigError,
    );
  });

  it("reads the approvals mode and the console's address and operator, refusing bad ones", () => {
    expect(
      parseMcpConfig({
        approvals: "console",
        console: { listen: "127.0.0.1:7171", operator: "Ada Reviewer" },
      }),
    ).toMatchObject({
      approvals: "console",
      console: { listen: "127.0.0.1:7171", operator: "Ada Reviewer" },
    });
    expect(() => parseMcpConfig({ approvals: "ask" })).toThrow(
      /'approvals' must be "elicit", "console" or "deny"/,
    );
    expect(() => parseMcpConfig({ console: { listen: "7070" } })).toThrow(
      /'console.listen' must be host:port/,
    );
    expect(() => parseMcpConfig({ console: { operator: " " } })).toThrow(
      /'console.operator' must not be empty/,
    );
    expect(() => parseMcpConfig({ console: { token: "x" } })).toThrow(
      /'console.token' is not a console setting/,
    );
  });

  it("is a protected path: a write to it asks even where an allow rule covers every write", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-config-"));
    try {
      await writeFile(
        join(dir, "aintern.config.json"),
        JSON.stringify({ policy: { allow: [{ toolId: "file-write", pathPattern: "**" }] } }),
      );
      // Named with --config: the user's own file (found on its own, it would need `aintern trust`).
      const runtime = await openMcpRuntime({
        workspace: dir,
        config: join(dir, "aintern.config.json"),
        db: "sqlite::memory:",
      });
      try {
        const write = (path: string) =>
          runtime.processor.needsApproval("file-write", { path, content: "{}", overwrite: true });
        expect(await write("notes.md")).toBe(false);
        expect(await write("aintern.config.json")).toMatchObject({
          reason: expect.stringMatching(/protected/i),
        });
      } finally {
        await runtime.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("says which file is not valid JSON", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-config-"));
    try {
      const file = join(dir, "aintern.config.json");
      await writeFile(file, "{ not json");
      await expect(loadMcpConfig(file)).rejects.toMatchObject({ code: "INVALID_MCP_CONFIG", file });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
