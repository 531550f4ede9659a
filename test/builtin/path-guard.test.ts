import { describe, expect, it } from "vitest";
import { globMatcher } from "../../src/approval/glob-matcher.js";
import { PathGuard } from "../../src/builtin/path-guard.js";
import { defaultProtectedPathPatterns } from "../../src/core/index.js";

const paths = [
  ".env",
  ".ENV",
  ".env.local",
  "a/b/.env.production",
  ".envrc",
  "env",
  "src/env.ts",
  ".npmrc",
  "pkg/.npmrc",
  ".yarnrc.yml",
  ".git",
  ".git/config",
  "sub/.git/hooks/pre-commit",
  ".gitignore",
  ".gitmodules",
  ".vscode",
  ".vscode/settings.json",
  ".github",
  ".github/workflows",
  ".github/workflows/ci.yml",
  ".github/CODEOWNERS",
  "data/app.db",
  "data/app.db-wal",
  "data/app.sqlite",
  "aintern.config.json",
  "x/aintern.policy.json",
  ".direnv",
  ".direnv/x",
  "src/app.ts",
  "README.md",
];

describe("PathGuard", () => {
  it("matches exactly what the policy's protected-path matcher matches (one compiled test)", () => {
    const policy = globMatcher(defaultProtectedPathPatterns, { dot: true, nocase: true });
    const check = new PathGuard().checkFrom(".");
    for (const path of paths) {
      const expected = policy(path) ? "protected" : undefined;
      expect(check(path), path).toBe(expected);
    }
    expect(check(".aintern")).toBe("store");
    expect(check("deep/.AINTERN/audit.db-inflight.1")).toBe("store");
  });

  it("matches deny patterns as picomatch does, the quick pre-test never hiding a match", () => {
    const patterns = [
      "src/**",
      "*.key",
      "**/secret?/**",
      "docs/{a,b}/**",
      "./x/**",
      "a/**/b.txt",
      "**",
      "logs/*.log",
      "[Pp]rivate/**",
    ];
    const more = [
      "SRC/a.ts",
      "id.KEY",
      "deep/secrets/x",
      "docs/b/c.md",
      "x/y",
      "a/b.txt",
      "a/q/r/b.txt",
      "logs/app.log",
      "logs/deep/app.log",
      "private/k",
      "Private/k",
      "src",
    ];
    for (const pattern of patterns) {
      const expected = globMatcher(pattern, { dot: true, nocase: true });
      const check = new PathGuard({ protectedPaths: [], deniedPaths: [pattern] }).checkFrom(".");
      for (const path of [...paths, ...more]) {
        if (path.toLowerCase().includes(".aintern")) continue;
        expect(check(path), `${pattern} ${path}`).toBe(expected(path) ? "denied" : undefined);
      }
    }
  });

  it("ranks the store over a deny rule over a protected path, and ignores an empty pattern", () => {
    const check = new PathGuard({ deniedPaths: ["**/.env*", ""], protectedPaths: [] }).checkFrom(
      ".",
    );
    expect(check(".env")).toBe("denied");
    expect(check(".npmrc")).toBeUndefined();
    expect(check(".aintern/x")).toBe("store");
  });

  it("leaves out the protected patterns the call's own path is under, never a deny rule", () => {
    const guard = new PathGuard({ deniedPaths: ["**/keys/**"] });
    const inside = guard.checkFrom(".vscode");
    expect(inside(".vscode/settings.json")).toBeUndefined();
    expect(inside(".vscode/.env")).toBe("protected");
    expect(inside(".vscode/keys/a")).toBe("denied");
    expect(guard.checkFrom(".")(".vscode/settings.json")).toBe("protected");
  });
});
