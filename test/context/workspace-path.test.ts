import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ContextErrorCode,
  getWorkspaceRelativePath,
  InvalidPathError,
  isPathInWorkspace,
  PathOutsideWorkspaceError,
  resolveWorkspacePath,
  tryResolveWorkspacePath,
} from "../../src/context/index.js";
import { AinternError } from "../../src/core/index.js";

// Layout, under a fresh temp dir `base` (realpath'd):
//   base/proj/                      the workspace
//   base/proj/src/app.ts
//   base/proj/link-inside -> src    (inside pointing inside)
//   base/proj/file-link -> base/outside/secret.txt
//   base/proj/dir-link -> base/outside
//   base/proj/dangling -> base/outside/new.txt   (does not exist)
//   base/proj/dangling-in -> src/new.ts          (does not exist, inside)
//   base/proj/loop-a -> loop-b, loop-b -> loop-a
//   base/proj-evil/secret.txt       (sibling with the workspace name as prefix)
//   base/outside/secret.txt
//   base/root-link -> proj          (the workspace through a symlink)
let base: string;
let proj: string;
let outside: string;

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "aintern-ws-")));
  proj = join(base, "proj");
  outside = join(base, "outside");
  mkdirSync(join(proj, "src"), { recursive: true });
  mkdirSync(outside);
  mkdirSync(join(base, "proj-evil"));
  writeFileSync(join(proj, "src", "app.ts"), "export {};\n");
  writeFileSync(join(outside, "secret.txt"), "secret\n");
  writeFileSync(join(base, "proj-evil", "secret.txt"), "secret\n");
  symlinkSync("src", join(proj, "link-inside"));
  symlinkSync(join(outside, "secret.txt"), join(proj, "file-link"));
  symlinkSync(outside, join(proj, "dir-link"));
  symlinkSync(join(outside, "new.txt"), join(proj, "dangling"));
  symlinkSync(join("src", "new.ts"), join(proj, "dangling-in"));
  symlinkSync("loop-b", join(proj, "loop-a"));
  symlinkSync("loop-a", join(proj, "loop-b"));
  symlinkSync("proj", join(base, "root-link"));
});

afterAll(() => {
  rmSync(base, { recursive: true, force: true });
});

function expectOutside(path: string, root = proj): PathOutsideWorkspaceError {
  let caught: unknown;
  try {
    resolveWorkspacePath(root, path);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(PathOutsideWorkspaceError);
  const error = caught as PathOutsideWorkspaceError;
  expect(error.code).toBe(ContextErrorCode.PathOutsideWorkspace);
  expect(AinternError.isInstance(error)).toBe(true);
  expect(error.path).toBe(path);
  expect(error.workspaceRoot).toBe(root);
  expect(error.message).toContain(path);
  expect(error.message).toContain(root);
  expect(isPathInWorkspace(root, path)).toBe(false);
  expect(tryResolveWorkspacePath(root, path)).toBeUndefined();
  return error;
}

function expectInvalid(path: unknown, reason: InvalidPathError["reason"], root = proj) {
  let caught: unknown;
  try {
    resolveWorkspacePath(root, path as string);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(InvalidPathError);
  const error = caught as InvalidPathError;
  expect(error.code).toBe(ContextErrorCode.InvalidPath);
  expect(error.reason).toBe(reason);
  expect(error.message).toContain(root.replaceAll("\0", "\\0"));
  expect(isPathInWorkspace(root, path as string)).toBe(false);
  return error;
}

describe("resolveWorkspacePath", () => {
  it("resolves a relative path against the workspace root", () => {
    expect(resolveWorkspacePath(proj, "src/app.ts")).toBe(join(proj, "src", "app.ts"));
    expect(resolveWorkspacePath(proj, "./src/../src/app.ts")).toBe(join(proj, "src", "app.ts"));
  });

  it("returns an absolute path inside the workspace as it is", () => {
    const file = join(proj, "src", "app.ts");
    expect(resolveWorkspacePath(proj, file)).toBe(file);
  });

  it("resolves the workspace root itself", () => {
    expect(resolveWorkspacePath(proj, ".")).toBe(proj);
    expect(resolveWorkspacePath(proj, proj)).toBe(proj);
  });

  it("allows a path that does not exist yet, below existing directories", () => {
    expect(resolveWorkspacePath(proj, "src/new/deep/file.ts")).toBe(
      join(proj, "src", "new", "deep", "file.ts"),
    );
  });

  it("refuses `..` escapes", () => {
    const error = expectOutside("../outside/secret.txt");
    expect(error.resolvedPath).toBe(join(outside, "secret.txt"));
    expectOutside("src/../../outside");
    expectOutside("..");
    expectOutside("../../../../../../../../etc/passwd");
  });

  it("refuses a sibling whose name has the workspace name as a prefix", () => {
    expectOutside("../proj-evil/secret.txt");
    expectOutside(join(base, "proj-evil", "secret.txt"));
    expectOutside(join(base, "proj-evil"));
  });

  it("refuses an absolute path outside the workspace", () => {
    expectOutside(join(outside, "secret.txt"));
    expectOutside("/etc/passwd");
    expectOutside(base);
  });

  it("refuses a symlinked file that points outside", () => {
    const error = expectOutside("file-link");
    expect(error.resolvedPath).toBe(join(outside, "secret.txt"));
  });

  it("refuses a new file under a symlinked directory that points outside", () => {
    const error = expectOutside("dir-link/new-file.txt");
    expect(error.resolvedPath).toBe(join(outside, "new-file.txt"));
    expectOutside("dir-link/not/yet/there.txt");
    expectOutside("dir-link");
  });

  it("refuses a dangling symlink that points outside, so no file can be created through it", () => {
    const error = expectOutside("dangling");
    expect(error.resolvedPath).toBe(join(outside, "new.txt"));
  });

  it("follows a dangling symlink that points inside to its target", () => {
    expect(resolveWorkspacePath(proj, "dangling-in")).toBe(join(proj, "src", "new.ts"));
  });

  it("allows a symlink inside the workspace that points inside it", () => {
    expect(resolveWorkspacePath(proj, "link-inside/app.ts")).toBe(join(proj, "src", "app.ts"));
    expect(resolveWorkspacePath(proj, "link-inside/later.ts")).toBe(join(proj, "src", "later.ts"));
  });

  it("refuses a symlink loop as an invalid path", () => {
    expectInvalid("loop-a", "symlink-loop");
    expectInvalid("loop-a/below/file.txt", "symlink-loop");
  });

  it("refuses a path with a NUL byte", () => {
    const error = expectInvalid("src/app.ts\0.png", "nul-byte");
    expect(error.path).toBe("src/app.ts\\0.png");
  });

  it("refuses an empty path", () => {
    expectInvalid("", "empty");
  });

  it("refuses a value that is not a string", () => {
    expectInvalid(42, "not-a-string");
    expectInvalid(undefined, "not-a-string");
    expectInvalid(null, "not-a-string");
  });

  it("accepts the workspace root given through a symlink", () => {
    const rootLink = join(base, "root-link");
    expect(resolveWorkspacePath(rootLink, "src/app.ts")).toBe(join(proj, "src", "app.ts"));
    expect(resolveWorkspacePath(rootLink, join(rootLink, "src", "app.ts"))).toBe(
      join(proj, "src", "app.ts"),
    );
    expect(resolveWorkspacePath(proj, join(rootLink, "src"))).toBe(join(proj, "src"));
    expectOutside("../outside", rootLink);
  });

  it("refuses a workspace root that does not exist, is a file, or is not a path", () => {
    expectInvalid("a.txt", "invalid-workspace", join(base, "missing"));
    expectInvalid("a.txt", "invalid-workspace", join(outside, "secret.txt"));
    expectInvalid("a.txt", "invalid-workspace", "");
    expectInvalid("a.txt", "invalid-workspace", "bad\0root");
  });

  it("refuses a path the file system cannot resolve, such as a name that is too long", () => {
    const error = expectInvalid(`src/${"x".repeat(300)}/file.txt`, "unresolvable");
    expect(error.message).toContain("ENAMETOOLONG");
    expect(error.cause).toBeDefined();
  });

  it("treats a path through a regular file as not existing, and still confines it", () => {
    expect(resolveWorkspacePath(proj, "src/app.ts/child")).toBe(
      join(proj, "src", "app.ts", "child"),
    );
  });

  it("applies `..` in a symlink target physically, not lexically", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "aintern-ws-dotdot-")));
    try {
      const root = join(dir, "root");
      mkdirSync(join(root, "a"), { recursive: true });
      mkdirSync(join(dir, "far", "deep"), { recursive: true });
      // root/jump -> ../far/deep (outside); root/esc -> jump/../new.txt:
      // the kernel reads `jump/..` as `far`, so esc leads to far/new.txt, outside.
      symlinkSync(join("..", "far", "deep"), join(root, "jump"));
      symlinkSync("jump/../new.txt", join(root, "esc"));
      const error = expectOutside("esc", root);
      expect(error.resolvedPath).toBe(join(dir, "far", "new.txt"));
      // A missing directory followed by `..` in a link target stays where it is.
      symlinkSync("missing/../a/x.txt", join(root, "via-missing"));
      expect(resolveWorkspacePath(root, "via-missing")).toBe(join(root, "a", "x.txt"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lets tryResolveWorkspacePath return the path inside and undefined otherwise", () => {
    expect(tryResolveWorkspacePath(proj, "src")).toBe(join(proj, "src"));
    expect(tryResolveWorkspacePath(proj, "..")).toBeUndefined();
    expect(tryResolveWorkspacePath(proj, "")).toBeUndefined();
    expect(isPathInWorkspace(proj, "src/app.ts")).toBe(true);
  });
});

describe("getWorkspaceRelativePath", () => {
  it("returns the path relative to the root with the platform separator", () => {
    expect(getWorkspaceRelativePath(proj, join(proj, "src", "app.ts"))).toBe(`src${sep}app.ts`);
    expect(getWorkspaceRelativePath(proj, "link-inside/app.ts")).toBe(`src${sep}app.ts`);
  });

  it("returns '.' for the root itself", () => {
    expect(getWorkspaceRelativePath(proj, proj)).toBe(".");
  });

  it("throws for a path outside the workspace", () => {
    expect(() => getWorkspaceRelativePath(proj, "../outside")).toThrow(PathOutsideWorkspaceError);
  });

  it("works when the workspace is the file system root", () => {
    expect(getWorkspaceRelativePath("/", join(proj, "src"))).toBe(join(proj, "src").slice(1));
  });
});

describe("workspace confinement (property)", () => {
  it("never resolves a generated relative path to a place outside the workspace", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "aintern-ws-prop-")));
    try {
      const root = join(dir, "ws");
      mkdirSync(join(root, "a", "a"), { recursive: true });
      mkdirSync(join(dir, "out", "a"), { recursive: true });
      symlinkSync(join(dir, "out"), join(root, "link")); // leads outside
      symlinkSync("..", join(root, "a", "link")); // ws/a/link -> ws
      symlinkSync(join("..", "..", "..", "out"), join(root, "a", "a", "link")); // leads outside
      symlinkSync(join("..", "later"), join(root, "a", "a", "dangle")); // dangling, inside
      symlinkSync(join(dir, "out", "gone"), join(root, "a", "dangle")); // dangling, outside
      const segment = fc.constantFrom("a", "..", ".", "link", "dangle", "new");
      fc.assert(
        fc.property(fc.array(segment, { minLength: 1, maxLength: 8 }), (segments) => {
          const input = segments.join("/");
          let resolved: string;
          try {
            resolved = resolveWorkspacePath(root, input);
          } catch (error) {
            expect(
              error instanceof PathOutsideWorkspaceError || error instanceof InvalidPathError,
            ).toBe(true);
            return;
          }
          // Independently: the deepest existing ancestor of the result, resolved by the
          // operating system, must be inside the root, and nothing below it may exist.
          let existing = resolved;
          for (;;) {
            try {
              expect(realpathSync.native(existing)).toBe(existing);
              break;
            } catch {
              // Missing outright: not even a dangling symlink that a write would follow.
              expect(() => lstatSync(existing)).toThrow();
              existing = dirname(existing);
            }
          }
          expect(existing === root || existing.startsWith(root + sep)).toBe(true);
          expect(resolved === root || resolved.startsWith(root + sep)).toBe(true);
        }),
        { numRuns: 500 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the workspace root's boundary", () => {
  it("stays where it was first resolved when the root is later swapped for a link to /", () => {
    const parent = mkdtempSync(join(tmpdir(), "aintern-root-swap-"));
    try {
      const root = join(parent, "workspace");
      mkdirSync(root);
      writeFileSync(join(root, "a.txt"), "a");
      expect(resolveWorkspacePath(root, "a.txt")).toBe(join(realpathSync(root), "a.txt"));

      renameSync(root, join(parent, "moved"));
      symlinkSync("/", root);

      expect(() => resolveWorkspacePath(root, "etc/passwd")).toThrow(PathOutsideWorkspaceError);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("holds paths to the root's own directory when a directory above the root is swapped", () => {
    const parent = realpathSync(mkdtempSync(join(tmpdir(), "aintern-ancestor-swap-")));
    try {
      const root = join(parent, "above", "workspace");
      mkdirSync(root, { recursive: true });
      writeFileSync(join(root, "a.txt"), "a");
      expect(resolveWorkspacePath(root, "a.txt")).toBe(join(root, "a.txt"));

      // The same names, one directory up: only the directory's identity tells them apart.
      renameSync(join(parent, "above"), join(parent, "moved"));
      mkdirSync(join(parent, "elsewhere", "workspace"), { recursive: true });
      writeFileSync(join(parent, "elsewhere", "workspace", "a.txt"), "not the workspace's");
      symlinkSync(join(parent, "elsewhere"), join(parent, "above"));

      expectOutside("a.txt", root);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });

  it("answers as realpath does for paths below the root, links or not", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "aintern-ws-agree-")));
    try {
      const root = join(dir, "ws");
      mkdirSync(join(root, "a", "b"), { recursive: true });
      mkdirSync(join(dir, "out"));
      writeFileSync(join(root, "a", "b", "f.txt"), "f");
      writeFileSync(join(root, "file"), "f");
      symlinkSync(join("a", "b"), join(root, "ab")); // inside
      symlinkSync(join(dir, "out"), join(root, "a", "out")); // outside
      const segment = fc.constantFrom("a", "b", "ab", "f.txt", "file", "out", "missing");
      fc.assert(
        fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
          const input = segments.join("/");
          let real: string | undefined;
          try {
            real = realpathSync.native(join(root, input));
          } catch {
            real = undefined; // missing, or through a file: resolved by the slower path
          }
          if (real === undefined) return;
          if (real === root || real.startsWith(root + sep)) {
            expect(resolveWorkspacePath(root, input)).toBe(real);
          } else {
            expect(tryResolveWorkspacePath(root, input)).toBeUndefined();
          }
        }),
        { numRuns: 300 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
