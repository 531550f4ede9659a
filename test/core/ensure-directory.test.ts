import { existsSync } from "node:fs";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ensureDirectory } from "../../src/core/ensure-directory.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "aintern-ensure-dir-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("ensureDirectory", () => {
  it("makes every missing level, and is content when the folder exists", async () => {
    const deep = join(dir, "a", "b", "c");
    ensureDirectory(deep);
    expect((await stat(deep)).isDirectory()).toBe(true);
    ensureDirectory(deep);
    ensureDirectory(dir);
  });

  it("gives each new level the mode asked for", async () => {
    ensureDirectory(join(dir, "private", "inner"), 0o700);
    expect((await stat(join(dir, "private"))).mode & 0o777).toBe(0o700);
  });

  it("names a file in the way", async () => {
    await writeFile(join(dir, "file"), "x");
    expect(() => ensureDirectory(join(dir, "file", "sub"))).toThrow(/ENOTDIR.*file/);
  });

  it.runIf(existsSync("/proc/self"))(
    "fails at once where a level cannot be made under a parent that exists (Node's recursive mkdir loops forever there)",
    () => {
      const started = performance.now();
      expect(() => ensureDirectory("/proc/aintern-test/inner")).toThrow(
        /ENOENT.*\/proc\/aintern-test/,
      );
      expect(performance.now() - started).toBeLessThan(1_000);
    },
  );
});
