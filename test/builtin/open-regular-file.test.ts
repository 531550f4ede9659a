import { fstatSync, type Stats } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  isEndOfFile,
  nextChunkSize,
  readAll,
  withRegularFile,
} from "../../src/builtin/open-regular-file.js";
import { createWorkspace, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
});
afterEach(async () => {
  await ws.remove();
});

const sized = (size: number) => ({ size }) as Stats;

describe("open-regular-file", () => {
  it("sizes reads to the rest of the file plus one byte, and to whole chunks past a growth", () => {
    expect(nextChunkSize(sized(4096), 0, 65536)).toBe(4097);
    expect(nextChunkSize(sized(4096), 4096, 65536)).toBe(1); // the end, seen in one byte
    expect(nextChunkSize(sized(0), 0, 65536)).toBe(1);
    expect(nextChunkSize(sized(200_000), 0, 65536)).toBe(65536);
    expect(nextChunkSize(sized(200_000), 196_608, 65536)).toBe(3393);
    // The file grew past what fstat said: read on in whole chunks, never a byte at a time.
    expect(nextChunkSize(sized(4096), 4097, 65536)).toBe(65536);
    expect(nextChunkSize(sized(4096), 1_000_000, 65536)).toBe(65536);
  });

  it("takes a short read that reached the fstat size as the end, and reads on after any other", () => {
    // 4096 bytes into a 4097-byte buffer: the end, with no read that returns 0.
    expect(isEndOfFile(sized(4096), 4096, 4096, 4097)).toBe(true);
    expect(isEndOfFile(sized(0), 0, 0, 1)).toBe(true);
    // A full buffer: the file may have grown.
    expect(isEndOfFile(sized(4096), 4097, 4097, 4097)).toBe(false);
    // Short, but before the size fstat saw (a file that shrank, a file system that returns less).
    expect(isEndOfFile(sized(4096), 100, 100, 4097)).toBe(false);
  });

  it("reads a file that shrank after fstat to its real end", async () => {
    await ws.write({ "shrink.txt": "a".repeat(5000) });
    const read = await withRegularFile(`${ws.root}/shrink.txt`, async (file) => {
      await ws.write({ "shrink.txt": "b".repeat(10) }); // same inode, rewritten shorter
      return readAll(file, 1_000_000);
    });
    expect(read.ok && read.value.toString()).toBe("b".repeat(10));
  });

  it("reads a file that grew after fstat to its real end", async () => {
    await ws.write({ "grow.txt": "a".repeat(10) });
    const read = await withRegularFile(`${ws.root}/grow.txt`, async (file) => {
      await ws.write({ "grow.txt": "b".repeat(150_000) }); // same inode, rewritten longer
      return readAll(file, 1_000_000);
    });
    expect(read.ok && read.value.length).toBe(150_000);
  });

  it("closes the descriptor whatever its user does", async () => {
    let fd = -1;
    await ws.write({ "a.txt": "x" });
    await expect(
      withRegularFile(`${ws.root}/a.txt`, async (file) => {
        fd = file.fd;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(() => fstatSync(fd)).toThrow(/EBADF/);
    const missing = await withRegularFile(`${ws.root}/none.txt`, async () => 1);
    expect(missing).toEqual({ ok: false, problem: "missing" });
    const directory = await withRegularFile(ws.root, async () => 1);
    expect(directory).toEqual({ ok: false, problem: "directory" });
  });
});
