import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalDecision, ToolCallStatus } from "../../src/calls/index.js";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { RiskLevel } from "../../src/core/index.js";
import { InvalidMcpConfigError, loadMcpConfig, parseMcpConfig } from "../../src/mcp/index.js";
import { runCliCaptured } from "../cli/cli-in-process.js";
import { fixtureTools } from "./mcp-support.js";

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

  it("refuses policy parameter names that are not arrays of names, naming the tool's key", () => {
    for (const field of ["pathParameters", "commandParameters"]) {
      for (const bad of ["pathx", 5, [5], [""], null, { path: true }]) {
        expect(
          () => parseMcpConfig({ policy: { [field]: { "file-write": bad } } }),
          `${field} ${JSON.stringify(bad)}`,
        ).toThrow(
          new RegExp(`'policy\\.${field}\\.file-write' must be an array of parameter names`),
        );
      }
      expect(() => parseMcpConfig({ policy: { [field]: ["path"] } })).toThrow(
        new RegExp(`'policy\\.${field}' must be an object`),
      );
    }
    expect(
      parseMcpConfig({ policy: { pathParameters: { "file-write": ["path", "to"] } } }).policy,
    ).toEqual({ pathParameters: { "file-write": ["path", "to"] } });
  });

  it("refuses a policy setting for a category or a risk level that does not exist", () => {
    expect(() => parseMcpConfig({ policy: { categories: { Filesystem: "ask" } } })).toThrow(
      /'policy\.categories\.Filesystem' is not one of .*FileSystem/,
    );
    expect(() => parseMcpConfig({ policy: { riskLevels: { high: "ask" } } })).toThrow(
      /'policy\.riskLevels\.high' is not one of Safe, Low, Medium, High/,
    );
    expect(() => parseMcpConfig({ policy: { tools: { "file-write": "yes" } } })).toThrow(
      /'policy\.tools\.file-write' must be "ask" or "allow"/,
    );
  });

  it("with a bad policy parameter setting fails aintern doctor and keeps aintern mcp from starting", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-config-"));
    try {
      const config = join(dir, "custom.json");
      await writeFile(
        config,
        JSON.stringify({ policy: { pathParameters: { "file-write": "pathx" } } }),
      );
      const doctor = await runCliCaptured([
        "doctor",
        "--workspace",
        dir,
        "--config",
        config,
        "--db",
        "sqlite::memory:",
      ]);
      expect(doctor.code).toBe(1);
      expect(doctor.output).toMatch(
        /FAIL\s+config .*'policy\.pathParameters\.file-write' must be an array/,
      );
      await expect(
        openMcpRuntime({ workspace: dir, config, db: "sqlite::memory:" }),
      ).rejects.toBeInstanceOf(InvalidMcpConfigError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
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

  it("can never be changed by the model: a write or delete is denied even with a person's approval", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-config-"));
    try {
      const allowEveryWrite = JSON.stringify({
        policy: { allow: [{ toolId: "file-write", pathPattern: "**" }] },
      });
      await writeFile(join(dir, "aintern.config.json"), allowEveryWrite);
      await writeFile(join(dir, "custom.json"), allowEveryWrite);
      // Named with --config: the user's own file (found on its own, it would need `aintern trust`).
      for (const configName of ["aintern.config.json", "custom.json"]) {
        const runtime = await openMcpRuntime({
          workspace: dir,
          config: join(dir, configName),
          db: "sqlite::memory:",
        });
        try {
          const write = (path: string) =>
            runtime.processor.needsApproval("file-write", { path, content: "{}", overwrite: true });
          expect(await write("notes.md")).toBe(false);
          for (const [toolId, parameters] of [
            ["file-write", { path: configName, content: "{}", overwrite: true }],
            ["file-write", { path: `./sub/../${configName}`, content: "{}", overwrite: true }],
            ["file-delete", { path: configName }],
          ] as const) {
            const result = await runtime.processor.processCall({
              toolId,
              parameters,
              decision: ApprovalDecision.approve(),
            });
            expect(result.status, `${toolId} ${JSON.stringify(parameters)}`).toBe(
              ToolCallStatus.Denied,
            );
            expect(result.content).toContain("can never change it");
          }
          // Reading it still only asks (it is a protected path).
          expect(
            await runtime.processor.needsApproval("file-read", { path: configName }),
          ).toMatchObject({ reason: expect.stringMatching(/protected/i) });
        } finally {
          await runtime.close();
        }
      }
      expect(await readFile(join(dir, "aintern.config.json"), "utf8")).toContain("allow");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("protects the tool modules it loads from the workspace: changing one asks, as for a protected path", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-config-"));
    try {
      await mkdir(join(dir, "tools"));
      // The module re-exports the test fixtures' tools: what it holds does not matter here.
      await writeFile(
        join(dir, "tools", "my-tools.ts"),
        `export * from ${JSON.stringify(fixtureTools)};\n`,
      );
      await writeFile(
        join(dir, "aintern.config.json"),
        JSON.stringify({
          tools: ["builtin", "./tools/my-tools.ts"],
          policy: { allow: [{ toolId: "file-write", pathPattern: "**" }] },
        }),
      );
      const runtime = await openMcpRuntime({
        workspace: dir,
        config: join(dir, "aintern.config.json"),
        db: "sqlite::memory:",
      });
      try {
        const write = (path: string) =>
          runtime.processor.needsApproval("file-write", { path, content: "x", overwrite: true });
        expect(await write("tools/other.ts")).toBe(false);
        expect(await write("tools/my-tools.ts")).toMatchObject({
          reason: expect.stringMatching(/protected/i),
        });
      } finally {
        await runtime.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses an HTTP token that is empty, guessable or not sendable in a header", () => {
    for (const token of ["short", "has space in it 123456", "ünïcödé-token-123456"]) {
      expect(() => parseMcpConfig({ http: { token } }), token).toThrow(/http\.token/);
    }
    expect(() => parseMcpConfig({ http: { token: "" } })).toThrow(/http\.token/);
    expect(parseMcpConfig({ http: { token: "a-long-enough-token_0123" } }).http?.token).toBe(
      "a-long-enough-token_0123",
    );
  });

  it("reads the HTTP session limits, refusing ones that cannot work", () => {
    expect(parseMcpConfig({ http: { maxSessions: 8, sessionIdleMs: 60_000 } }).http).toEqual({
      maxSessions: 8,
      sessionIdleMs: 60_000,
    });
    for (const bad of [0, -1, 1.5, "8"]) {
      expect(() => parseMcpConfig({ http: { maxSessions: bad } })).toThrow(/http\.maxSessions/);
      expect(() => parseMcpConfig({ http: { sessionIdleMs: bad } })).toThrow(/http\.sessionIdleMs/);
    }
    // A session closed before its client could send a second request would be no session.
    expect(() => parseMcpConfig({ http: { sessionIdleMs: 999 } })).toThrow(
      /http\.sessionIdleMs.*at least 1000/,
    );
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
