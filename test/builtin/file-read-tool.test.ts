import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { countNewlines } from "../../src/builtin/file-read-tool.js";
import {
  BuiltinToolErrorCode,
  type FileReadData,
  FileReadTool,
  fileReadTool,
} from "../../src/builtin/index.js";
import {
  ToolExecutionContext,
  ToolExecutionContextBuilder,
  type ToolProgress,
} from "../../src/context/index.js";
import { RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import { ToolExecutionStatus, ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ArtifactAction } from "../../src/result/index.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
});
afterEach(async () => {
  await ws.remove();
});

const sha256 = (text: string | Uint8Array) =>
  `sha256:${createHash("sha256").update(text).digest("hex")}`;

describe("file-read", () => {
  it("reads a text file and reports size, MIME type and SHA-256 in data and artifact", async () => {
    const text = "const a = 1;\nconst b = 2;\n";
    await ws.write({ "src/app.ts": text });
    const result = await run(fileReadTool, ws.root, { path: "src/app.ts" });
    expect(result.success).toBe(true);
    const data = result.data as FileReadData;
    expect(data.content).toBe(text);
    expect(data.path).toBe("src/app.ts");
    expect(data.totalLines).toBe(2);
    expect(data.truncated).toBe(false);
    expect(data.contentHash).toBe(sha256(text));
    const artifact = result.artifacts[0];
    expect(artifact?.path).toBe("src/app.ts");
    expect(artifact?.size).toBe(Buffer.byteLength(text));
    expect(artifact?.mimeType).toBe(data.mimeType);
    expect(artifact?.mimeType).toMatch(/typescript/);
    expect(artifact?.contentHash).toBe(sha256(text));
    expect(artifact?.action).toBe(ArtifactAction.Accessed);
    // The model reads the text as it is, after the other fields.
    expect(result.toLlmContext().endsWith(`\nContent:\n${text}`)).toBe(true);
    expect(result.toLlmContext()).not.toContain('"content"');
  });

  it("reads an inclusive line range and counts lines without a trailing newline", async () => {
    await ws.write({ "a.txt": "one\ntwo\nthree\nfour" });
    const result = await run(fileReadTool, ws.root, { path: "a.txt", startLine: 2, endLine: 3 });
    const data = result.data as FileReadData;
    expect(data.content).toBe("two\nthree\n");
    expect(data).toMatchObject({ startLine: 2, endLine: 3, totalLines: 4 });
    const tail = await run(fileReadTool, ws.root, { path: "a.txt", startLine: 4 });
    expect((tail.data as FileReadData).content).toBe("four");
  });

  it("truncates at maxBytes on a character boundary and says how to read on", async () => {
    await ws.write({ "big.txt": `${"é".repeat(10)}\nrest\n` });
    const result = await run(fileReadTool, ws.root, { path: "big.txt", maxBytes: 5 });
    const data = result.data as FileReadData;
    expect(data.truncated).toBe(true);
    expect(data.content).toBe("éé"); // 5 bytes would cut the third é in two
    expect(data.note).toMatch(/startLine/);
    expect(result.message).toMatch(/truncated/);
  });

  it("reads a large file in one pass, hashing all of it, and reports progress", async () => {
    const line = `${"x".repeat(99)}\n`;
    const big = line.repeat(200_000); // 20 MB
    await ws.write({ "huge.log": big });
    const progress: ToolProgress[] = [];
    const result = await run(fileReadTool, ws.root, { path: "huge.log" }, { progress });
    const data = result.data as FileReadData;
    expect(data.truncated).toBe(true);
    expect(data.content.length).toBe(256 * 1024);
    expect(data.size).toBe(big.length);
    expect(data.totalLines).toBe(200_000);
    expect(data.contentHash).toBe(sha256(big));
    expect(progress.length).toBeGreaterThan(0);
  });

  it("reads ranges and whole files across its 64 KiB reads as a plain split of the text would", async () => {
    // Lines of varied length (multi-byte characters too), ~200 KiB: several reads, the first
    // ones synchronous and the later ones through the thread pool, lines cut by read ends.
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `${i} ${"é".repeat(i % 37)}${"z".repeat(i % 23)}`,
    );
    const text = `${lines.join("\n")}\n`;
    const noTrailing = lines.join("\n");
    await ws.write({ "long.txt": text, "open.txt": noTrailing });
    const expected = (from: number, to: number) => lines.slice(from - 1, to).map((l) => `${l}\n`);
    for (const [startLine, endLine] of [
      [1, 3000],
      [1, 1],
      [1500, 1600],
      [2999, 3000],
      [1000, undefined],
    ] as const) {
      const result = await run(fileReadTool, ws.root, {
        path: "long.txt",
        startLine,
        ...(endLine === undefined ? {} : { endLine }),
        maxBytes: 10 * 1024 * 1024,
      });
      const data = result.data as FileReadData;
      expect(data.content).toBe(expected(startLine, endLine ?? 3000).join(""));
      expect(data).toMatchObject({ startLine, endLine: endLine ?? 3000, totalLines: 3000 });
      expect(data.contentHash).toBe(sha256(text));
      expect(data.size).toBe(Buffer.byteLength(text));
    }
    const whole = await run(fileReadTool, ws.root, {
      path: "open.txt",
      maxBytes: 10 * 1024 * 1024,
    });
    expect(whole.data).toMatchObject({ content: noTrailing, totalLines: 3000, endLine: 3000 });
    expect((whole.data as FileReadData).contentHash).toBe(sha256(noTrailing));
    // Cut at maxBytes inside the file's second read: whole characters, the line cut is named.
    const cut = await run(fileReadTool, ws.root, { path: "long.txt", maxBytes: 100_001 });
    const cutData = cut.data as FileReadData;
    expect(cutData.truncated).toBe(true);
    expect(text.startsWith(cutData.content)).toBe(true);
    expect(Buffer.byteLength(cutData.content)).toBeGreaterThan(100_001 - 4);
    expect(cutData.endLine).toBe(cutData.content.split("\n").length);
    expect(cutData.totalLines).toBe(3000);
  });

  it("refuses a binary file naming its MIME type", async () => {
    await ws.write({ "logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13]) });
    const result = await run(fileReadTool, ws.root, { path: "logo.png" });
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe(BuiltinToolErrorCode.BinaryFile);
    expect(result.error).toContain("image/png");
  });

  it("refuses invalid UTF-8 without an extension as application/octet-stream", async () => {
    await ws.write({ blob: new Uint8Array([0xff, 0xfe, 0x41, 0x42]) });
    const result = await run(fileReadTool, ws.root, { path: "blob" });
    expect(result.errorCode).toBe(BuiltinToolErrorCode.BinaryFile);
    expect(result.error).toContain("application/octet-stream");
  });

  it("reads an empty file", async () => {
    await ws.write({ "empty.txt": "" });
    const result = await run(fileReadTool, ws.root, { path: "empty.txt" });
    expect(result.data).toMatchObject({ content: "", totalLines: 0, size: 0 });
  });

  it("fails with PathNotFound for a missing file", async () => {
    const result = await run(fileReadTool, ws.root, { path: "nope.txt" });
    expect(result.errorCode).toBe(ToolErrorCode.PathNotFound);
    expect(result.error).toContain("nope.txt");
  });

  it("refuses a directory", async () => {
    await ws.write({ "dir/a.txt": "a" });
    const result = await run(fileReadTool, ws.root, { path: "dir" });
    expect(result.errorCode).toBe(BuiltinToolErrorCode.WrongEntryType);
  });

  it("rejects endLine before startLine in validation", async () => {
    await ws.write({ "a.txt": "a\n" });
    expect(fileReadTool.validate({ path: "a.txt", startLine: 5, endLine: 2 }).isValid).toBe(false);
    const result = await run(fileReadTool, ws.root, { path: "a.txt", startLine: 5, endLine: 2 });
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
  });

  it("rejects a startLine past the end of the file", async () => {
    await ws.write({ "a.txt": "a\nb\n" });
    const result = await run(fileReadTool, ws.root, { path: "a.txt", startLine: 9 });
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(result.error).toMatch(/2 lines/);
  });

  it("follows a symbolic link that stays inside the workspace", async () => {
    await ws.write({ "real.txt": "hello\n" });
    await ws.link("alias.txt", "real.txt");
    const result = await run(fileReadTool, ws.root, { path: "alias.txt" });
    expect((result.data as FileReadData).content).toBe("hello\n");
    expect((result.data as FileReadData).path).toBe("real.txt");
  });

  it("is Safe, summarises the range and honours a configured maxBytes", async () => {
    expect(fileReadTool.defaultRiskLevel).toBe(RiskLevel.Safe);
    expect(fileReadTool.getEffectiveRiskLevel({ path: "a" })).toBe(RiskLevel.Safe);
    expect(fileReadTool.getExecutionSummary({ path: "src/app.ts" })).toBe("Read file 'src/app.ts'");
    expect(fileReadTool.getExecutionSummary({ path: "a", startLine: 2, endLine: 9 })).toBe(
      "Read file 'a' lines 2-9",
    );
    expect(fileReadTool.getExecutionSummary({ path: "a", startLine: 2 })).toBe(
      "Read file 'a' from line 2",
    );
    expect(fileReadTool.getExecutionSummary({ path: "a", endLine: 9 })).toBe(
      "Read file 'a' lines 1-9",
    );
    await ws.write({ "a.txt": "abcdefgh" });
    const small = new FileReadTool({ maxBytes: 3 });
    const result = await run(small, ws.root, { path: "a.txt" });
    expect((result.data as FileReadData).content).toBe("abc");
  });

  it("is cancelled by an aborted signal", async () => {
    await ws.write({ "a.txt": "x\n".repeat(100_000) });
    const controller = new AbortController();
    const context = ToolExecutionContextBuilder.create()
      .withWorkspace(ws.root)
      .withParameters({ path: "a.txt" })
      .withCancellation(controller.signal)
      .withProgress(() => {})
      .buildForTesting();
    const pending = fileReadTool.execute(context);
    controller.abort();
    const result = await pending;
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
  });

  it("reads without making the context's signal when the caller gives none", async () => {
    await ws.write({ "a.txt": "one\ntwo\n" });
    const made = vi.spyOn(ToolExecutionContext.prototype, "signal", "get");
    try {
      const result = await run(fileReadTool, ws.root, { path: "a.txt" });
      expect((result.data as FileReadData).content).toBe("one\ntwo\n");
      expect(made).not.toHaveBeenCalled();
    } finally {
      made.mockRestore();
    }
  });

  it("is cancelled mid-read through the executor (the context's own cancellation, no signal made up front)", async () => {
    // Past the first 64 KiB the reads go through the thread pool: the abort lands between them.
    await ws.write({ "big.txt": "x\n".repeat(400_000) });
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [new FileReadTool({ maxBytes: 1024 * 1024 })] }),
      workspacePath: ws.root,
    });
    try {
      const controller = new AbortController();
      const pending = executor.execute(
        { toolName: "file-read", parameters: { path: "big.txt" } },
        {},
        controller.signal,
      );
      setImmediate(() => controller.abort());
      const execution = await pending;
      expect(execution.status).toBe(ToolExecutionStatus.Cancelled);
    } finally {
      await executor.close();
    }
  });
});

describe("countNewlines", () => {
  const naive = (bytes: Uint8Array): number => bytes.filter((b) => b === 10).length;

  it("counts line feeds at every alignment and length, whatever the bytes around them", () => {
    const samples = [
      Buffer.from("# Notes\n".repeat(512)),
      Buffer.from("\n".repeat(37)),
      Buffer.from("no line feed at all"),
      Buffer.from([0x0a, 0x8a, 0x0b, 0x09, 0xff, 0x00, 0x0a, 0x7f, 0x80, 0x0a]),
      Buffer.alloc(0),
    ];
    let seed = 7;
    for (let n = 0; n < 200; n++) {
      const bytes = Buffer.alloc(n % 67);
      for (let i = 0; i < bytes.length; i++) {
        seed = (seed * 1103515245 + 12345) >>> 0;
        bytes[i] = seed % 3 === 0 ? 10 : seed >>> 24;
      }
      samples.push(bytes);
    }
    for (const sample of samples) {
      for (let start = 0; start < Math.min(4, sample.length + 1); start++) {
        const view = sample.subarray(start);
        expect(countNewlines(view)).toBe(naive(view));
        expect(countNewlines(view.subarray(0, Math.max(0, view.length - 1)))).toBe(
          naive(view.subarray(0, Math.max(0, view.length - 1))),
        );
      }
    }
  });
});
