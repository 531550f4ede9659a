import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BuiltinToolErrorCode,
  type FileDeleteData,
  FileDeleteTool,
  fileDeleteTool,
} from "../../src/builtin/index.js";
import type { ToolProgress } from "../../src/context/index.js";
import { RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import { ArtifactAction } from "../../src/result/index.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
});
afterEach(async () => {
  await ws.remove();
});

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe("file-delete", () => {
  it("deletes a file with a deleted-file artifact", async () => {
    await ws.write({ "a.txt": "a" });
    const result = await run(fileDeleteTool, ws.root, { path: "a.txt" });
    expect(result.success).toBe(true);
    expect(await exists(ws.path("a.txt"))).toBe(false);
    expect(result.data).toEqual({ path: "a.txt", type: "file" } satisfies FileDeleteData);
    expect(result.artifacts[0]).toMatchObject({ path: "a.txt", action: ArtifactAction.Deleted });
  });

  it("deletes a link to a file inside the workspace, not the file", async () => {
    await ws.write({ "real.txt": "keep" });
    await ws.link("alias.txt", "real.txt");
    const result = await run(fileDeleteTool, ws.root, { path: "alias.txt" });
    expect((result.data as FileDeleteData).type).toBe("symlink");
    expect(result.artifacts[0]?.description).toMatch(/target was kept/);
    expect(await readFile(ws.path("real.txt"), "utf8")).toBe("keep");
  });

  it("deletes a link to a directory without entering it, even recursively", async () => {
    await ws.write({ "d/keep.txt": "keep" });
    await ws.link("dl", "d");
    const result = await run(fileDeleteTool, ws.root, { path: "dl", recursive: true });
    expect((result.data as FileDeleteData).type).toBe("symlink");
    expect(await readFile(ws.path("d/keep.txt"), "utf8")).toBe("keep");
  });

  it("refuses a directory without recursive: true", async () => {
    await ws.write({ "d/a.txt": "a" });
    const result = await run(fileDeleteTool, ws.root, { path: "d" });
    expect(result.errorCode).toBe(BuiltinToolErrorCode.WrongEntryType);
    expect(result.error).toContain("recursive: true");
    expect(await exists(ws.path("d/a.txt"))).toBe(true);
  });

  it("deletes a directory tree recursively, links inside it removed as links", async () => {
    await ws.write({ "d/a.txt": "a", "d/sub/b.txt": "b", "target/keep.txt": "keep" });
    await ws.link("d/sub/to-target", join(ws.root, "target"));
    await ws.link("d/out", ws.outside);
    const progress: ToolProgress[] = [];
    const result = await run(fileDeleteTool, ws.root, { path: "d", recursive: true }, { progress });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ path: "d", type: "directory", entriesDeleted: 5 });
    expect(await exists(ws.path("d"))).toBe(false);
    expect(await readFile(ws.path("target/keep.txt"), "utf8")).toBe("keep");
    expect(await readFile(join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(progress.some((p) => p.message.includes("5 entries"))).toBe(true);
  });

  it("never deletes the workspace root", async () => {
    for (const path of [".", ws.root, "src/.."]) {
      const result = await run(fileDeleteTool, ws.root, { path, recursive: true });
      expect(result.errorCode, path).toBe(BuiltinToolErrorCode.WrongEntryType);
    }
    expect(await exists(ws.root)).toBe(true);
  });

  it("fails with PathNotFound for a missing path", async () => {
    const result = await run(fileDeleteTool, ws.root, { path: "missing.txt" });
    expect(result.errorCode).toBe(ToolErrorCode.PathNotFound);
  });

  it("is High, Critical when recursive, and says which", () => {
    expect(fileDeleteTool.defaultRiskLevel).toBe(RiskLevel.High);
    expect(fileDeleteTool.getEffectiveRiskLevel({ path: "a" })).toBe(RiskLevel.High);
    expect(fileDeleteTool.getEffectiveRiskLevel({ path: "a", recursive: true })).toBe(
      RiskLevel.Critical,
    );
    expect(fileDeleteTool.getExecutionSummary({ path: "a.txt" })).toBe("Delete 'a.txt'");
    expect(fileDeleteTool.getExecutionSummary({ path: "build", recursive: true })).toBe(
      "Delete 'build' and everything in it (recursive)",
    );
  });
});

describe("file-delete: a recursive delete never removes a guarded path inside the folder", () => {
  it("refuses a folder holding a protected path, naming it, and deletes nothing", async () => {
    await ws.write({ "proj/src/a.ts": "a", "proj/.env": "KEY=1", "proj/sub/.npmrc": "x" });
    const result = await run(fileDeleteTool, ws.root, { path: "proj", recursive: true });
    expect(result.errorCode).toBe(ToolErrorCode.Denied);
    expect(result.error).toBe(
      "'proj' holds 'proj/.env' and 'proj/sub/.npmrc', protected paths: a recursive delete does not remove protected paths, and nothing was deleted. Delete them on their own (each is asked) or leave them.",
    );
    expect(await exists(ws.path("proj/src/a.ts"))).toBe(true);
  });

  it("refuses a folder holding aintern's store or a path a deny rule keeps from being changed", async () => {
    await ws.write({ "a/.aintern/audit.db": "x", "b/keep/x.txt": "x", "b/y.txt": "y" });
    const store = await run(fileDeleteTool, ws.root, { path: "a", recursive: true });
    expect(store.error).toMatch(/^'a' holds 'a\/\.aintern', part of aintern's own store/);
    const tool = new FileDeleteTool({ changeDeniedPaths: ["b/keep/**"] });
    const denied = await run(tool, ws.root, { path: "b", recursive: true });
    expect(denied.error).toMatch(/^'b' holds 'b\/keep', which a policy deny rule keeps/);
    expect(await exists(ws.path("b/y.txt"))).toBe(true);
    expect((await run(fileDeleteTool, ws.root, { path: "b", recursive: true })).success).toBe(true);
  });

  it("deletes a protected folder named by the call itself (the policy asked about it)", async () => {
    await ws.write({ ".vscode/settings.json": "{}", ".vscode/tasks.json": "{}" });
    const result = await run(fileDeleteTool, ws.root, { path: ".vscode", recursive: true });
    expect(result.success).toBe(true);
    expect(result.data).toEqual({ path: ".vscode", type: "directory", entriesDeleted: 2 });
  });
});
