import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BuiltinToolErrorCode,
  type FileDeleteData,
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
