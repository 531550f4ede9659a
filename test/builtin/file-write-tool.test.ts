import {
  chmod,
  mkdir,
  readdir,
  readFile,
  rename,
  stat,
  symlink,
  writeFile,
} from "node:fs/promises";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BuiltinToolErrorCode,
  type FileWriteData,
  fileWriteTool,
} from "../../src/builtin/index.js";
import { writeFileAtomic } from "../../src/builtin/write-file-atomic.js";
import { RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import { ArtifactAction, ToolArtifact } from "../../src/result/index.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
});
afterEach(async () => {
  await ws.remove();
});

async function leftovers(directory: string): Promise<string[]> {
  return (await readdir(directory)).filter((name) => name.endsWith(".tmp"));
}

describe("file-write summaries and risk", () => {
  it("tells creating and overwriting apart in the summary", () => {
    const content = "x".repeat(412);
    expect(
      fileWriteTool.getExecutionSummary({ path: "src/app.ts", content, overwrite: true }),
    ).toBe("Write 412 bytes to 'src/app.ts' (overwrite)");
    expect(fileWriteTool.getExecutionSummary({ path: "src/app.ts", content })).toBe(
      "Write 412 bytes to 'src/app.ts' (create)",
    );
  });

  it("counts bytes, not characters", () => {
    expect(fileWriteTool.getExecutionSummary({ path: "a", content: "é€" })).toBe(
      "Write 5 bytes to 'a' (create)",
    );
  });

  it("is Low to create, Medium to overwrite and High inside .git", () => {
    expect(fileWriteTool.defaultRiskLevel).toBe(RiskLevel.Low);
    expect(fileWriteTool.getEffectiveRiskLevel({ path: "a.ts", content: "" })).toBe(RiskLevel.Low);
    expect(
      fileWriteTool.getEffectiveRiskLevel({ path: "a.ts", content: "", overwrite: true }),
    ).toBe(RiskLevel.Medium);
    expect(
      fileWriteTool.getEffectiveRiskLevel({ path: ".git/hooks/pre-commit", content: "" }),
    ).toBe(RiskLevel.High);
    expect(fileWriteTool.getEffectiveRiskLevel({ path: "sub/.GIT/config", content: "" })).toBe(
      RiskLevel.High,
    );
  });

  it("is Medium to create a file whose content a package manager or make runs as commands", () => {
    for (const path of ["package.json", "sub/package.json", "Makefile", "lib\\GNUmakefile"]) {
      expect(fileWriteTool.getEffectiveRiskLevel({ path, content: "" }), path).toBe(
        RiskLevel.Medium,
      );
    }
    expect(fileWriteTool.getEffectiveRiskLevel({ path: "package.json.md", content: "" })).toBe(
      RiskLevel.Low,
    );
  });
});

describe("file-write", () => {
  it("creates a file with an artifact that has isNew, size and SHA-256", async () => {
    const content = "export const app = 1;\n";
    const result = await run(fileWriteTool, ws.root, { path: "app.ts", content });
    expect(result.success).toBe(true);
    expect(await readFile(ws.path("app.ts"), "utf8")).toBe(content);
    expect(result.data).toEqual({
      path: "app.ts",
      size: Buffer.byteLength(content),
      created: true,
      contentHash: ToolArtifact.hashContent(content),
    } satisfies FileWriteData);
    const artifact = result.artifacts[0];
    expect(artifact).toMatchObject({
      path: "app.ts",
      isNew: true,
      size: Buffer.byteLength(content),
      contentHash: ToolArtifact.hashContent(content),
      action: ArtifactAction.Created,
    });
    expect(artifact?.mimeType).toMatch(/typescript/);
    expect(result.message).toBe(`Wrote ${Buffer.byteLength(content)} bytes to 'app.ts' (created)`);
    expect(await leftovers(ws.root)).toEqual([]);
  });

  it("refuses to replace an existing file unless overwrite is true", async () => {
    await ws.write({ "a.txt": "old" });
    const refused = await run(fileWriteTool, ws.root, { path: "a.txt", content: "new" });
    expect(refused.errorCode).toBe(BuiltinToolErrorCode.FileExists);
    expect(refused.error).toContain("overwrite: true");
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("old");
  });

  it("overwrites with overwrite: true, keeping the file's permissions", async () => {
    await ws.write({ "run.sh": "old" });
    await chmod(ws.path("run.sh"), 0o750);
    const result = await run(fileWriteTool, ws.root, {
      path: "run.sh",
      content: "new",
      overwrite: true,
    });
    expect(result.success).toBe(true);
    expect(result.artifacts[0]).toMatchObject({ isNew: false, action: ArtifactAction.Modified });
    expect((result.data as FileWriteData).created).toBe(false);
    expect(result.message).toContain("(overwritten)");
    expect(await readFile(ws.path("run.sh"), "utf8")).toBe("new");
    expect((await stat(ws.path("run.sh"))).mode & 0o777).toBe(0o750);
  });

  it("creates a file with overwrite: true when none exists", async () => {
    const result = await run(fileWriteTool, ws.root, {
      path: "n.txt",
      content: "n",
      overwrite: true,
    });
    expect((result.data as FileWriteData).created).toBe(true);
  });

  it("needs createDirectories for a missing directory", async () => {
    const refused = await run(fileWriteTool, ws.root, { path: "a/b/c.txt", content: "x" });
    expect(refused.errorCode).toBe(ToolErrorCode.PathNotFound);
    expect(refused.error).toContain("createDirectories");
    const created = await run(fileWriteTool, ws.root, {
      path: "a/b/c.txt",
      content: "x",
      createDirectories: true,
    });
    expect(created.success).toBe(true);
    expect(await readFile(ws.path("a/b/c.txt"), "utf8")).toBe("x");
  });

  it("refuses a target that is a symbolic link, even one inside the workspace", async () => {
    await ws.write({ "real.txt": "real" });
    await ws.link("alias.txt", "real.txt");
    const result = await run(fileWriteTool, ws.root, {
      path: "alias.txt",
      content: "x",
      overwrite: true,
    });
    expect(result.errorCode).toBe(BuiltinToolErrorCode.SymlinkRefused);
    expect(await readFile(ws.path("real.txt"), "utf8")).toBe("real");
  });

  it("refuses a target that is a directory, the workspace root, or under a file", async () => {
    await ws.write({ "dir/a.txt": "a", "file.txt": "f" });
    const dir = await run(fileWriteTool, ws.root, { path: "dir", content: "x", overwrite: true });
    expect(dir.errorCode).toBe(BuiltinToolErrorCode.WrongEntryType);
    const root = await run(fileWriteTool, ws.root, { path: ".", content: "x" });
    expect(root.errorCode).toBe(BuiltinToolErrorCode.WrongEntryType);
    const under = await run(fileWriteTool, ws.root, { path: "file.txt/x", content: "x" });
    expect(under.errorCode).toBe(BuiltinToolErrorCode.WrongEntryType);
  });

  it("never shows a reader a partly written file", async () => {
    const size = 900_000; // under the validator's default string limit
    await ws.write({ "big.bin": "A".repeat(size) });
    let done = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!done) {
        const text = await readFile(ws.path("big.bin"), "latin1");
        expect(text.length).toBe(size);
        seen.add(`${text[0]}${text[size - 1]}`);
        expect(text[0]).toBe(text[size - 1]);
      }
    })();
    for (let round = 0; round < 20; round++) {
      const letter = round % 2 === 0 ? "B" : "A";
      const result = await run(fileWriteTool, ws.root, {
        path: "big.bin",
        content: letter.repeat(size),
        overwrite: true,
      });
      expect(result.success).toBe(true);
    }
    done = true;
    await reader;
    expect(seen.size).toBeGreaterThan(0);
    expect([...seen].every((pair) => pair === "AA" || pair === "BB")).toBe(true);
    expect(await leftovers(ws.root)).toEqual([]);
  });
});

describe("writeFileAtomic", () => {
  it("writes a complete temporary file in the target's directory and only then the target", async () => {
    await mkdir(ws.path("d"));
    let tempSeen: string | undefined;
    const outcome = await writeFileAtomic({
      rootReal: ws.root,
      parentReal: ws.path("d"),
      name: "t.txt",
      content: "complete",
      overwrite: false,
      hooks: {
        beforeCommit: async (temp) => {
          tempSeen = temp;
          expect(await readFile(temp, "utf8")).toBe("complete");
          await expect(stat(ws.path("d/t.txt"))).rejects.toThrow();
        },
      },
    });
    expect(outcome).toEqual({ ok: true, created: true, size: 8 });
    expect(dirname(tempSeen as string)).toBe(ws.path("d"));
    await expect(stat(tempSeen as string)).rejects.toThrow();
  });

  it("refuses when the target is swapped for a symlink to the outside before the commit", async () => {
    await ws.write({ "t.txt": "old" });
    const outcome = await writeFileAtomic({
      rootReal: ws.root,
      parentReal: ws.root,
      name: "t.txt",
      content: "pwned",
      overwrite: true,
      hooks: {
        beforeCommit: async () => {
          await rename(ws.path("t.txt"), ws.path("moved.txt"));
          await symlink(join(ws.outside, "secret.txt"), ws.path("t.txt"));
        },
      },
    });
    expect(outcome.ok).toBe(false);
    expect(outcome.ok === false && outcome.code).toBe(BuiltinToolErrorCode.SymlinkRefused);
    expect(await readFile(join(ws.outside, "secret.txt"), "utf8")).toBe("top secret\n");
    expect(await leftovers(ws.root)).toEqual([]);
  });

  it("refuses when the parent directory is swapped for a symlink to the outside before the commit", async () => {
    await ws.write({ "d/t.txt": "old" });
    const outcome = await writeFileAtomic({
      rootReal: ws.root,
      parentReal: ws.path("d"),
      name: "t.txt",
      content: "pwned",
      overwrite: true,
      hooks: {
        beforeCommit: async () => {
          await rename(ws.path("d"), ws.path("d-moved"));
          await symlink(ws.outside, ws.path("d"));
        },
      },
    });
    expect(outcome.ok === false && outcome.code).toBe(BuiltinToolErrorCode.SymlinkRefused);
    expect(await readdir(ws.outside)).toEqual(["secret.txt"]);
    expect(await leftovers(ws.path("d-moved"))).toEqual([]);
  });

  it("does not replace a file that appears at the target of a create before the commit", async () => {
    const outcome = await writeFileAtomic({
      rootReal: ws.root,
      parentReal: ws.root,
      name: "t.txt",
      content: "mine",
      overwrite: false,
      hooks: { beforeCommit: () => writeFile(ws.path("t.txt"), "theirs") },
    });
    expect(outcome.ok === false && outcome.code).toBe(BuiltinToolErrorCode.FileExists);
    expect(await readFile(ws.path("t.txt"), "utf8")).toBe("theirs");
    expect(await leftovers(ws.root)).toEqual([]);
  });

  it("refuses a parent that is not a plain directory", async () => {
    await symlink(ws.outside, ws.path("link"));
    const outcome = await writeFileAtomic({
      rootReal: ws.root,
      parentReal: ws.path("link"),
      name: "t.txt",
      content: "x",
      overwrite: false,
    });
    expect(outcome.ok === false && outcome.code).toBe(BuiltinToolErrorCode.SymlinkRefused);
  });
});
