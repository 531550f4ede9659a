import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCaseSensitiveFileSystem, isWithin } from "../../src/context/case-sensitivity.js";
import { isPathInWorkspace } from "../../src/context/index.js";

let base: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "aintern-case-")));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

describe("case sensitivity", () => {
  it("detects the case sensitivity of the temp file system from a case-toggled name", () => {
    const dir = join(base, "Proj");
    mkdirSync(dir);
    let differentSpellingExists = true;
    try {
      realpathSync.native(join(base, "pROJ"));
    } catch {
      differentSpellingExists = false;
    }
    expect(isCaseSensitiveFileSystem(dir)).toBe(!differentSpellingExists);
    // Cached: asked again, same answer.
    expect(isCaseSensitiveFileSystem(dir)).toBe(!differentSpellingExists);
  });

  it("treats a differently cased sibling as outside on a case-sensitive file system", () => {
    const lower = join(base, "work");
    const upper = join(base, "WORK");
    mkdirSync(lower);
    let sensitive = true;
    try {
      mkdirSync(upper);
    } catch {
      sensitive = false;
    }
    if (sensitive) {
      expect(isCaseSensitiveFileSystem(lower)).toBe(true);
      expect(isPathInWorkspace(lower, join(upper, "file.txt"))).toBe(false);
    } else {
      expect(isPathInWorkspace(lower, join(upper, "file.txt"))).toBe(true);
    }
  });

  it("is not fooled by a case-toggled symlink to the root on a case-sensitive file system", () => {
    const root = join(base, "Ws");
    mkdirSync(root);
    let sensitive = true;
    try {
      mkdirSync(join(base, "probe"));
      mkdirSync(join(base, "PROBE"));
    } catch {
      sensitive = false;
    }
    if (sensitive) {
      symlinkSync(root, join(base, "wS"));
      mkdirSync(join(base, "WS"));
      expect(isCaseSensitiveFileSystem(root)).toBe(true);
      expect(isPathInWorkspace(root, join(base, "WS", "secret.txt"))).toBe(false);
    }
    expect(isPathInWorkspace(root, join(root, "inside.txt"))).toBe(true);
  });

  it("falls back to the platform default for a directory without letters", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "0")));
    try {
      const digits = join(dir, "123");
      mkdirSync(digits);
      const expected = !(process.platform === "win32" || process.platform === "darwin");
      // Ancestors of a temp dir usually have letters ("tmp"), so only the root has none.
      expect(isCaseSensitiveFileSystem("/")).toBe(expected);
      expect(typeof isCaseSensitiveFileSystem(digits)).toBe("boolean");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("compares whole segments, folding case only when asked to", () => {
    expect(isWithin("/srv/proj", "/srv/proj", true)).toBe(true);
    expect(isWithin("/srv/proj", "/srv/proj/a/b", true)).toBe(true);
    expect(isWithin("/srv/proj", "/srv/proj-evil", true)).toBe(false);
    expect(isWithin("/srv/proj", "/srv", true)).toBe(false);
    expect(isWithin("/srv/proj", "/srv/proj/..foo", true)).toBe(true);
    expect(isWithin("/srv/proj", "/srv/PROJ/a", true)).toBe(false);
    expect(isWithin("/srv/proj", "/srv/PROJ/a", false)).toBe(true);
    expect(isWithin("/srv/proj", "/srv/PROJ-evil/a", false)).toBe(false);
    expect(isWithin("/", "/anything", true)).toBe(true);
  });

  it("does not take a path that leads back out through '..' for one inside", () => {
    expect(isWithin("/srv/proj", "/srv/proj/../etc/passwd", true)).toBe(false);
    expect(isWithin("/srv/proj", "/srv/proj/a/../../etc", true)).toBe(false);
    expect(isWithin("/srv/proj", "/srv/proj/..", true)).toBe(false);
    expect(isWithin("/srv/proj", "/srv/proj/a/..", true)).toBe(true);
  });
});
