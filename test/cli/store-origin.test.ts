// A repository that ships `.aintern/audit.db` with remembered approvals must not get its calls
// run unasked: the default store is used only when aintern made it for this user (or the user
// adopted it with `aintern trust --store`).
import { randomUUID } from "node:crypto";
import {
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { UnknownStoreError } from "../../src/cli/store-origin.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import { openStore } from "../../src/store/index.js";
import { runCliCaptured, useTemporaryAinternHome } from "./cli-in-process.js";

const home = useTemporaryAinternHome();
const command = { command: "rm -r build" };

let workspaces: string[] = [];
afterEach(async () => {
  await Promise.all(workspaces.map((w) => rm(w, { recursive: true, force: true })));
  workspaces = [];
});

async function workspace(): Promise<string> {
  const made = await realpath(await mkdtemp(join(tmpdir(), "aintern-store-origin-")));
  workspaces.push(made);
  return made;
}

/** What a hostile repository ships: a store remembering "always" for the terminal. */
async function plantGrants(dir: string): Promise<void> {
  await mkdir(join(dir, ".aintern"), { recursive: true });
  const store = await openStore(`sqlite:${join(dir, ".aintern", "audit.db")}`);
  await store.permissions.add({
    id: randomUUID(),
    toolId: "terminal-execute",
    scope: "tool",
    maxRiskLevel: 3,
    createdAt: new Date(),
  });
  await store.close();
}

/** "Always" for the terminal, remembered by `aintern mcp`'s runtime as a person's answer would be. */
async function rememberAlways(
  dir: string,
  parameters: Record<string, string> = command,
  riskLevel: RiskLevel = RiskLevel.High,
): Promise<void> {
  const runtime = await openMcpRuntime({ workspace: dir });
  try {
    await runtime.permissions.remember({
      call: {
        toolId: "terminal-execute",
        category: ToolCategory.Terminal,
        riskLevel,
        parameters,
        workspacePath: dir,
      },
      sessionId: "s",
      rememberForSession: false,
      rememberForTool: true,
    });
  } finally {
    await runtime.close();
  }
}

/** Whether a High command in `dir` would run unasked, judged by `aintern mcp`'s runtime. */
async function runsUnasked(dir: string): Promise<boolean> {
  const runtime = await openMcpRuntime({ workspace: dir });
  try {
    return (await runtime.processor.needsApproval("terminal-execute", command)) === false;
  } finally {
    await runtime.close();
  }
}

describe("the workspace's default store", () => {
  it("is refused when it came with the repository, so its remembered approvals never apply", async () => {
    const repo = await workspace();
    await plantGrants(repo);
    const refused = openMcpRuntime({ workspace: repo });
    await expect(refused).rejects.toBeInstanceOf(UnknownStoreError);
    await expect(refused).rejects.toThrow(
      /was not made by aintern for you.*aintern trust --store/s,
    );
    // Every command that reads the store refuses it alike.
    for (const argv of [
      ["audit", "--workspace", repo, "--json"],
      ["permissions", "list", "--workspace", repo],
    ]) {
      const { code, output } = await runCliCaptured(argv);
      expect(code, argv.join(" ")).not.toBe(0);
      expect(output).toContain("was not made by aintern for you");
    }
  });

  it("is used once the user adopts it with aintern trust --store, but grants aintern did not sign stay ignored", async () => {
    const repo = await workspace();
    await plantGrants(repo);
    const adopted = await runCliCaptured(["trust", "--store", "--workspace", repo]);
    expect(adopted.code).toBe(0);
    expect(adopted.output).toContain("Adopted");
    expect(await readdir(join(home(), "stores"))).toHaveLength(1);
    // The planted "always" is a row anyone could write; only grants signed with the user's key
    // (in AINTERN_HOME) are honoured.
    expect(await runsUnasked(repo)).toBe(false);
    const listed = await runCliCaptured(["permissions", "list", "--json", "--workspace", repo]);
    expect(listed.code).toBe(0);
    const rows = listed.output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { toolId: string; honoured: boolean });
    expect(rows.map((r) => [r.toolId, r.honoured])).toEqual([["terminal-execute", false]]);
    // One the person remembers here is signed, and honoured.
    await rememberAlways(repo);
    expect(await runsUnasked(repo)).toBe(true);
  });

  it("is made, recorded and used again when aintern makes it; a remembered approval then holds", async () => {
    const dir = await workspace();
    await rememberAlways(dir);
    expect(await runsUnasked(dir)).toBe(true);
  });

  it("honours no grant whose signed fields were changed in the store", async () => {
    const dir = await workspace();
    await rememberAlways(dir, { command: "echo hi" }, RiskLevel.Low);
    const db = new Database(join(dir, ".aintern", "audit.db"));
    try {
      // The grant was for Low calls; the row is raised to High, its id (and signature) kept.
      const changed = db
        .prepare("UPDATE agent_tools_tool_permissions SET max_risk_level = 3")
        .run().changes;
      expect(changed).toBe(1);
    } finally {
      db.close();
    }
    expect(await runsUnasked(dir)).toBe(false);
  });

  it("does not carry its trust to a copy: a known store copied into another workspace is refused", async () => {
    const mine = await workspace();
    await (await openMcpRuntime({ workspace: mine })).close();
    const other = await workspace();
    await mkdir(join(other, ".aintern"));
    await copyFile(join(mine, ".aintern", "audit.db"), join(other, ".aintern", "audit.db"));
    await expect(openMcpRuntime({ workspace: other })).rejects.toBeInstanceOf(UnknownStoreError);
  });

  it.each([
    ["a write-ahead log", "audit.db-wal"],
    ["a rollback journal", "audit.db-journal"],
    ["an in-flight journal", "audit.db-inflight.1.x.t0.main"],
  ])(
    "is refused when %s came with the repository, with or without the database",
    async (_, name) => {
      for (const withDatabase of [false, true]) {
        const repo = await workspace();
        await mkdir(join(repo, ".aintern"));
        await writeFile(join(repo, ".aintern", name), "rows the store would take in");
        if (withDatabase) await writeFile(join(repo, ".aintern", "audit.db"), "");
        await expect(openMcpRuntime({ workspace: repo })).rejects.toThrow(
          new RegExp(`${name.replace(/\./g, "\\.")} was there before it|no record of making it`),
        );
      }
    },
  );

  it("is accepted when it is there but empty (it holds nothing; another process may just have made it)", async () => {
    const dir = await workspace();
    await mkdir(join(dir, ".aintern"));
    await writeFile(join(dir, ".aintern", "audit.db"), "");
    expect(await runsUnasked(dir)).toBe(false);
    // Recorded: the store it became is used again.
    await (await openMcpRuntime({ workspace: dir })).close();
  });

  it("is not adopted when it is missing, or links out of the workspace", async () => {
    const empty = await workspace();
    const missing = await runCliCaptured(["trust", "--store", "--workspace", empty]);
    expect(missing.code).toBe(1);
    expect(missing.output).toContain("No store at");

    const elsewhere = await workspace();
    await plantGrants(elsewhere);
    const repo = await workspace();
    await symlink(join(elsewhere, ".aintern"), join(repo, ".aintern"));
    const linked = await runCliCaptured(["trust", "--store", "--workspace", repo]);
    expect(linked.code).toBe(1);
    expect(linked.output).toContain("leads out of the workspace");
  });
});
