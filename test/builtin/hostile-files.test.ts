import { execFileSync, spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BuiltinToolErrorCode,
  fileDeleteTool,
  fileReadTool,
  fileWriteTool,
  listDirectoryTool,
  searchTool,
} from "../../src/builtin/index.js";
import { ToolErrorCode } from "../../src/core/index.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
});
afterEach(async () => {
  await ws.remove();
});

describe("the file tools never block on a FIFO", () => {
  it("refuses a FIFO with no writer as NotARegularFile, call after call, and other file work goes on", async () => {
    execFileSync("mkfifo", [ws.path("pipe")]);
    await ws.write({ "a.txt": "hello\n" });
    // More calls than libuv has thread-pool threads (4): a blocking open would hold them all.
    for (let i = 0; i < 6; i++) {
      const result = await run(fileReadTool, ws.root, { path: "pipe" });
      expect(result.errorCode).toBe(BuiltinToolErrorCode.NotARegularFile);
    }
    const search = await run(searchTool, ws.root, { path: "pipe", query: "x" });
    expect(search.errorCode).toBe(BuiltinToolErrorCode.NotARegularFile);
    const list = await run(listDirectoryTool, ws.root, { path: "pipe" });
    expect(list.errorCode).toBe(BuiltinToolErrorCode.NotARegularFile);
    const searchAll = await run(searchTool, ws.root, { query: "hello" });
    expect(searchAll.success).toBe(true);
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("hello\n");
    const read = await run(fileReadTool, ws.root, { path: "a.txt" });
    expect(read.success).toBe(true);
  });

  it("reads a .gitignore that is a FIFO, or a link out of the workspace, as no rules", async () => {
    execFileSync("mkfifo", [ws.path(".gitignore")]);
    await ws.write({ "sub/x.log": "x", "sub/keep.txt": "k" });
    await writeFile(join(ws.outside, "ignore-all"), "*\n");
    await ws.link("sub/.gitignore", join(ws.outside, "ignore-all"));
    const result = await run(listDirectoryTool, ws.root, { path: "sub" });
    expect(result.success).toBe(true);
    const names = (result.data as { entries: { name: string }[] }).entries.map((e) => e.name);
    expect(names).toContain("keep.txt");
    expect(names).toContain("x.log");
  });

  it("follows a .gitignore link that stays inside the workspace", async () => {
    await ws.write({ "rules.txt": "*.log\n", "sub/x.log": "x", "sub/keep.txt": "k" });
    await ws.link("sub/.gitignore", ws.path("rules.txt"));
    const result = await run(listDirectoryTool, ws.root, { path: "sub" });
    const names = (result.data as { entries: { name: string }[] }).entries.map((e) => e.name);
    expect(names).toContain("keep.txt");
    expect(names).not.toContain("x.log");
  });
});

describe("file-write against a hostile workspace", () => {
  it("refuses a path holding a NUL byte as a validation failure", async () => {
    const result = await run(fileWriteTool, ws.root, { path: "a\0b", content: "x" });
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(result.error).toMatch(/NUL/);
  });

  it("refuses a name longer than the file system takes as a validation failure, without internal paths", async () => {
    const long = "a".repeat(300);
    for (const [tool, parameters] of [
      [fileWriteTool, { path: long, content: "x" }],
      [fileDeleteTool, { path: long }],
    ] as const) {
      const result = await run(tool, ws.root, parameters);
      expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
      expect(result.error).toMatch(/too long/);
      expect(result.error).not.toMatch(/\/proc\/|ENAMETOOLONG/);
    }
  });

  it("never lands a file outside the workspace while a directory and a link swap places", async () => {
    const helper = join(ws.outside, "..", "swap");
    const source = `${helper}.c`;
    await writeFile(
      source,
      `#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/fs.h>
int main(int argc, char **argv) {
  time_t end = time(0) + atoi(argv[3]);
  while (time(0) < end) syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], RENAME_EXCHANGE);
  return 0;
}
`.replace("#include <unistd.h>", "#include <unistd.h>\n#include <stdlib.h>"),
    );
    execFileSync("gcc", ["-O2", "-o", helper, source]);
    await ws.write({ "d/seed.txt": "seed" });
    await ws.link("swapper", ws.outside);
    // The swapper swaps until it is killed once the writes are done (60 s is only its limit if
    // the test dies first): every write below races it. It used to stop on its own after 10 s,
    // which left it spinning a core for 3 s after the 20,000 writes (7 s here) had ended.
    const swapper = spawn(helper, [ws.path("d"), ws.path("swapper"), "60"], { stdio: "ignore" });
    const ended = new Promise((resolve) => swapper.once("exit", resolve));
    let writes = 0;
    try {
      const until = Date.now() + 10_000;
      while (Date.now() < until || writes < 1000) {
        await run(fileWriteTool, ws.root, {
          path: `d/f${writes % 50}.txt`,
          content: "pwned",
          overwrite: true,
        });
        writes++;
        if (writes > 20_000) break;
      }
    } finally {
      swapper.kill("SIGKILL");
      await ended;
    }
    expect(writes).toBeGreaterThanOrEqual(1000);
    const outside = await readdir(ws.outside);
    expect(outside.sort()).toEqual(["secret.txt"]);
    const leftovers = async (dir: string) =>
      (await readdir(dir).catch(() => [] as string[])).filter((n) => n.includes(".aintern-"));
    expect(await leftovers(ws.path("d"))).toEqual([]);
    expect(await leftovers(ws.path("swapper"))).toEqual([]);
    expect(await leftovers(ws.outside)).toEqual([]);
  }, 60_000);
});
