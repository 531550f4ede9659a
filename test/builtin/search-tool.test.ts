import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type SearchData, SearchTool, searchTool } from "../../src/builtin/index.js";
import type { ToolProgress } from "../../src/context/index.js";
import { type JsonObject, RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import { writeTree } from "./tree-fixture.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
  await writeTree(ws);
});
afterEach(async () => {
  await ws.remove();
});

async function search(parameters: JsonObject, tool: SearchTool = searchTool): Promise<SearchData> {
  const result = await run(tool, ws.root, parameters);
  expect(result.success, result.error).toBe(true);
  return result.data as SearchData;
}
const matchedPaths = (data: SearchData) => [...new Set((data.matches ?? []).map((m) => m.path))];

describe("search by content", () => {
  it("finds lines by regex, honouring root and nested .gitignore and skipping .git/", async () => {
    const data = await search({ query: "TODO" });
    expect(data.mode).toBe("content");
    expect(matchedPaths(data)).toEqual(["docs/readme.md", "src/app.ts", "src/keep.log"]);
    expect(data.matches?.[1]).toEqual({
      path: "src/app.ts",
      line: 1,
      column: 4,
      text: "// TODO: app",
    });
  });

  it("never searches .git/, binary files or what a link points to, even without .gitignore", async () => {
    const data = await search({ query: "TODO|secret", respectGitignore: false });
    const found = matchedPaths(data);
    expect(found).toContain("node_modules/pkg/index.js");
    expect(found).toContain("src/generated.ts");
    expect(found.some((p) => p.startsWith(".git"))).toBe(false);
    expect(found).not.toContain("image.bin");
    expect(found.some((p) => p.includes("link"))).toBe(false);
    expect(data.notes?.some((n) => n.includes("binary"))).toBe(true);
  });

  it("applies the root's .gitignore when searching a subdirectory, results relative to the workspace", async () => {
    const data = await search({ query: "TODO", path: "src" });
    expect(matchedPaths(data)).toEqual(["src/app.ts", "src/keep.log"]);
  });

  it("searches a single file named by path", async () => {
    const data = await search({ query: "export", path: "src/util.ts" });
    expect(data.matches).toEqual([
      { path: "src/util.ts", line: 1, column: 1, text: "export const util = 2;" },
    ]);
  });

  it("filters contents by a file-name glob and matches case-insensitively on request", async () => {
    const sensitive = await search({ query: "todo", glob: "*.ts" });
    expect(matchedPaths(sensitive)).toEqual(["src/deep/nested/x.ts"]);
    const insensitive = await search({ query: "todo", glob: "*.ts", ignoreCase: true });
    expect(matchedPaths(insensitive)).toEqual(["src/app.ts", "src/deep/nested/x.ts"]);
  });

  it("caps matches per file and in total, saying so", async () => {
    await ws.write({ "many.txt": "hit\n".repeat(50), "more.txt": "hit\n".repeat(50) });
    const perFile = await search({ query: "^hit$", maxMatchesPerFile: 5 });
    expect(perFile.matches).toHaveLength(10);
    expect(perFile.notes?.some((n) => n.includes("more than 5 matching lines"))).toBe(true);
    const total = await search({ query: "^hit$", maxResults: 3 });
    expect(total.matches).toHaveLength(3);
    expect(total.truncated).toBe(true);
    expect(total.notes?.some((n) => n.includes("Stopped at 3 results"))).toBe(true);
  });

  it("scans long lines only up to the line limit", async () => {
    await ws.write({ "long.txt": `${"x".repeat(500)}NEEDLE\nshort NEEDLE\n` });
    const tool = new SearchTool({ maxLineLength: 100 });
    const data = await search({ query: "NEEDLE", path: "long.txt" }, tool);
    expect(data.matches?.map((m) => m.line)).toEqual([2]);
    expect(data.notes?.some((n) => n.includes("longer than 100"))).toBe(true);
  });

  it("shows a window of a long matching line", async () => {
    await ws.write({ "wide.txt": `${"a".repeat(1000)}NEEDLE${"b".repeat(1000)}\n` });
    const data = await search({ query: "NEEDLE", path: "wide.txt" });
    const text = data.matches?.[0]?.text ?? "";
    expect(text).toContain("NEEDLE");
    expect(text.length).toBeLessThan(320);
    expect(text.startsWith("...")).toBe(true);
  });

  it("stops a catastrophically backtracking pattern at the time budget with partial results", async () => {
    await ws.write({ "a-first.txt": "aaa\n", "evil.txt": `${"a".repeat(40)}b\n` });
    const tool = new SearchTool({ timeBudgetMs: 300 });
    const started = performance.now();
    const data = await search({ query: "^(a+)+$" }, tool);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(data.truncated).toBe(true);
    expect(data.notes?.some((n) => n.includes("time budget"))).toBe(true);
  });

  it("does not hold the thread for its whole time budget on a catastrophically backtracking query", async () => {
    // Red team, session 23: one such search held the server's thread for 10 s, every other
    // call and connection waiting. A timer due in 10 ms now runs after one batch's scan at most.
    await ws.write({ "big.txt": `${"a".repeat(1990)}!\n` });
    const tool = new SearchTool({ timeBudgetMs: 10_000 });
    const started = performance.now();
    let timerRanAt: number | undefined;
    setTimeout(() => {
      timerRanAt = performance.now() - started;
    }, 10);
    const data = await search({ query: "^(a|aa)+$", path: "big.txt" }, tool);
    expect(performance.now() - started).toBeLessThan(5_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(timerRanAt).toBeDefined();
    expect(timerRanAt!).toBeLessThan(2_000);
    expect(data.truncated).toBe(true);
    expect(data.notes?.some((n) => n.includes("took more than 500 ms on one batch"))).toBe(true);
  }, 30_000);

  it("returns an invalid regex as a validation failure naming the problem", async () => {
    const validation = searchTool.validate({ query: "(unclosed" });
    expect(validation.isValid).toBe(false);
    expect(validation.getErrorMessage()).toMatch(/query: Invalid regular expression/);
    const result = await run(searchTool, ws.root, { query: "(unclosed" });
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(result.error).toMatch(/Invalid regular expression/);
  });

  it("needs a query or a glob", async () => {
    const result = await run(searchTool, ws.root, {});
    expect(result.errorCode).toBe(ToolErrorCode.ValidationFailed);
    expect(searchTool.validate({ path: "src" }).isValid).toBe(false);
  });

  it("reports progress on a long walk", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 450; i++) files[`many/f${i}.txt`] = `line ${i}\n`;
    await ws.write(files);
    const progress: ToolProgress[] = [];
    const result = await run(searchTool, ws.root, { query: "line 4", path: "many" }, { progress });
    expect((result.data as SearchData).filesSearched).toBe(450);
    expect(progress.length).toBeGreaterThanOrEqual(2);
  });

  it("skips files over the size limit with a note", async () => {
    await ws.write({ "large.txt": `TODO ${"x".repeat(2000)}\n` });
    const tool = new SearchTool({ maxFileBytes: 1000 });
    const data = await search({ query: "TODO" }, tool);
    expect(matchedPaths(data)).not.toContain("large.txt");
    expect(data.notes?.some((n) => n.includes("larger than 1000 bytes"))).toBe(true);
  });

  it("fails with PathNotFound for a missing path", async () => {
    const result = await run(searchTool, ws.root, { query: "x", path: "nope" });
    expect(result.errorCode).toBe(ToolErrorCode.PathNotFound);
  });
});

describe("search by name", () => {
  it("finds files by glob, honouring .gitignore", async () => {
    const data = await search({ glob: "*.ts" });
    expect(data.mode).toBe("name");
    expect(data.files).toEqual(["src/app.ts", "src/deep/nested/x.ts", "src/util.ts"]);
  });

  it("matches globs with a slash against the path from the search root", async () => {
    expect((await search({ glob: "deep/**/*.ts", path: "src" })).files).toEqual([
      "src/deep/nested/x.ts",
    ]);
  });

  it("caps the number of files", async () => {
    const data = await search({ glob: "*", maxResults: 2 });
    expect(data.files).toHaveLength(2);
    expect(data.truncated).toBe(true);
  });
});

describe("search metadata", () => {
  it("is Safe and summarises both modes", () => {
    expect(searchTool.getEffectiveRiskLevel({ query: "x" })).toBe(RiskLevel.Safe);
    expect(searchTool.getExecutionSummary({ query: "TODO", glob: "*.ts", path: "src" })).toBe(
      "Search for /TODO/ in '*.ts' files under 'src'",
    );
    expect(searchTool.getExecutionSummary({ query: "x", ignoreCase: true })).toBe(
      "Search for /x/i under '.'",
    );
    expect(searchTool.getExecutionSummary({ glob: "*.md" })).toBe(
      "Find files matching '*.md' under '.'",
    );
  });
});

describe("search beyond the call's own path (protected paths, deny rules, the store)", () => {
  /** Each secret appears in exactly one file; none may come back from a search. */
  const secrets = {
    ".env": "API_KEY=sk-live-123\n",
    ".npmrc": "//registry.npmjs.org/:_authToken=npm_SECRET\n",
    "src/.env.production": "DB_PASS=hunter2\n",
    ".aintern/x": "JOURNAL=in-flight-row\n",
    ".git/config": "[remote]\nurl=https://user:GIT_TOKEN@example.com\n",
    "private/keys.txt": "PRIVATE=do-not-read\n",
    ".vscode/settings.json": '{"VSCODE": "=setting"}\n',
  };
  const secretText = /sk-live|npm_SECRET|hunter2|in-flight-row|GIT_TOKEN|do-not-read|VSCODE/;
  const guarded = new SearchTool({ deniedPaths: ["**/.env*", "private/**"] });

  beforeEach(async () => {
    await ws.write({ ...secrets, "src/config.ts": "export const PORT = 3000;\n" });
  });

  /** What came back from the files `tool` must not read (the default one may read private/). */
  const leaked = (data: SearchData, tool: SearchTool) =>
    (data.matches ?? []).filter((m) =>
      tool === searchTool
        ? m.path !== "private/keys.txt" &&
          (secretText.test(m.text) || Object.keys(secrets).includes(m.path))
        : secretText.test(m.text) || Object.keys(secrets).includes(m.path),
    );

  it("reads none of them in a root search, saying how many were skipped, which and why", async () => {
    for (const parameters of <JsonObject[]>[
      { query: "=" },
      { query: "=", respectGitignore: false },
      { query: "API_KEY", glob: ".env" },
      { query: "DB_PASS", glob: ".env*" },
      { query: "TOKEN|SECRET|JOURNAL", ignoreCase: true },
      { query: "PRIVATE", path: "." },
    ]) {
      for (const tool of [guarded, searchTool]) {
        const data = await search(parameters, tool);
        expect(leaked(data, tool), JSON.stringify(parameters)).toEqual([]);
      }
    }
    const data = await search({ query: "=" }, guarded);
    expect(matchedPaths(data)).toEqual([
      "src/app.ts",
      "src/config.ts",
      "src/deep/nested/x.ts",
      "src/util.ts",
    ]);
    expect(data.notSearched).toEqual({ protected: 2, denied: 3, store: 1 });
    const notes = (data.notes ?? []).join("\n");
    expect(notes).toMatch(
      /1 file not searched and 1 directory not entered \(\.npmrc, \.vscode\/\): protected paths/,
    );
    expect(notes).toMatch(/file-read/);
    expect(notes).toMatch(
      /2 files not searched and 1 directory not entered .*\.env.*: a policy deny rule/,
    );
    expect(notes).toMatch(/\.aintern\/\): aintern's own store/);
  });

  it("holds the default protected paths without any deny rule", async () => {
    const data = await search({ query: "=" });
    expect(matchedPaths(data)).toEqual([
      "private/keys.txt",
      "src/app.ts",
      "src/config.ts",
      "src/deep/nested/x.ts",
      "src/util.ts",
    ]);
    expect(data.notSearched).toEqual({ protected: 4, denied: 0, store: 1 });
    const byName = await search({ query: "API_KEY", glob: ".env" });
    expect(byName.matches).toEqual([]);
    expect(byName.notes?.join(" ")).toMatch(/\.env.*protected/);
  });

  it("matches the patterns in any case, at any depth", async () => {
    await ws.write({
      "pkg/deep/.ENV.Local": "API_KEY=sk-live-456\n",
      "PRIVATE/x.txt": "PRIVATE=1",
    });
    const data = await search({ query: "API_KEY|PRIVATE" }, guarded);
    expect(matchedPaths(data)).toEqual([]);
  });

  it("still lists names in a name search, but never enters a guarded directory", async () => {
    const data = await search({ glob: "*" }, guarded);
    expect(data.files).toContain(".env");
    expect(data.files).toContain("src/.env.production");
    expect(data.files?.some((f) => f.startsWith(".aintern/"))).toBe(false);
    expect(data.files?.some((f) => f.startsWith("private/"))).toBe(false);
    expect(data.files?.some((f) => f.startsWith(".vscode/"))).toBe(false);
    expect(data.notSearched).toEqual({ protected: 1, denied: 1, store: 1 });
  });

  it("searches inside a protected path the call names (the policy asked), deny rules still hold", async () => {
    await ws.write({ ".vscode/.env": "API_KEY=sk-live-789\n", ".vscode/private/y": "PRIVATE=z" });
    const tool = new SearchTool({ deniedPaths: ["**/private/**"] });
    const data = await search({ query: "=|PRIVATE", path: ".vscode" }, tool);
    expect(matchedPaths(data)).toEqual([".vscode/settings.json"]);
    expect(data.notSearched).toEqual({ protected: 1, denied: 1, store: 0 });
    // A protected file named as the path is the call's own path: the policy judged it.
    const own = await search({ query: "API_KEY", path: ".env" });
    expect(matchedPaths(own)).toEqual([".env"]);
  });

  it("never reads aintern's store, even when named", async () => {
    for (const path of [".aintern", ".aintern/x", "src/../.aintern"]) {
      const result = await run(searchTool, ws.root, { query: "JOURNAL", path });
      expect(result.success, path).toBe(false);
      expect(result.errorCode).toBe(ToolErrorCode.Denied);
      expect(result.error).toMatch(/aintern's own store/);
      expect(JSON.stringify(result)).not.toMatch(/in-flight-row/);
    }
  });
});
