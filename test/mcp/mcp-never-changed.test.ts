import { mkdir, mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApprovalDecision, ToolCallStatus } from "../../src/calls/index.js";
import { type McpRuntimeOptions, openMcpRuntime } from "../../src/cli/mcp-runtime.js";

/**
 * What the model can never change, approved or not: aintern's configuration and its store. Each
 * call here is approved by a person; the policy or the tool must still refuse it, with the files
 * left as they were.
 */
let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "aintern-never-changed-")));
  await writeFile(join(dir, "a.txt"), "model text\n");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const exists = (path: string) =>
  stat(join(dir, path)).then(
    () => true,
    () => false,
  );

async function put(files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

type Call = (
  toolId: string,
  parameters: Record<string, unknown>,
) => Promise<{ status: string; content: string }>;

async function withRuntime(
  options: McpRuntimeOptions,
  body: (call: Call, runtime: Awaited<ReturnType<typeof openMcpRuntime>>) => Promise<void>,
): Promise<void> {
  const runtime = await openMcpRuntime({ workspace: dir, approvals: "deny", ...options });
  let n = 0;
  try {
    await body(async (toolId, parameters) => {
      const result = await runtime.processor.processCall({
        toolId,
        parameters: parameters as never,
        callId: `call-${++n}`,
        decision: ApprovalDecision.approve(),
      });
      return { status: result.status, content: result.content };
    }, runtime);
  } finally {
    await runtime.close();
  }
}

describe("aintern mcp: the audit store can never be changed by the model", () => {
  it("refuses deleting, overwriting or removing the default store, even approved, and keeps recording", async () => {
    await withRuntime({}, async (call, runtime) => {
      expect(await exists(".aintern/audit.db")).toBe(true);
      for (const [toolId, parameters] of [
        ["file-delete", { path: ".aintern/audit.db" }],
        ["file-delete", { path: ".aintern/audit.db-wal" }],
        ["file-delete", { path: ".aintern", recursive: true }],
        ["file-delete", { path: "./sub/../.aintern", recursive: true }],
        ["file-write", { path: ".aintern/audit.db", content: "x", overwrite: true }],
        ["file-write", { path: ".aintern/new.txt", content: "x" }],
        ["terminal-execute", { command: "rm -f .aintern/audit.db" }],
        ["terminal-execute", { command: "rm -rf .aintern" }],
        ["terminal-execute", { command: "mv .aintern gone" }],
        ["terminal-execute", { command: "find . -delete" }],
        ["terminal-execute", { command: "rm -rf ./.ain*" }],
      ] as const) {
        const result = await call(toolId, parameters);
        expect(result.status, `${toolId} ${JSON.stringify(parameters)}`).toBe(
          ToolCallStatus.Denied,
        );
        expect(result.content).toContain("aintern's audit store");
      }
      expect(await exists(".aintern/audit.db")).toBe(true);
      expect(await exists("a.txt")).toBe(true);
      // Reading it is as before: a protected path, so it asks.
      expect(
        await runtime.processor.needsApproval("file-read", { path: ".aintern/audit.db" }),
      ).toMatchObject({ reason: expect.stringMatching(/protected/i) });
      // And every refused call is in the audit log the model could not delete.
      expect(await runtime.store.audit.count()).toBeGreaterThanOrEqual(11);
    });
  });

  it("refuses the same for a store named with --db inside the workspace: the file and its siblings", async () => {
    await mkdir(join(dir, "data"));
    await withRuntime({ db: `sqlite:${join(dir, "data", "calls.db")}` }, async (call) => {
      for (const [toolId, parameters] of [
        ["file-delete", { path: "data/calls.db" }],
        ["file-delete", { path: "data/calls.db-shm" }],
        ["file-delete", { path: "data/calls.db-journal" }],
        ["file-write", { path: "data/calls.db-inflight.1.abc", content: "x" }],
        ["file-delete", { path: "data", recursive: true }],
        ["terminal-execute", { command: "rm -rf data" }],
      ] as const) {
        const result = await call(toolId, parameters);
        expect(result.status, `${toolId} ${JSON.stringify(parameters)}`).toBe(
          ToolCallStatus.Denied,
        );
        expect(result.content).toContain("aintern's audit store");
      }
      expect(await exists("data/calls.db")).toBe(true);
      // A file beside it is the model's.
      expect((await call("file-write", { path: "data/notes.md", content: "x" })).status).toBe(
        ToolCallStatus.Completed,
      );
    });
  });
});

describe("aintern mcp: a recursive delete never removes a guarded path inside the folder", () => {
  it("refuses deleting a folder that holds a second configuration, at the tool, deleting nothing", async () => {
    await put({ "proj/aintern.config.json": "{}", "proj/src/app.ts": "x" });
    await withRuntime({}, async (call) => {
      const result = await call("file-delete", { path: "proj", recursive: true });
      expect(result.status).toBe(ToolCallStatus.Failed);
      expect(result.content).toContain(
        "'proj' holds 'proj/aintern.config.json', which a policy deny rule keeps from being changed",
      );
      expect(await exists("proj/src/app.ts")).toBe(true);
      expect(await exists("proj/aintern.config.json")).toBe(true);
      // A folder without one is deleted as before.
      await put({ "other/x.txt": "x" });
      expect((await call("file-delete", { path: "other", recursive: true })).status).toBe(
        ToolCallStatus.Completed,
      );
      expect(await exists("other")).toBe(false);
    });
  });

  it("denies removing or moving the folder of the configuration in use, by the tool or a command", async () => {
    await put({ "cfg/custom.json": "{}", "cfg/readme.md": "x" });
    await withRuntime({ config: join(dir, "cfg", "custom.json") }, async (call) => {
      for (const [toolId, parameters] of [
        ["file-delete", { path: "cfg", recursive: true }],
        ["file-delete", { path: "cfg/custom.json" }],
        ["terminal-execute", { command: "rm -rf cfg" }],
        ["terminal-execute", { command: "mv cfg elsewhere" }],
        ["terminal-execute", { command: "rm -r ./cfg/../cfg" }],
        ["terminal-execute", { command: "rm -rf c*" }],
        ["terminal-execute", { command: "rm -rf ." }],
        ["terminal-execute", { command: "rm -rf ..", cwd: "cfg/sub" }],
      ] as const) {
        const result = await call(toolId, parameters);
        expect(result.status, `${toolId} ${JSON.stringify(parameters)}`).toBe(
          ToolCallStatus.Denied,
        );
        expect(result.content).toContain("aintern's configuration");
      }
      expect(await exists("cfg/custom.json")).toBe(true);
      // Reading the folder, or removing something else, is not what the rule is about.
      for (const command of ["grep -r model .", "ls cfg", "rm -rf other"]) {
        expect((await call("terminal-execute", { command })).status, command).toBe(
          ToolCallStatus.Completed,
        );
      }
    });
  });
});

describe("aintern mcp: a command that may name the configuration in a way that cannot be checked", () => {
  it("is denied, not asked, for the configuration; a glob that cannot match it still runs as before", async () => {
    await writeFile(join(dir, "aintern.config.json"), JSON.stringify({ policy: {} }));
    const original = await readFile(join(dir, "aintern.config.json"), "utf8");
    await withRuntime({}, async (call, runtime) => {
      for (const command of [
        "cp a.txt aintern.conf*.json",
        "cp a.txt AINTERN.CONFIG.JSO?",
        'cp a.txt "$TARGET"',
        "cp a.txt $(printf aintern.config.json)",
        "cp a.txt aintern.{config,x}.json",
      ]) {
        const result = await call("terminal-execute", { command });
        expect(result.status, command).toBe(ToolCallStatus.Denied);
        expect(result.content, command).toContain("aintern's configuration");
      }
      expect(await readFile(join(dir, "aintern.config.json"), "utf8")).toBe(original);
      // A glob that matches nothing guarded is judged as before (it asks: it names unknown files).
      const glob = await runtime.processor.needsApproval("terminal-execute", {
        command: "cat *.txt",
      });
      expect(glob).toMatchObject({ reason: expect.not.stringMatching(/configuration/) });
      expect((await call("terminal-execute", { command: "cat *.txt" })).status).toBe(
        ToolCallStatus.Completed,
      );
    });
  });

  it("keeps a user's own deny rule as it was: a command it cannot be checked against asks", async () => {
    await writeFile(
      join(dir, "aintern.config.json"),
      JSON.stringify({ policy: { deny: [{ pathPattern: "**/.env*", reason: "No secrets" }] } }),
    );
    await withRuntime({}, async (_call, runtime) => {
      const decision = runtime.policy.decide({
        toolId: "terminal-execute",
        category: "Terminal" as never,
        riskLevel: 2,
        parameters: { command: "cat .e*" },
        workspacePath: dir,
      });
      expect(decision).toMatchObject({
        kind: "ask",
        possiblyDenied: true,
        reason: expect.stringContaining("**/.env*"),
      });
    });
  });
});
