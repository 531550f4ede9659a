import { execFileSync } from "node:child_process";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BuiltinToolErrorCode,
  type ListDirectoryData,
  ListDirectoryTool,
  listDirectoryTool,
} from "../../src/builtin/index.js";
import type { ToolProgress } from "../../src/context/index.js";
import { RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import { writeTree } from "./tree-fixture.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
  await writeTree(ws);
});
afterEach(async () => {
  await ws.remove();
});

async function list(parameters: Record<string, unknown>): Promise<ListDirectoryData> {
  const result = await run(listDirectoryTool, ws.root, parameters as never);
  expect(result.success, result.error).toBe(true);
  return result.data as ListDirectoryData;
}
const paths = (data: ListDirectoryData) => data.entries.map((e) => e.path);

describe("list-directory", () => {
  it("lists one level with types and sizes, leaving out what .gitignore ignores", async () => {
    const data = await list({});
    expect(paths(data)).toEqual([".git", ".gitignore", "docs", "image.bin", "link-out", "src"]);
    expect(data.entries.find((e) => e.name === ".gitignore")).toEqual({
      path: ".gitignore",
      name: ".gitignore",
      type: "file",
      size: "node_modules/\n*.log\nbuild/\n".length,
    });
    expect(data.entries.find((e) => e.name === "src")?.type).toBe("directory");
    expect(data.ignoredCount).toBe(2);
    expect(data.truncated).toBe(false);
  });

  it("lists a symbolic link with its target and never follows it", async () => {
    const data = await list({ depth: 3 });
    const link = data.entries.find((e) => e.name === "link-out");
    expect(link).toEqual({
      path: "link-out",
      name: "link-out",
      type: "symlink",
      target: ws.outside,
    });
    expect(paths(data).some((p) => p.startsWith("link-out/"))).toBe(false);
    expect(paths(data).some((p) => p.includes("secret"))).toBe(true); // the link entry itself
    expect(data.entries.find((e) => e.name === "link-secret.txt")?.type).toBe("symlink");
  });

  it("recurses to the given depth honouring nested .gitignore files and negations", async () => {
    const data = await list({ depth: 4 });
    const all = paths(data);
    expect(all).toContain("src/app.ts");
    expect(all).toContain("src/keep.log"); // re-included by src/.gitignore
    expect(all).toContain("src/deep/nested/x.ts");
    expect(all).not.toContain("src/generated.ts");
    expect(all).not.toContain("src/debug.log");
    expect(all.some((p) => p.startsWith("node_modules"))).toBe(false);
    expect(all.some((p) => p.startsWith(".git/"))).toBe(false);
    const shallow = paths(await list({ depth: 2 }));
    expect(shallow).toContain("src/deep");
    expect(shallow).not.toContain("src/deep/nested");
  });

  it("includes ignored entries when respectGitignore is false, still without entering .git", async () => {
    const all = paths(await list({ depth: 3, respectGitignore: false }));
    expect(all).toContain("node_modules/pkg");
    expect(all).toContain("src/generated.ts");
    expect(all).toContain(".git");
    expect(all.some((p) => p.startsWith(".git/"))).toBe(false);
  });

  it("filters by a glob on names, or on paths when the glob has a slash", async () => {
    expect(paths(await list({ depth: 5, pattern: "*.ts" }))).toEqual([
      "src/app.ts",
      "src/deep/nested/x.ts",
      "src/util.ts",
    ]);
    expect(paths(await list({ depth: 5, pattern: "src/*.ts" }))).toEqual([
      "src/app.ts",
      "src/util.ts",
    ]);
  });

  it("lists a directory named explicitly even when .gitignore ignores it", async () => {
    const data = await list({ path: "node_modules", depth: 2 });
    expect(data.path).toBe("node_modules");
    expect(paths(data)).toEqual(["node_modules/pkg", "node_modules/pkg/index.js"]);
  });

  it("stops at maxEntries with a note", async () => {
    const data = await list({ depth: 5, maxEntries: 3 });
    expect(data.entries).toHaveLength(3);
    expect(data.truncated).toBe(true);
    expect(data.note).toMatch(/stopped at 3 entries/);
    const capped = new ListDirectoryTool({ maxEntries: 2 });
    const result = await run(capped, ws.root, { depth: 5 });
    expect((result.data as ListDirectoryData).entries).toHaveLength(2);
  });

  it("gives every entry its size or target, the first described synchronously and the rest not", async () => {
    // 300 files of distinct sizes and links past the 256th entry: the later entries are looked
    // up through the thread pool, and must say the same as the first ones.
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i++) files[`wide/f${String(i).padStart(3, "0")}.txt`] = "x".repeat(i);
    await ws.write(files);
    execFileSync("ln", ["-s", "f000.txt", `${ws.root}/wide/a-link`]);
    execFileSync("ln", ["-s", "../elsewhere", `${ws.root}/wide/z-link`]);
    const data = await list({ path: "wide", maxEntries: 10_000 });
    expect(data.entries).toHaveLength(302);
    expect(data.entries[0]).toEqual({
      path: "wide/a-link",
      name: "a-link",
      type: "symlink",
      target: "f000.txt",
    });
    for (let i = 0; i < 300; i++) {
      expect(data.entries[i + 1]).toMatchObject({ type: "file", size: i });
    }
    expect(data.entries[301]).toEqual({
      path: "wide/z-link",
      name: "z-link",
      type: "symlink",
      target: "../elsewhere",
    });
  });

  it("reports progress on a long walk", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1200; i++) files[`many/f${i}.txt`] = "";
    await ws.write(files);
    const progress: ToolProgress[] = [];
    const result = await run(
      listDirectoryTool,
      ws.root,
      { path: "many", maxEntries: 10_000 },
      { progress },
    );
    expect((result.data as ListDirectoryData).entries).toHaveLength(1200);
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it("lists a FIFO as 'other'", async () => {
    execFileSync("mkfifo", [ws.path("pipe")]);
    const data = await list({});
    expect(data.entries.find((e) => e.name === "pipe")).toEqual({
      path: "pipe",
      name: "pipe",
      type: "other",
    });
  });

  it("fails clearly for a file or a missing directory", async () => {
    const file = await run(listDirectoryTool, ws.root, { path: "src/app.ts" });
    expect(file.errorCode).toBe(BuiltinToolErrorCode.WrongEntryType);
    const missing = await run(listDirectoryTool, ws.root, { path: "nope" });
    expect(missing.errorCode).toBe(ToolErrorCode.PathNotFound);
  });

  it("is Safe and says what it will list", () => {
    expect(listDirectoryTool.getEffectiveRiskLevel({})).toBe(RiskLevel.Safe);
    expect(listDirectoryTool.getExecutionSummary({})).toBe("List directory '.'");
    expect(listDirectoryTool.getExecutionSummary({ path: "src", depth: 3, pattern: "*.ts" })).toBe(
      "List directory 'src' (3 levels) matching '*.ts'",
    );
  });
});

describe("list-directory beyond the call's own path", () => {
  beforeEach(async () => {
    await ws.write({
      ".env": "API_KEY=sk-live-123\n",
      ".aintern/audit.db-inflight.1.x": "{}\n",
      ".vscode/settings.json": "{}\n",
      "private/keys.txt": "PRIVATE\n",
      "src/.env.production": "DB_PASS=hunter2\n",
    });
  });

  it("lists protected and denied entries by name but never enters them, nor aintern's store", async () => {
    const tool = new ListDirectoryTool({ deniedPaths: ["private/**"] });
    const result = await run(tool, ws.root, { depth: 5 });
    expect(result.success, result.error).toBe(true);
    const data = result.data as ListDirectoryData;
    const listed = paths(data);
    expect(listed).toEqual(expect.arrayContaining([".aintern", ".vscode", "private", ".env"]));
    expect(listed).toContain("src/.env.production");
    for (const inside of [".aintern/", ".vscode/", "private/", ".git/"]) {
      expect(
        listed.some((p) => p.startsWith(inside)),
        inside,
      ).toBe(false);
    }
    expect(data.note).toMatch(/1 directory listed but not entered \(\.vscode\/\): protected/);
    expect(data.note).toMatch(/\(private\/\): a policy deny rule/);
    expect(data.note).toMatch(/\(\.aintern\/\): aintern's own store/);
    // One level: nothing would have been entered, so nothing is said.
    expect((await list({})).note).toBeUndefined();
  });

  it("lists a protected directory the call names (the policy asked), never the store", async () => {
    expect(paths(await list({ path: ".vscode" }))).toEqual([".vscode/settings.json"]);
    for (const path of [".aintern", "src/../.aintern"]) {
      const result = await run(listDirectoryTool, ws.root, { path });
      expect(result.success).toBe(false);
      expect(result.errorCode).toBe(ToolErrorCode.Denied);
      expect(result.error).toMatch(/aintern's own store/);
      expect(JSON.stringify(result)).not.toContain("inflight");
    }
  });
});
