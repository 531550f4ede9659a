import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApprovalPolicy,
  callSubjects,
  defaultProtectedPathPatterns,
  type PolicyCall,
} from "../../src/approval/index.js";
import { type JsonObject, RiskLevel, ToolCategory } from "../../src/core/index.js";

let workspace: string;
let outside: string;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "aintern-policy-"));
  outside = mkdtempSync(join(tmpdir(), "aintern-policy-outside-"));
  mkdirSync(join(workspace, "src", "a"), { recursive: true });
  writeFileSync(join(workspace, "src", "a", "b.ts"), "export {};\n");
  mkdirSync(join(workspace, ".git", "hooks"), { recursive: true });
  writeFileSync(join(workspace, ".git", "hooks", "pre-commit"), "#!/bin/sh\n");
  writeFileSync(join(workspace, ".git", "config"), "[core]\n");
  mkdirSync(join(workspace, "data"));
  writeFileSync(join(workspace, "data", "app.db"), "");
  mkdirSync(join(workspace, ".cache"));
  writeFileSync(join(workspace, ".cache", "state.db"), "");
  mkdirSync(join(workspace, "secrets"));
  writeFileSync(join(workspace, "secrets", "key.pem"), "");
  // A harmless-looking name that leads into .git/hooks.
  symlinkSync(join(workspace, ".git", "hooks"), join(workspace, "src", "tools"));
  writeFileSync(join(outside, "x.ts"), "");
});

afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function call(overrides: Partial<PolicyCall> & { parameters?: JsonObject } = {}): PolicyCall {
  return {
    toolId: "file-write",
    category: ToolCategory.FileSystem,
    riskLevel: RiskLevel.Low,
    parameters: {},
    workspacePath: workspace,
    ...overrides,
  };
}

describe("ApprovalPolicy defaults (RiskLevelMetadata)", () => {
  const policy = new ApprovalPolicy();

  it("runs Safe and Low calls without asking", () => {
    expect(policy.decide(call({ riskLevel: RiskLevel.Safe })).kind).toBe("allow");
    expect(policy.decide(call({ riskLevel: RiskLevel.Low })).kind).toBe("allow");
  });

  it("asks for Medium and High calls, without a warning", () => {
    for (const riskLevel of [RiskLevel.Medium, RiskLevel.High]) {
      const decision = policy.decide(call({ riskLevel }));
      expect(decision.kind).toBe("ask");
      expect(decision.kind === "ask" && decision.warning).toBeFalsy();
    }
    expect(policy.decide(call({ riskLevel: RiskLevel.Medium })).reason).toBe(
      "Medium Risk calls need approval",
    );
  });

  it("asks for Critical calls with the Critical warning", () => {
    const decision = policy.decide(call({ riskLevel: RiskLevel.Critical }));
    expect(decision.kind).toBe("ask");
    if (decision.kind !== "ask") return;
    expect(decision.warning).toContain("Critical");
    expect(decision.warning).toContain("System-level operation with broad impact");
  });

  it("has an empty config by default and the documented protected paths", () => {
    expect(policy.config).toEqual({});
    expect(defaultProtectedPathPatterns).toContain("**/.git/**");
    expect(Object.isFrozen(defaultProtectedPathPatterns)).toBe(true);
  });
});

describe("ApprovalPolicy settings per tool, category and risk level", () => {
  it("a risk level setting overrides RiskLevelMetadata", () => {
    const policy = new ApprovalPolicy({ riskLevels: { Low: "ask", High: "allow" } });
    expect(policy.decide(call({ riskLevel: RiskLevel.Low })).kind).toBe("ask");
    expect(policy.decide(call({ riskLevel: RiskLevel.High })).kind).toBe("allow");
    expect(policy.decide(call({ riskLevel: RiskLevel.Medium })).kind).toBe("ask");
    expect(policy.decide(call({ riskLevel: RiskLevel.Safe })).kind).toBe("allow");
  });

  it("a category setting overrides the risk level setting", () => {
    const policy = new ApprovalPolicy({
      categories: { FileSystem: "allow", Terminal: "ask" },
      riskLevels: { Medium: "ask", Safe: "allow" },
    });
    expect(policy.decide(call({ riskLevel: RiskLevel.Medium })).kind).toBe("allow");
    expect(
      policy.decide(
        call({ toolId: "run", category: ToolCategory.Terminal, riskLevel: RiskLevel.Safe }),
      ).kind,
    ).toBe("ask");
    // Another category falls through to the risk level setting.
    expect(
      policy.decide(call({ category: ToolCategory.Search, riskLevel: RiskLevel.Medium })).kind,
    ).toBe("ask");
  });

  it("a tool setting overrides the category setting, matched ignoring case", () => {
    const policy = new ApprovalPolicy({
      tools: { "File-Write": "ask", "file-read": "allow" },
      categories: { FileSystem: "allow" },
      riskLevels: { High: "ask" },
    });
    expect(policy.decide(call({ riskLevel: RiskLevel.Safe })).kind).toBe("ask");
    expect(policy.decide(call({ toolId: "FILE-READ", riskLevel: RiskLevel.High })).kind).toBe(
      "allow",
    );
    expect(policy.decide(call({ toolId: "file-delete", riskLevel: RiskLevel.High })).kind).toBe(
      "allow",
    );
    expect(policy.decide(call({ toolId: "file-write" })).reason).toBe(
      "The policy asks for approval",
    );
    expect(policy.decide(call({ toolId: "file-read" })).reason).toBe("Allowed by policy");
  });

  it("no setting makes a Critical call run: a tool override 'allow' still asks, with the warning", () => {
    const policy = new ApprovalPolicy({
      tools: { "file-write": "allow" },
      categories: { FileSystem: "allow" },
      allow: [{ toolId: "file-write" }],
    });
    const decision = policy.decide(call({ riskLevel: RiskLevel.Critical }));
    expect(decision.kind).toBe("ask");
    expect(decision.kind === "ask" && decision.warning).toContain("Critical");
  });

  it("a tool id such as '__proto__' or 'constructor' is just a name", () => {
    const policy = new ApprovalPolicy({ tools: { "file-write": "allow" } });
    expect(policy.decide(call({ toolId: "__proto__", riskLevel: RiskLevel.Medium })).kind).toBe(
      "ask",
    );
    expect(policy.decide(call({ toolId: "constructor", riskLevel: RiskLevel.Medium })).kind).toBe(
      "ask",
    );
  });
});

describe("ApprovalPolicy deny and allow rules", () => {
  it("an allow rule runs a Medium call without asking; a rule's members are ANDed", () => {
    const policy = new ApprovalPolicy({
      allow: [{ toolId: "file-write", maxRiskLevel: RiskLevel.Medium, reason: "Trusted writer" }],
    });
    expect(policy.decide(call({ riskLevel: RiskLevel.Medium }))).toEqual({
      kind: "allow",
      reason: "Trusted writer",
    });
    expect(policy.decide(call({ riskLevel: RiskLevel.High })).kind).toBe("ask");
    expect(policy.decide(call({ toolId: "file-delete", riskLevel: RiskLevel.Medium })).kind).toBe(
      "ask",
    );
  });

  it("an allow rule by category describes itself when it has no reason", () => {
    const policy = new ApprovalPolicy({ allow: [{ category: ToolCategory.Search }] });
    const decision = policy.decide(
      call({ toolId: "grep", category: ToolCategory.Search, riskLevel: RiskLevel.High }),
    );
    expect(decision).toEqual({
      kind: "allow",
      reason: 'Allowed by policy rule (category="Search")',
    });
    expect(policy.decide(call({ riskLevel: RiskLevel.High })).kind).toBe("ask");
  });

  it("deny wins over an allow rule and a tool setting for the same call", () => {
    const policy = new ApprovalPolicy({
      tools: { "file-write": "allow" },
      allow: [{ toolId: "file-write" }],
      deny: [{ toolId: "file-write", reason: "Writes are frozen" }],
    });
    expect(policy.decide(call({ riskLevel: RiskLevel.Safe }))).toEqual({
      kind: "deny",
      reason: "Writes are frozen",
    });
  });

  it("deny wins over Critical's ask and over protected paths", () => {
    const policy = new ApprovalPolicy({ deny: [{}] });
    expect(policy.decide(call({ riskLevel: RiskLevel.Critical }))).toEqual({
      kind: "deny",
      reason: "Denied by policy rule (matches all)",
    });
    expect(policy.decide(call({ parameters: { path: ".git/config" } })).kind).toBe("deny");
  });

  it("a deny rule with a command pattern refuses matching commands only", () => {
    const policy = new ApprovalPolicy({
      tools: { "terminal-execute": "allow" },
      deny: [{ commandPattern: "rm *", reason: "No deletions" }],
    });
    const terminal = (command: string) =>
      policy.decide(
        call({
          toolId: "terminal-execute",
          category: ToolCategory.Terminal,
          riskLevel: RiskLevel.Medium,
          parameters: { command },
        }),
      );
    expect(terminal("rm -rf build")).toEqual({ kind: "deny", reason: "No deletions" });
    expect(terminal("npm test").kind).toBe("allow");
    // The rule holds on every segment of a compound command, not only when all of them match.
    expect(terminal("npm test && rm -rf build").kind).toBe("deny");
    expect(terminal("ls | rm -rf /").kind).toBe("deny");
    expect(terminal("echo ok; rm x").kind).toBe("deny");
    // 'rmdir' is another word.
    expect(terminal("rmdir build").kind).toBe("allow");
    // A call without a command parameter is not matched by a command rule.
    expect(policy.decide(call({ parameters: { path: "src/a/b.ts" } })).kind).toBe("allow");
  });

  it("a deny rule sees into substitutions and denies a program built by expansion that could be it", () => {
    const policy = new ApprovalPolicy({
      tools: { "terminal-execute": "allow" },
      deny: [{ commandPattern: "rm *" }],
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template.
    for (const command of ["echo $(rm -rf /)", "echo `rm -rf /`", "$CMD -rf /", "r${E}m -rf /"]) {
      const decision = policy.decide(
        call({
          toolId: "terminal-execute",
          category: ToolCategory.Terminal,
          riskLevel: RiskLevel.Medium,
          parameters: { command },
        }),
      );
      expect(decision.kind, command).toBe("deny");
    }
  });

  it("a command the deny rule cannot read (no parse, an unknown program given the denied one) asks, never runs", () => {
    const policy = new ApprovalPolicy({
      tools: { "terminal-execute": "allow" },
      deny: [{ commandPattern: "rm *" }],
    });
    for (const command of ['echo "open', "mywrapper rm -rf /"]) {
      const decision = policy.decide(
        call({
          toolId: "terminal-execute",
          category: ToolCategory.Terminal,
          riskLevel: RiskLevel.Medium,
          parameters: { command },
        }),
      );
      expect(decision.kind, command).toBe("ask");
      expect(decision.kind === "ask" && decision.possiblyDenied, command).toBe(true);
    }
  });

  it("a deny rule with a path pattern asks when there is no workspace to check paths in", () => {
    const policy = new ApprovalPolicy({
      tools: { "file-write": "allow" },
      deny: [{ pathPattern: "secrets/**" }],
    });
    const decision = policy.decide(
      call({ parameters: { path: "secrets/key.pem" }, workspacePath: undefined }),
    );
    expect(decision).toMatchObject({ kind: "ask", possiblyDenied: true });
    expect(policy.decide(call({ parameters: { query: "x" }, workspacePath: undefined })).kind).toBe(
      "allow",
    );
  });

  it("a deny rule with both patterns needs both to hit", () => {
    const policy = new ApprovalPolicy({
      tools: { runner: "allow" },
      deny: [{ pathPattern: "secrets/**", commandPattern: "cat *" }],
    });
    const run = (parameters: JsonObject) =>
      policy.decide(
        call({
          toolId: "runner",
          category: ToolCategory.Terminal,
          riskLevel: RiskLevel.Low,
          parameters,
        }),
      ).kind;
    expect(run({ command: "cat key.pem", cwd: "secrets" })).toBe("deny");
    expect(run({ command: "ls", cwd: "secrets" })).toBe("allow");
    expect(run({ command: "cat key.pem", cwd: "src" })).toBe("allow");
    expect(run({ command: "> out" })).toBe("allow");
  });

  it("a deny rule with a path pattern refuses a call when any of its paths matches", () => {
    const policy = new ApprovalPolicy({
      deny: [{ pathPattern: "secrets/**", reason: "No secrets" }],
    });
    expect(policy.decide(call({ parameters: { path: "secrets/key.pem" } })).kind).toBe("deny");
    expect(
      policy.decide(call({ parameters: { paths: ["src/a/b.ts", "secrets/key.pem"] } })).kind,
    ).toBe("deny");
    expect(policy.decide(call({ parameters: { path: "src/a/b.ts" } })).kind).toBe("allow");
    // Reached through '..' it is the same file.
    expect(policy.decide(call({ parameters: { path: "src/../secrets/key.pem" } })).kind).toBe(
      "deny",
    );
  });

  it("an allow rule with a path pattern covers a call only when every path matches", () => {
    const policy = new ApprovalPolicy({ allow: [{ pathPattern: "src/**/*.ts" }] });
    const medium = (parameters: JsonObject) =>
      policy.decide(call({ riskLevel: RiskLevel.Medium, parameters })).kind;
    expect(medium({ path: "src/a/b.ts" })).toBe("allow");
    expect(medium({ paths: ["src/a/b.ts", "secrets/key.pem"] })).toBe("ask");
    expect(medium({ path: "src/../../x.ts" })).toBe("ask");
    expect(medium({ path: join(outside, "x.ts") })).toBe("ask");
    expect(medium({ query: "no path here" })).toBe("ask");
    // Without a workspace no path pattern can be checked.
    expect(
      policy.decide(
        call({
          riskLevel: RiskLevel.Medium,
          parameters: { path: "src/a/b.ts" },
          workspacePath: undefined,
        }),
      ).kind,
    ).toBe("ask");
  });

  it("an allow rule with a command pattern covers only commands it covers whole", () => {
    const policy = new ApprovalPolicy({ allow: [{ commandPattern: "npm *" }] });
    const run = (command: string) =>
      policy.decide(
        call({
          toolId: "terminal-execute",
          category: ToolCategory.Terminal,
          riskLevel: RiskLevel.Medium,
          parameters: { command },
        }),
      ).kind;
    expect(run("npm test")).toBe("allow");
    expect(run("npm test && rm -rf /")).toBe("ask");
    expect(run("npm test > out")).toBe("ask");
    expect(run("npmx test")).toBe("ask");
  });

  it("reads the parameters configured per tool as paths and commands", () => {
    const config = {
      pathParameters: { "Copy-Tool": ["from", "to"] },
      commandParameters: { runner: ["line"] },
    };
    const policy = new ApprovalPolicy({ ...config, deny: [{ pathPattern: "secrets/**" }] });
    expect(
      policy.decide(
        call({ toolId: "copy-tool", parameters: { from: "src/a/b.ts", to: "secrets/x" } }),
      ).kind,
    ).toBe("deny");
    // The default names are not read for a configured tool.
    expect(
      policy.decide(call({ toolId: "copy-tool", parameters: { path: "secrets/key.pem" } })).kind,
    ).toBe("allow");
    expect(callSubjects("runner", { line: "ls", command: "x" }, config)).toEqual({
      paths: [],
      commands: ["ls"],
    });
  });
});

describe("ApprovalPolicy protected paths", () => {
  const everythingAllowed = new ApprovalPolicy({
    tools: { "file-write": "allow" },
    allow: [{ toolId: "file-write" }, { pathPattern: "**" }],
  });

  it.each([
    [".git/hooks/x"],
    [".git/hooks/pre-commit"],
    [".git/config"],
    ["data/app.db"],
    ["./data/../.git/config"],
    [".git/HEAD"],
    [".git"],
    [".GIT/Config"],
    [".git/modules/sub/hooks/post-checkout"],
    [".git/modules/sub/config"],
    ["vendor/lib/.git/config"],
    [".vscode/tasks.json"],
    [".idea/workspace.xml"],
    [".husky/pre-commit"],
    [".github/workflows/ci.yml"],
    [".gitattributes"],
    [".gitconfig"],
    [".cursor/mcp.json"],
    [".claude/settings.json"],
    [".mcp.json"],
    [".devcontainer/devcontainer.json"],
    [".pre-commit-config.yaml"],
    // Other coding agents' settings, and tools that run a project's file (red team, session 23).
    [".gemini/settings.json"],
    [".qwen/settings.json"],
    [".roo/mcp.json"],
    [".kilocode/mcp.json"],
    [".continue/config.yaml"],
    [".windsurf/rules/x.md"],
    [".zed/settings.json"],
    [".amazonq/mcp.json"],
    [".kiro/settings/mcp.json"],
    [".trae/mcp.json"],
    [".codex/config.toml"],
    ["opencode.json"],
    ["sub/opencode.jsonc"],
    [".opencode/plugin/x.ts"],
    [".aider.conf.yml"],
    ["mise.toml"],
    [".mise.local.toml"],
    [".config/mise/config.toml"],
    ["lefthook.yml"],

    [".env"],
    [".env.local"],
    ["packages/app/.ENV.production"],
    [".npmrc"],
    [".yarnrc"],
    [".yarnrc.yml"],
    [".envrc"],
    [".direnv/bin/x"],
    ["aintern.config.json"],
    [".aintern/state"],
  ])("'%s' asks even with an allow rule and a tool override 'allow'", (path) => {
    const decision = everythingAllowed.decide(call({ parameters: { path } }));
    expect(decision.kind).toBe("ask");
    expect(decision.kind === "ask" && decision.protectedPath).toBe(true);
  });

  it("a symlink leading into .git/hooks is protected like the hooks themselves", () => {
    const decision = everythingAllowed.decide(
      call({ parameters: { path: "src/tools/pre-commit" } }),
    );
    expect(decision.kind).toBe("ask");
  });

  it("a database inside a dot directory is protected too", () => {
    const decision = everythingAllowed.decide(call({ parameters: { path: ".cache/state.db" } }));
    expect(decision.kind).toBe("ask");
  });

  it("an ordinary path is allowed by the same policy", () => {
    expect(everythingAllowed.decide(call({ parameters: { path: "src/a/b.ts" } })).kind).toBe(
      "allow",
    );
  });

  it("configured protected paths replace the defaults", () => {
    const policy = new ApprovalPolicy({
      tools: { "file-write": "allow" },
      protectedPaths: ["secrets/**"],
    });
    expect(policy.decide(call({ parameters: { path: "secrets/key.pem" } })).kind).toBe("ask");
    expect(policy.touchesProtectedPath(call({ parameters: { path: ".git/config" } }))).toBe(false);
  });

  it("a path with a NUL byte is no protected path (the tool cannot open it)", () => {
    expect(
      everythingAllowed.touchesProtectedPath(call({ parameters: { path: ".git/config\0" } })),
    ).toBe(false);
  });

  it("a path outside the workspace is not a protected path of it", () => {
    expect(
      everythingAllowed.touchesProtectedPath(call({ parameters: { path: join(outside, "x.ts") } })),
    ).toBe(false);
  });
});

describe("ApprovalPolicy.guardedPaths (what a walk beyond the call's path must leave alone)", () => {
  it("gives the protected paths and the path patterns of the deny rules that could refuse a read", () => {
    const policy = new ApprovalPolicy({
      protectedPaths: ["**/.env"],
      deny: [
        { pathPattern: "**/.env*" },
        { toolId: "FILE-READ", pathPattern: "secrets/**" },
        { toolId: "search", pathPattern: "big/**" },
        { category: ToolCategory.FileSystem, pathPattern: "private/**" },
        { toolId: "file-write", pathPattern: "src/**" },
        { category: ToolCategory.Terminal, pathPattern: "ops/**" },
        { commandPattern: "cat *", pathPattern: "logs/**" },
        { commandPattern: "rm *" },
      ],
    });
    expect(policy.guardedPaths()).toEqual({
      protectedPaths: ["**/.env"],
      deniedPaths: ["**/.env*", "secrets/**", "big/**", "private/**"],
      changeDeniedPaths: ["**/.env*", "private/**", "src/**"],
    });
    expect(new ApprovalPolicy().guardedPaths()).toEqual({
      protectedPaths: defaultProtectedPathPatterns,
      deniedPaths: [],
      changeDeniedPaths: [],
    });
  });
});
