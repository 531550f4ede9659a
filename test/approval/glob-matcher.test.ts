import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import picomatch from "picomatch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  cachedGlobMatcherCount,
  globCompileCount,
  globMatcher,
  MAX_CACHED_GLOB_MATCHERS,
} from "../../src/approval/glob-matcher.js";
import { ApprovalPolicy } from "../../src/approval/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";

let workspace: string;

beforeAll(() => {
  workspace = mkdtempSync(join(tmpdir(), "aintern-globs-"));
  mkdirSync(join(workspace, "src"));
  writeFileSync(join(workspace, "src", "a.ts"), "");
});
afterAll(() => rmSync(workspace, { recursive: true, force: true }));

describe("globMatcher", () => {
  it("compiles a pattern once per options and reuses it", () => {
    const first = globMatcher("src/**/*.ts", { dot: false, nocase: false });
    expect(globMatcher("src/**/*.ts", { dot: false, nocase: false })).toBe(first);
    expect(globMatcher("src/**/*.ts", { dot: true, nocase: false })).not.toBe(first);
    expect(globMatcher(["src/**/*.ts"], { dot: false, nocase: false })).not.toBe(first);
    expect(first("src/a/b.ts")).toBe(true);
    expect(first("src/.hidden/b.ts")).toBe(false);
    expect(first("SRC/a/b.ts")).toBe(false);
    expect(globMatcher("src/**/*.ts", { dot: true, nocase: true })("SRC/.x/b.ts")).toBe(true);
  });

  it("answers as picomatch's own matcher of the list, for every option and path", () => {
    const patterns = [
      ".env",
      ".env.*",
      "**/.git/**",
      "src/**/*.{ts,tsx}",
      "a?c/[xy]*.md",
      "node_modules",
      "**/secrets/*",
      "[id].ts", // a path spelled as the pattern matches even where the glob would not
      "(x)+y",
    ];
    const paths = [
      "",
      ".env",
      ".ENV",
      ".env.local",
      "x/.env",
      ".git/config",
      "a/.git/HEAD",
      "src/a.ts",
      "src/b/c.tsx",
      "src/.h/c.ts",
      "abc/x1.md",
      "abc/z.md",
      "node_modules",
      "node_modules/x",
      "deep/secrets/key",
      "[id].ts",
      "i.ts",
      "(x)+y",
      "xxy",
    ];
    for (const dot of [false, true]) {
      for (const nocase of [false, true]) {
        const ours = globMatcher(patterns, { dot, nocase });
        const theirs = picomatch(patterns, {
          dot,
          nocase,
          noextglob: true,
          nonegate: true,
          windows: false,
        });
        for (const path of paths) {
          expect(ours(path), `${path} dot=${dot} nocase=${nocase}`).toBe(Boolean(theirs(path)));
        }
      }
    }
    // No pattern matches nothing (an empty alternation would match every path).
    expect(globMatcher([], { dot: true, nocase: true })("anything")).toBe(false);
  });

  it("keeps list members apart: a list is not the same as one pattern joined", () => {
    const list = globMatcher(["a", "b"], { dot: false, nocase: false });
    expect(list("a")).toBe(true);
    expect(list("b")).toBe(true);
    expect(list("a\u0000b")).toBe(false);
  });

  it("stays bounded: the least recently used matcher is dropped", () => {
    const kept = globMatcher("kept/**", { dot: false, nocase: false });
    for (let i = 0; i < MAX_CACHED_GLOB_MATCHERS + 50; i++) {
      globMatcher(`p${i}/**`, { dot: false, nocase: false });
      if (i % 100 === 0) globMatcher("kept/**", { dot: false, nocase: false }); // used: kept
    }
    expect(cachedGlobMatcherCount()).toBe(MAX_CACHED_GLOB_MATCHERS);
    expect(globMatcher("kept/**", { dot: false, nocase: false })).toBe(kept);
    const dropped = globMatcher("p0/**", { dot: false, nocase: false });
    expect(dropped("p0/x")).toBe(true);
  });

  it("lets a policy decide many calls without compiling again", () => {
    const policy = new ApprovalPolicy({
      allow: [{ toolId: "file-write", pathPattern: "src/{a,b}.ts" }],
      protectedPaths: ["nowhere-else/**"],
    });
    const call = {
      toolId: "file-write",
      category: ToolCategory.FileSystem,
      riskLevel: RiskLevel.Medium,
      parameters: { path: "src/a.ts" },
      workspacePath: workspace,
    };
    const before = globCompileCount();
    expect(policy.decide(call).kind).toBe("allow");
    // The protected paths and the rule's pattern: each compiled on first use, through the cache.
    expect(globCompileCount()).toBe(before + 2);
    for (let i = 0; i < 50; i++) expect(policy.decide(call).kind).toBe("allow");
    expect(globCompileCount()).toBe(before + 2);
  });

  it("finds a frozen list's matcher by the list itself, and still sees a mutable list's changes", () => {
    const options = { dot: true, nocase: true };
    const frozen = Object.freeze(["secret-a/**", "*.pem"]);
    const first = globMatcher(frozen, options);
    const before = globCompileCount();
    expect(globMatcher(frozen, options)).toBe(first);
    expect(globCompileCount()).toBe(before);
    expect(first("secret-a/x")).toBe(true);
    expect(first("KEY.PEM")).toBe(true);
    expect(first("src/a.ts")).toBe(false);
    // Other options are another matcher of the same list.
    expect(globMatcher(frozen, { dot: false, nocase: false })("KEY.PEM")).toBe(false);

    const mutable = ["secret-b/**"];
    expect(globMatcher(mutable, options)("secret-c/x")).toBe(false);
    mutable.push("secret-c/**");
    expect(globMatcher(mutable, options)("secret-c/x")).toBe(true);
  });
});
