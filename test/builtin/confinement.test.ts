import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  fileDeleteTool,
  fileReadTool,
  fileWriteTool,
  listDirectoryTool,
  searchTool,
  terminalExecuteTool,
} from "../../src/builtin/index.js";
import { type JsonObject, ToolErrorCode } from "../../src/core/index.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
  await ws.link("out-file", join(ws.outside, "secret.txt"));
  await ws.link("out-dir", ws.outside);
  await ws.write({ "inside.txt": "inside\n" });
});
afterEach(async () => {
  await ws.remove();
});

/** Every tool that takes a path, with the parameters that point it at `path`. */
const pathTools = [
  { tool: fileReadTool, parameters: (path: string): JsonObject => ({ path }) },
  { tool: listDirectoryTool, parameters: (path: string): JsonObject => ({ path }) },
  { tool: searchTool, parameters: (path: string): JsonObject => ({ path, query: "secret" }) },
  {
    tool: fileWriteTool,
    parameters: (path: string): JsonObject => ({ path, content: "pwned", overwrite: true }),
  },
  { tool: fileDeleteTool, parameters: (path: string): JsonObject => ({ path, recursive: true }) },
  {
    tool: terminalExecuteTool,
    parameters: (path: string): JsonObject => ({
      command: "cat secret.txt; echo pwned > x",
      cwd: path,
    }),
  },
];

const escapes = [
  {
    label: "a relative path climbing out (../outside)",
    path: () => "../outside/secret.txt",
    dir: () => "../outside",
  },
  {
    label: "an absolute path outside",
    path: () => join(ws.outside, "secret.txt"),
    dir: () => ws.outside,
  },
  { label: "a symbolic link to a file outside", path: () => "out-file", dir: () => "out-dir" },
  {
    label: "a path through a symlinked directory",
    path: () => "out-dir/secret.txt",
    dir: () => "out-dir",
  },
];

async function outsideUntouched(): Promise<void> {
  expect(await readFile(join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
  await expect(stat(join(ws.outside, "x"))).rejects.toThrow();
}

describe.each(pathTools)("$tool.id confinement", ({ tool, parameters }) => {
  // file-delete acts on a link itself, never on its target (tested below).
  const cases =
    tool === fileDeleteTool ? escapes.filter((e) => !e.label.includes("link to a file")) : escapes;
  it.each(cases)("refuses $label with PathOutsideWorkspace naming the path", async (leak) => {
    const isDirectoryTool = tool === listDirectoryTool || tool === terminalExecuteTool;
    const path = isDirectoryTool ? leak.dir() : leak.path();
    const result = await run(tool, ws.root, parameters(path));
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe(ToolErrorCode.PathOutsideWorkspace);
    expect(result.error).toContain(path);
    expect(JSON.stringify(result.data ?? null)).not.toContain("top secret");
    await outsideUntouched();
  });
});

describe("confinement of new files and links", () => {
  it("file-write refuses a new file inside a symlinked directory that leads outside", async () => {
    const result = await run(fileWriteTool, ws.root, { path: "out-dir/new.txt", content: "x" });
    expect(result.errorCode).toBe(ToolErrorCode.PathOutsideWorkspace);
    expect(result.error).toContain("out-dir/new.txt");
    await expect(stat(join(ws.outside, "new.txt"))).rejects.toThrow();
  });

  it("file-write with createDirectories refuses directories under a symlink that leads outside", async () => {
    const result = await run(fileWriteTool, ws.root, {
      path: "out-dir/a/b/new.txt",
      content: "x",
      createDirectories: true,
    });
    expect(result.errorCode).toBe(ToolErrorCode.PathOutsideWorkspace);
    await expect(stat(join(ws.outside, "a"))).rejects.toThrow();
  });

  it("file-delete of a link to the outside deletes the link and keeps its target", async () => {
    const result = await run(fileDeleteTool, ws.root, { path: "out-file" });
    expect(result.success).toBe(true);
    await expect(stat(ws.path("out-file"))).rejects.toThrow();
    await outsideUntouched();
  });

  it("file-delete of a dangling link deletes the link", async () => {
    await ws.link("dangling", join(ws.outside, "missing"));
    const result = await run(fileDeleteTool, ws.root, { path: "dangling" });
    expect(result.success).toBe(true);
  });

  it("every tool reports NotAvailable without a workspace", async () => {
    const { ToolExecutionContextBuilder } = await import("../../src/context/index.js");
    for (const { tool, parameters } of pathTools) {
      const context = ToolExecutionContextBuilder.create()
        .withParameters(parameters("inside.txt"))
        .buildForTesting();
      const result = await tool.execute(context);
      expect(result.errorCode, tool.id).toBe(ToolErrorCode.NotAvailable);
    }
  });

  it("a path holding a NUL byte is a validation failure", async () => {
    const result = await run(fileReadTool, ws.root, { path: "a\0b" });
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
  });
});
