import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RememberedPermissions } from "../../src/approval/index.js";
import { type JsonObject, RiskLevel, ToolCategory } from "../../src/core/index.js";
import { approvalForm, suggestPattern } from "../../src/mcp/index.js";
import { matchCommandPattern, validateCommandPattern } from "../../src/shell/index.js";

let workspace: string;
let outside: string;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "aintern-form-"));
  outside = mkdtempSync(join(tmpdir(), "aintern-form-outside-"));
  mkdirSync(join(workspace, "src", "app"), { recursive: true });
  mkdirSync(join(workspace, "lib"));
  writeFileSync(join(workspace, "a.txt"), "");
  writeFileSync(join(workspace, "lib", "a.txt"), "");
  symlinkSync(join(workspace, "lib"), join(workspace, "linked"));
  symlinkSync(outside, join(workspace, "out"));
});

afterAll(() => {
  for (const dir of [workspace, outside]) rmSync(dir, { recursive: true, force: true });
});

/** Whether choosing `pattern` on the form for this call is accepted, as the server remembers it. */
async function accepted(toolId: string, parameters: JsonObject, pattern: string) {
  const call = {
    toolId,
    category: ToolCategory.FileSystem,
    riskLevel: RiskLevel.Medium,
    parameters,
    workspacePath: workspace,
  };
  const permissions = new RememberedPermissions();
  const [grant] = await permissions.remember({
    call,
    sessionId: "s",
    rememberForSession: false,
    rememberForTool: true,
    rememberPattern: pattern,
  });
  return { permissions, grant: grant!, call };
}

function form(parameters: JsonObject, summary: string, reason = "Medium Risk calls need approval") {
  return approvalForm({
    toolId: "terminal-execute",
    toolName: "terminal-execute",
    parameters,
    need: { reason, riskLevel: RiskLevel.Medium, summary },
  });
}

describe("the approval form's text", () => {
  it("shows the ANSI sequences, carriage return and backspaces of a command as escapes", () => {
    const command = "touch PWNED \u001b[2K\r\u001b[8m# \u001b[0mecho harmless\b\b";
    const { message } = form({ command }, `Run \`${command}\``);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
    expect(message).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
    expect(message).toContain(
      "Run `touch PWNED \\u001b[2K\\r\\u001b[8m# \\u001b[0mecho harmless\\b\\b`",
    );
    expect(message).toContain(
      '"command": "touch PWNED \\u001b[2K\\r\\u001b[8m# \\u001b[0mecho harmless\\b\\b"',
    );
  });

  it("shows a command with a real line break unlike one with the text \\n (a backslash, then n)", () => {
    // In a shell the line break starts a second command; the text \n is part of echo's argument.
    const real = "echo 'ok'\nrm -rf ~/x";
    const literal = "echo 'ok'\\nrm -rf ~/x";
    const [, realSummary] = form({ command: real }, `Run \`${real}\``).message.split("\n");
    const [, literalSummary] = form({ command: literal }, `Run \`${literal}\``).message.split("\n");
    expect(realSummary).toBe("Run `echo 'ok'\\nrm -rf ~/x`");
    expect(literalSummary).toBe("Run `echo 'ok'\\\\nrm -rf ~/x`");
    // The arguments are JSON, whose backslashes are escapes already: not doubled again.
    expect(form({ command: real }, "").message).toContain('"command": "echo \'ok\'\\nrm -rf ~/x"');
    expect(form({ command: literal }, "").message).toContain(
      '"command": "echo \'ok\'\\\\nrm -rf ~/x"',
    );
  });

  it("shows invisible characters of the summary, reason, warning and arguments as escapes", () => {
    const hidden = "\u0085\u009b\u200b\u200f\u2028\u2029\u202e\u2066\ufeff\u{e0041}";
    const message = approvalForm({
      toolId: "x",
      toolName: "x",
      parameters: { [`key${hidden}`]: `value${hidden}` },
      need: {
        reason: `reason${hidden}`,
        riskLevel: RiskLevel.Medium,
        summary: `summary${hidden}`,
        warning: `warning${hidden}`,
      },
    }).message;
    expect(message).not.toMatch(/[\u0080-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/);
    expect(message).not.toMatch(/\p{Cf}/u);
    for (const where of ["summary", "reason", "warning", "key", "value"]) {
      expect(message).toContain(`${where}\\u0085\\u009b\\u200b\\u200f\\u2028\\u2029\\u202e`);
    }
    // The message's own lines are the only line breaks.
    expect(message.split("\n")[1]).toMatch(/^summary/);
  });

  it("counts a long run of spaces in a command, so its end (`; touch PWNED`) stays in view", () => {
    const command = `echo harmless${" ".repeat(2100)}; touch PWNED`;
    const { message } = form({ command }, `Run \`${command}\``);
    expect(message).toContain("Run `echo harmless[2,100 spaces]; touch PWNED`");
    expect(message).toContain('"command": "echo harmless[2,100 spaces]; touch PWNED"');
  });

  it("shows the start and the end of a long argument, saying how much of it is not shown", () => {
    const command = `echo ${"a".repeat(5000)}; rm -rf ~`;
    const other = `${"b".repeat(5000)}-end-of-other`;
    const { message } = form({ command, other }, `Run \`${command}\``);
    expect(message).toMatch(/"command": "echo a+… \([\d,]+ characters not shown\) …a+; rm -rf ~"/);
    expect(message).toMatch(/"other": "b+… \([\d,]+ characters not shown\) …b+-end-of-other"/);
    expect(message).toMatch(/^Run `echo a+… \([\d,]+ characters not shown\) …a+; rm -rf ~`$/m);
    expect(message).not.toContain("...");
    expect(message.length).toBeLessThan(8_000);
  });

  it("cuts a block of many arguments in its middle too, and says so", () => {
    const parameters: JsonObject = {};
    for (let i = 0; i < 40; i++) parameters[`p${i}`] = "v".repeat(500);
    parameters.last = "the end";
    const { message } = form(parameters, "Run something");
    expect(message).toMatch(/… \([\d,]+ characters not shown\) …/);
    expect(message).toMatch(/"last": "the end"\n}$/);
  });

  it("escapes the tool's name in the choices' titles too", () => {
    const result = approvalForm({
      toolId: "x",
      toolName: "x\u001b[2Kdelete-everything",
      parameters: {},
      need: { reason: "r", riskLevel: RiskLevel.Medium, summary: "s" },
    });
    const decision = (result.requestedSchema.properties as Record<string, { enumNames?: string[] }>)
      .decision;
    expect(decision?.enumNames).toContain("Always approve x\\u001b[2Kdelete-everything");
    expect(result.message).toMatch(/^aintern: x\\u001b\[2Kdelete-everything wants to run/);
  });
});

describe("the pattern the form suggests for a path", () => {
  const suggest = (path: string) =>
    suggestPattern("file-delete", { path }, { workspacePath: workspace });

  it("offers the root's files, never the whole workspace, for a file at the root", async () => {
    expect(suggest("a.txt")).toBe("*");
    const { permissions, grant, call } = await accepted("file-delete", { path: "a.txt" }, "*");
    expect(permissions.covers(grant, call)).toBe(true);
    expect(permissions.covers(grant, { ...call, parameters: { path: "src/app/x.ts" } })).toBe(
      false,
    );
  });

  it("offers the folder below the root (src/app/**), as before", () => {
    expect(suggest("src/app/main.ts")).toBe("src/app/**");
  });

  it("resolves '..' first, so the suggestion passes the validator and is accepted", async () => {
    expect(suggest("src/../a.txt")).toBe("*");
    expect(suggest("src/app/../../lib/a.txt")).toBe("lib/**");
    const { permissions, grant, call } = await accepted(
      "file-delete",
      { path: "src/app/../../lib/a.txt" },
      "lib/**",
    );
    expect(permissions.covers(grant, call)).toBe(true);
  });

  it("follows a symlink, so the suggestion covers where the path really leads", async () => {
    expect(suggest("linked/a.txt")).toBe("lib/**");
    const { permissions, grant, call } = await accepted(
      "file-delete",
      { path: "linked/a.txt" },
      "lib/**",
    );
    expect(permissions.covers(grant, call)).toBe(true);
  });

  it("offers the file itself when a glob would not cover it (a name starting with '.')", async () => {
    expect(suggest(".env")).toBe(".env");
    expect(suggest("src/.env")).toBe("src/.env");
    const { permissions, grant, call } = await accepted("file-delete", { path: ".env" }, ".env");
    expect(permissions.covers(grant, call)).toBe(true);
  });

  it("offers nothing for a path outside the workspace, the root itself, or a name with glob syntax", () => {
    expect(suggest("../x.txt")).toBeUndefined();
    expect(suggest("out/x.txt")).toBeUndefined();
    expect(suggest(".")).toBeUndefined();
    expect(suggest("src/[draft].md")).toBeUndefined();
    expect(suggest("*/a.txt")).toBeUndefined();
    expect(suggest("src/\u200b/a.txt")).toBeUndefined();
  });

  it("offers nothing without a workspace (a path pattern is remembered only in one)", () => {
    expect(suggestPattern("file-delete", { path: "src/app/main.ts" })).toBeUndefined();
  });

  it("puts no pattern choice in the form when none can be suggested", () => {
    const result = approvalForm({
      toolId: "file-delete",
      toolName: "file-delete",
      parameters: { path: "../x.txt" },
      need: { reason: "r", riskLevel: RiskLevel.Medium, summary: "Delete ../x.txt" },
      workspacePath: workspace,
    });
    const properties = result.requestedSchema.properties as Record<string, { enum?: string[] }>;
    expect(properties.decision?.enum).not.toContain("approve_pattern");
    expect(properties.pattern).toBeUndefined();
  });
});

describe("the pattern the form suggests for a command", () => {
  const suggest = (command: string) => suggestPattern("terminal-execute", { command });

  it("offers nothing that would approve any command: wrappers, shells, interpreters, eval", () => {
    for (const command of [
      "sudo rm -rf build",
      "env ls",
      "A=1 ls -la",
      "xargs rm",
      "timeout 5 ls",
      "sh -c 'ls'",
      "bash script.sh",
      "python -c 'print(1)'",
      "node build.js",
      "eval ls",
      "find . -name x",
      "npm exec foo",
      "npx sh -c ls",
      "uv run tool",
      "git -c alias.x=!sh x",
      "npm --prefix x exec foo",
    ]) {
      expect(suggest(command), command).toBeUndefined();
    }
  });

  it("offers nothing for a program named by a glob or an expansion, which `*` would read as any", () => {
    for (const command of ["* x", "'*' x", "l* -la", "$CMD x", "~/bin/tool x"]) {
      expect(suggest(command), command).toBeUndefined();
    }
  });

  it("suggests the command exactly, never with a wildcard that would take any option", () => {
    expect(suggest("npm run build")).toBe("npm run build");
    expect(suggest("npm run build -- --watch")).toBe("npm run build -- --watch");
    expect(suggest("go run main.go")).toBe("go run main.go");
    expect(suggest("docker run -it ubuntu")).toBeUndefined();
    expect(suggest("npx vitest run")).toBe("npx vitest run");
    // Each of these, remembered as `prog sub *`, approved running code or writing anywhere.
    for (const [safe, attack] of [
      ["make test", 'make test --eval="$(shell touch /tmp/pwned)"'],
      ["npm test -- --watch", "npm test --script-shell=/tmp/x"],
      ["curl https://example.com", "curl -sS -o aintern.config.json https://example.com"],
      ["zip -T x.zip", 'zip x.zip a.txt -T -TT "touch /tmp/pwned #"'],
      ["go test ./...", "go test -exec /tmp/evil ./..."],
    ]) {
      const pattern = suggest(safe as string);
      expect(pattern, safe).toBe(safe);
      expect(matchCommandPattern(pattern as string, attack as string), attack).toBe(false);
    }
  });

  it("offers only a pattern that covers every command of the line", () => {
    expect(suggest("npm test && rm -rf build")).toBeUndefined();
    expect(suggest("ls; ls -la")).toBeUndefined();
    expect(suggest("ls -l && ls -a")).toBeUndefined();
  });

  it("offers a pattern the validator and the remembered permissions accept", async () => {
    for (const command of ["npm test -- --watch", "ls -la src", "make", "git push origin main"]) {
      const pattern = suggest(command);
      expect(pattern, command).toBeDefined();
      expect(validateCommandPattern(pattern!)).toBeUndefined();
      const { permissions, grant, call } = await accepted(
        "terminal-execute",
        { command },
        pattern!,
      );
      expect(permissions.covers(grant, call)).toBe(true);
    }
  });

  it("offers nothing for a command with control characters (it does not parse)", () => {
    expect(suggest("touch PWNED \u001b[2K\recho harmless")).toBeUndefined();
  });
});

describe("what a remembered approval covers", () => {
  // Red team (session 19): approving `touch x` for the session approved `python3 -c ...` too (the
  // grant covers the tool up to the call's risk), and the form did not say so.
  it("says that session, always and pattern approvals cover later calls up to the call's risk", () => {
    const { message } = approvalForm({
      toolId: "terminal-execute",
      toolName: "terminal-execute",
      parameters: { command: "touch x" },
      need: { reason: "r", riskLevel: RiskLevel.Medium, summary: "Run touch x" },
    });
    expect(message).toContain(
      "Approving for this session, always or for a pattern also approves later terminal-execute calls up to Medium risk, not only this one.",
    );
  });

  it("says nothing of it for a Critical call, which is never remembered", () => {
    const { message } = approvalForm({
      toolId: "terminal-execute",
      toolName: "terminal-execute",
      parameters: { command: "rm -rf /" },
      need: { reason: "r", riskLevel: RiskLevel.Critical, summary: "Run rm" },
    });
    expect(message).not.toContain("also approves later");
  });
});
