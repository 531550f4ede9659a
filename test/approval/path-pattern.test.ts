import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { matchPathPattern, validatePathPattern } from "../../src/approval/index.js";

let workspace: string;
let outside: string;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "aintern-path-pattern-"));
  outside = mkdtempSync(join(tmpdir(), "aintern-path-pattern-outside-"));
  mkdirSync(join(workspace, "src", "a"), { recursive: true });
  writeFileSync(join(workspace, "src", "a", "b.cs"), "class B {}\n");
  mkdirSync(join(workspace, "src", ".hidden"));
  writeFileSync(join(workspace, "src", ".hidden", "c.cs"), "");
  mkdirSync(join(workspace, "secrets"));
  writeFileSync(join(workspace, "secrets", "key.cs"), "");
  writeFileSync(join(outside, "x.cs"), "");
  // A directory link inside src that leads out of the workspace, and one that leads elsewhere in it.
  symlinkSync(outside, join(workspace, "src", "escape"), "dir");
  symlinkSync(join(workspace, "secrets"), join(workspace, "src", "inner"), "dir");
  // A dangling link: writing through it would create a file outside.
  symlinkSync(join(outside, "new.cs"), join(workspace, "src", "dangling.cs"));
});

afterAll(() => {
  rmSync(workspace, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe("matchPathPattern", () => {
  it("`src/**/*.cs` matches `src/a/b.cs`", () => {
    expect(matchPathPattern("src/**/*.cs", "src/a/b.cs", workspace)).toBe(true);
  });

  it("`src/**/*.cs` matches a file directly in src", () => {
    writeFileSync(join(workspace, "src", "top.cs"), "");
    expect(matchPathPattern("src/**/*.cs", "src/top.cs", workspace)).toBe(true);
  });

  it("matches a file that does not exist yet", () => {
    expect(matchPathPattern("src/**/*.cs", "src/a/new/deep.cs", workspace)).toBe(true);
  });

  it("matches an absolute path inside the workspace", () => {
    expect(matchPathPattern("src/**/*.cs", join(workspace, "src", "a", "b.cs"), workspace)).toBe(
      true,
    );
  });

  it("matches a path that wanders with .. but stays inside", () => {
    expect(matchPathPattern("src/**/*.cs", "secrets/../src/a/b.cs", workspace)).toBe(true);
  });

  it("does not match a path whose extension differs", () => {
    expect(matchPathPattern("src/**/*.cs", "src/a/b.ts", workspace)).toBe(false);
  });

  it("`src/**/*.cs` does not match `src/../../x.cs`", () => {
    expect(matchPathPattern("src/**/*.cs", "src/../../x.cs", workspace)).toBe(false);
  });

  it("`src/**/*.cs` does not match `src/../secrets/key.cs`, which is inside but not in src", () => {
    expect(matchPathPattern("src/**/*.cs", "src/../secrets/key.cs", workspace)).toBe(false);
  });

  it("`src/**/*.cs` does not match `/etc/x.cs`", () => {
    expect(matchPathPattern("src/**/*.cs", "/etc/x.cs", workspace)).toBe(false);
    expect(matchPathPattern("**", "/etc/passwd", workspace)).toBe(false);
  });

  it("does not match through a symlink in src that points outside the workspace", () => {
    expect(matchPathPattern("src/**/*.cs", "src/escape/x.cs", workspace)).toBe(false);
    expect(matchPathPattern("src/**", "src/escape/x.cs", workspace)).toBe(false);
  });

  it("does not match through a dangling symlink whose target is outside", () => {
    expect(matchPathPattern("src/**/*.cs", "src/dangling.cs", workspace)).toBe(false);
  });

  it("matches the real location behind a symlink that stays inside the workspace", () => {
    expect(matchPathPattern("src/**/*.cs", "src/inner/key.cs", workspace)).toBe(false);
    expect(matchPathPattern("secrets/*.cs", "src/inner/key.cs", workspace)).toBe(true);
  });

  it("does not match `src/a/b.cs\\0.txt`: a NUL byte matches nothing", () => {
    expect(matchPathPattern("src/**/*.cs", "src/a/b.cs\0.txt", workspace)).toBe(false);
    expect(matchPathPattern("src/**", "src/a/b.cs\0", workspace)).toBe(false);
  });

  it("does not let * or ** match dot names unless asked", () => {
    expect(matchPathPattern("src/**/*.cs", "src/.hidden/c.cs", workspace)).toBe(false);
    expect(matchPathPattern("**", ".env", workspace)).toBe(false);
    expect(matchPathPattern("src/.hidden/*.cs", "src/.hidden/c.cs", workspace)).toBe(true);
    expect(matchPathPattern("src/**/*.cs", "src/.hidden/c.cs", workspace, { dot: true })).toBe(
      true,
    );
  });

  it("folds case only when asked on a case-sensitive file system", () => {
    const folds = matchPathPattern("src/**/*.cs", "src/a/B.CS", workspace);
    // Linux file systems tell case apart; macOS and Windows ones usually do not.
    expect(folds).toBe(process.platform === "darwin" || process.platform === "win32");
    expect(matchPathPattern("src/**/*.cs", "src/a/B.CS", workspace, { nocase: true })).toBe(true);
  });

  it("supports brace alternatives but not extglobs", () => {
    expect(matchPathPattern("src/**/*.{cs,ts}", "src/a/b.cs", workspace)).toBe(true);
    expect(matchPathPattern("src/**/@(b).cs", "src/a/b.cs", workspace)).toBe(false);
  });

  it("never matches the workspace root itself", () => {
    expect(matchPathPattern("**", ".", workspace)).toBe(false);
    expect(matchPathPattern("**", workspace, workspace)).toBe(false);
  });

  it("matches nothing for a workspace that does not exist", () => {
    expect(matchPathPattern("**", "a.cs", join(outside, "missing"))).toBe(false);
  });

  it("matches nothing for an empty path or a non-string path", () => {
    expect(matchPathPattern("**", "", workspace)).toBe(false);
    expect(matchPathPattern("**", 7 as unknown as string, workspace)).toBe(false);
  });

  it("matches nothing for a workspace given with a NUL byte", () => {
    expect(matchPathPattern("**", "src/a/b.cs", `${workspace}\0`)).toBe(false);
  });

  it("matches nothing for an invalid pattern", () => {
    expect(matchPathPattern("../**", "src/a/b.cs", workspace)).toBe(false);
    expect(matchPathPattern("/**", "src/a/b.cs", workspace)).toBe(false);
    expect(matchPathPattern("!secrets/**", "src/a/b.cs", workspace)).toBe(false);
  });

  it("never matches a path that resolves outside the workspace, for any mix of segments", () => {
    const segment = fc.constantFrom("src", "a", "b.cs", "..", ".", "escape", "inner", "x.cs");
    const parts = fc.array(segment, { minLength: 1, maxLength: 6 });
    const realWorkspace = realpathSync(workspace);
    /**
     * Where the segments lead, as the workspace resolver defines it: `..` applied lexically first
     * (as `path.resolve` does), then the deepest existing ancestor's symlinks resolved.
     */
    const lead = (segments: readonly string[]): string => {
      let existing = resolve(realWorkspace, segments.join("/"));
      const rest: string[] = [];
      while (!existsSync(existing)) {
        rest.unshift(basename(existing));
        existing = dirname(existing);
      }
      return join(realpathSync(existing), ...rest);
    };
    fc.assert(
      fc.property(parts, fc.boolean(), (segments, absolute) => {
        const candidate = (absolute ? workspace + sep : "") + segments.join("/");
        fc.pre(matchPathPattern("**", candidate, workspace, { dot: true }));
        const rel = relative(realWorkspace, lead(segments));
        expect(rel === "" || rel.startsWith("..") || isAbsolute(rel)).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("matches paths of the workspace reached through .. after staying inside", () => {
    expect(matchPathPattern("**", "src/a/../../secrets/key.cs", workspace, { dot: true })).toBe(
      true,
    );
  });
});

describe("validatePathPattern", () => {
  it.each(["src/**/*.cs", "**", "*.md", "./src/**", ".github/**", "docs/{a,b}/*.md", "f{1..3}"])(
    "accepts `%s`",
    (pattern) => {
      expect(validatePathPattern(pattern)).toBeUndefined();
    },
  );

  it.each([
    ["an empty pattern", "", /empty/],
    ["a blank pattern", "   ", /empty/],
    ["an absolute pattern", "/etc/**", /absolute/],
    ["a home-relative pattern", "~/.ssh/*", /absolute/],
    ["a drive-letter pattern", "C:/Windows/**", /absolute/],
    ["an absolute brace alternative", "{/etc,src}/**", /absolute/],
    ["a leading .. segment", "../secrets/**", /'\.\.'/],
    ["an inner .. segment", "src/../../**", /'\.\.'/],
    ["a trailing .. segment", "src/..", /'\.\.'/],
    ["a .. brace alternative", "{..,src}/**", /'\.\.'/],
    ["a backslash", "src\\**", /backslash/],
    ["a NUL byte", "src/\0/**", /NUL/],
    ["a control character", "src/\u001b/**", /control/],
    ["a negation", "!secrets/**", /negated/],
  ])("rejects %s", (_what, pattern, message) => {
    expect(validatePathPattern(pattern)).toMatch(message);
  });

  it("accepts a name that merely contains two dots", () => {
    expect(validatePathPattern("docs/a..b.md")).toBeUndefined();
  });

  it("rejects a non-string pattern", () => {
    expect(validatePathPattern(undefined as unknown as string)).toMatch(/string/);
  });
});
