import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ArtifactAction, ArtifactType, ToolArtifact } from "../../src/result/index.js";

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "aintern-artifact-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function artifactOfSize(size: number): ToolArtifact {
  return ToolArtifact.custom("blob", "blob.bin", { size });
}

describe("ToolArtifact (spec 004 unit tests)", () => {
  it("ToolArtifact_File_GetsSize: reads the size of an existing file", async () => {
    const path = join(dir, "sized.txt");
    await writeFile(path, "héllo"); // 6 bytes in UTF-8

    const artifact = ToolArtifact.file(path);

    expect(artifact.size).toBe(6);
    expect(artifact.sizeDisplay).toBe("6 B");
    expect(ToolArtifact.file(join(dir, "missing.txt")).size).toBeUndefined();
  });

  it("ToolArtifact_File_GetsMimeType: from the extension", () => {
    expect(ToolArtifact.file("src/app.ts").mimeType).toBe("text/typescript");
    expect(ToolArtifact.file("docs/README.MD").mimeType).toBe("text/markdown");
    expect(ToolArtifact.file("bin/tool").mimeType).toBe("application/octet-stream");
  });

  it("ToolArtifact_Directory_SetsCorrectType: directory, created or modified", () => {
    const created = ToolArtifact.directory("src/new", { isNew: true, description: "Scaffold" });
    const touched = ToolArtifact.directory("src");

    expect(created.type).toBe(ArtifactType.Directory);
    expect(created.isDirectory).toBe(true);
    expect(created.isFile).toBe(false);
    expect(created.isNew).toBe(true);
    expect(created.action).toBe(ArtifactAction.Created);
    expect(created.description).toBe("Scaffold");
    expect(touched.isNew).toBe(false);
    expect(touched.action).toBe(ArtifactAction.Modified);
    expect(touched.mimeType).toBeUndefined();
  });

  it("ToolArtifact_Url_SetsCorrectType: url, accessed", () => {
    const artifact = ToolArtifact.url("https://example.com/a/b.html", "Docs page");

    expect(artifact.type).toBe(ArtifactType.Url);
    expect(artifact.isUrl).toBe(true);
    expect(artifact.path).toBe("https://example.com/a/b.html");
    expect(artifact.description).toBe("Docs page");
    expect(artifact.action).toBe(ArtifactAction.Accessed);
    expect(artifact.fileName).toBe("b.html");
  });

  it("ToolArtifact_SizeDisplay_FormatsCorrectly: B, KB, MB, GB", () => {
    expect(artifactOfSize(0).sizeDisplay).toBe("0 B");
    expect(artifactOfSize(1023).sizeDisplay).toBe("1023 B");
    expect(artifactOfSize(1024).sizeDisplay).toBe("1.0 KB");
    expect(artifactOfSize(1536).sizeDisplay).toBe("1.5 KB");
    expect(artifactOfSize(1024 * 1024 - 1).sizeDisplay).toBe("1024.0 KB");
    expect(artifactOfSize(1024 * 1024).sizeDisplay).toBe("1.0 MB");
    expect(artifactOfSize(5.25 * 1024 * 1024).sizeDisplay).toBe("5.3 MB");
    expect(artifactOfSize(1024 ** 3).sizeDisplay).toBe("1.00 GB");
    expect(artifactOfSize(1.255 * 1024 ** 3).sizeDisplay).toBe("1.25 GB");
    expect(ToolArtifact.url("https://a.b").sizeDisplay).toBeUndefined();
  });
});

describe("ToolArtifact factories", () => {
  it("marks a new file as created and an existing one as modified", () => {
    const created = ToolArtifact.file("a.ts", { isNew: true, description: "New" });
    const modified = ToolArtifact.file("a.ts");

    expect(created.type).toBe(ArtifactType.File);
    expect(created.isFile).toBe(true);
    expect(created.action).toBe(ArtifactAction.Created);
    expect(created.description).toBe("New");
    expect(modified.action).toBe(ArtifactAction.Modified);
    expect(modified.description).toBeUndefined();
  });

  it("has no size for a directory passed to file()", async () => {
    const sub = join(dir, "sub");
    await mkdir(sub, { recursive: true });

    expect(ToolArtifact.file(sub).size).toBeUndefined();
  });

  it("takes an explicit size and content hash over the file on disk", async () => {
    const path = join(dir, "explicit.txt");
    await writeFile(path, "abc");

    const artifact = ToolArtifact.file(path, { size: 99, contentHash: "sha256:00" });

    expect(artifact.size).toBe(99);
    expect(artifact.contentHash).toBe("sha256:00");
  });

  it("computes size and SHA-256 from the content of fileWithContent", () => {
    const artifact = ToolArtifact.fileWithContent("notes/ünï.md", "# Ünïcode 🚀");
    const expected = createHash("sha256").update("# Ünïcode 🚀", "utf8").digest("hex");

    expect(artifact.size).toBe(Buffer.byteLength("# Ünïcode 🚀"));
    expect(artifact.contentHash).toBe(`sha256:${expected}`);
    expect(artifact.isNew).toBe(true);
    expect(artifact.action).toBe(ArtifactAction.Created);
    expect(artifact.mimeType).toBe("text/markdown");
  });

  it("hashes bytes as given and marks an overwrite as modified", () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const artifact = ToolArtifact.fileWithContent("data.bin", bytes, { isNew: false });

    expect(artifact.size).toBe(4);
    expect(artifact.contentHash).toBe(ToolArtifact.hashContent(bytes));
    expect(artifact.action).toBe(ArtifactAction.Modified);
  });

  it("accepts a size in place of content, as the spec's FileWithContent does", () => {
    const artifact = ToolArtifact.fileWithContent("big.log", 4096, { description: "Log" });

    expect(artifact.size).toBe(4096);
    expect(artifact.contentHash).toBeUndefined();
    expect(artifact.description).toBe("Log");
  });

  it("hashes content to sha256 followed by 64 lower-case hex digits", () => {
    expect(ToolArtifact.hashContent("")).toBe(
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(ToolArtifact.hashContent("abc")).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(ToolArtifact.hashContent("abc")).toBe(
      ToolArtifact.hashContent(new TextEncoder().encode("abc")),
    );
  });

  it("describes a deleted file as Deleted by default", () => {
    const artifact = ToolArtifact.deletedFile("old.txt");

    expect(artifact.action).toBe(ArtifactAction.Deleted);
    expect(artifact.description).toBe("Deleted");
    expect(artifact.isNew).toBe(false);
    expect(ToolArtifact.deletedFile("old.txt", "Removed stale file").description).toBe(
      "Removed stale file",
    );
  });

  it("records terminal output with its UTF-8 byte size", () => {
    const artifact = ToolArtifact.terminalOutput("ok ✓\n");

    expect(artifact.type).toBe(ArtifactType.Output);
    expect(artifact.path).toBe("terminal");
    expect(artifact.description).toBe("Terminal output");
    expect(artifact.size).toBe(Buffer.byteLength("ok ✓\n"));
    expect(ToolArtifact.terminalOutput("", "stderr").description).toBe("stderr");
  });

  it("builds a custom artifact from a description or from options", () => {
    const described = ToolArtifact.custom("commit", "abc123", "Commit created");
    const moved = ToolArtifact.custom("file", "dest/a.ts", {
      action: ArtifactAction.Moved,
      description: "Moved from src/a.ts",
      mimeType: "text/typescript",
    });

    expect(described.type).toBe("commit");
    expect(described.description).toBe("Commit created");
    expect(described.action).toBe(ArtifactAction.Created);
    expect(moved.action).toBe(ArtifactAction.Moved);
    expect(moved.mimeType).toBe("text/typescript");
    expect(ToolArtifact.custom("x", "y").description).toBeUndefined();
  });

  it("takes the file name after the last slash or backslash", () => {
    expect(ToolArtifact.file("src/lib/app.ts").fileName).toBe("app.ts");
    expect(ToolArtifact.file("C:\\work\\notes.txt").fileName).toBe("notes.txt");
    expect(ToolArtifact.file("plain").fileName).toBe("plain");
    expect(ToolArtifact.directory("src/").fileName).toBe("");
  });

  it("covers every action the spec lists", () => {
    expect(Object.values(ArtifactAction)).toEqual([
      "Created",
      "Modified",
      "Deleted",
      "Accessed",
      "Moved",
    ]);
  });
});

describe("ToolArtifact immutability and JSON", () => {
  it("is frozen and hands out copies of its timestamp", () => {
    const before = Date.now();
    const artifact = ToolArtifact.url("https://a.b");
    const stamp = artifact.timestamp;
    stamp.setFullYear(1990);

    expect(Object.isFrozen(artifact)).toBe(true);
    expect(() => {
      (artifact as unknown as Record<string, unknown>).path = "elsewhere";
    }).toThrow(TypeError);
    expect(artifact.timestamp.getTime()).toBeGreaterThanOrEqual(before);
    expect(artifact.timestamp.getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("serializes with an ISO timestamp and without absent fields", () => {
    const json = ToolArtifact.url("https://a.b").toJSON();

    expect(json).toEqual({
      type: "url",
      path: "https://a.b",
      isNew: false,
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      action: "Accessed",
    });
    const full = ToolArtifact.fileWithContent("a.ts", "x", { description: "d" }).toJSON();
    expect(Object.keys(full).sort()).toEqual([
      "action",
      "contentHash",
      "description",
      "isNew",
      "mimeType",
      "path",
      "size",
      "timestamp",
      "type",
    ]);
  });
});
