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
