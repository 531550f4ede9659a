import { execFile } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(".");
const packageJson = JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")) as {
  exports: Record<string, string | { types: string; import: string }>;
  sideEffects: string[];
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional: boolean }>;
  dependencies: Record<string, string>;
};

/** The TypeScript source an export's `import` file is built from. */
function sourceOf(distFile: string): string {
  return resolve(root, distFile.replace(/^\.\/dist\//, "src/").replace(/\.js$/, ".ts"));
}

async function importWithout(source: string, forbidden: readonly string[]): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      "--import",
      resolve(root, "test/package/hide-modules.mjs"),
      "--import",
      "tsx",
      "-e",
      `const m = await import(${JSON.stringify(source)}); console.log(Object.keys(m).length);`,
    ],
    { cwd: root, env: { ...process.env, AINTERN_FORBIDDEN_MODULES: forbidden.join(",") } },
  );
  return stdout.trim();
}

describe("package exports", () => {
  const subpaths = Object.entries(packageJson.exports).filter(([key]) => key !== "./package.json");

  it("names one source entry per subpath, never a wildcard", () => {
    expect(subpaths.map(([key]) => key)).toEqual(
      expect.arrayContaining([
        ".",
        "./tools",
        "./store/sqlite",
        "./store/postgres",
        "./sandbox",
        "./cli",
        "./testing",
      ]),
    );
    for (const [key, target] of subpaths) {
      expect(key).not.toContain("*");
      expect(typeof target).toBe("object");
      const entry = target as { types: string; import: string };
      expect(existsSync(sourceOf(entry.import)), `${key} -> ${entry.import}`).toBe(true);
      expect(entry.types).toBe(entry.import.replace(/\.js$/, ".d.ts"));
    }
  });

  it("keeps pg an optional peer dependency, and the embedded store's packages dependencies", () => {
    expect(packageJson.dependencies.pg).toBeUndefined();
    expect(packageJson.peerDependencies.pg).toBeDefined();
    expect(packageJson.peerDependenciesMeta.pg?.optional).toBe(true);
    expect(packageJson.dependencies["better-sqlite3"]).toBeDefined();
    expect(packageJson.dependencies.kysely).toBeDefined();
  });

  it("lists every module with a side effect on import, and only those", () => {
    for (const file of packageJson.sideEffects) expect(existsSync(sourceOf(file)), file).toBe(true);
  });

  it("imports the root without loading a database driver, kysely or process isolation", async () => {
    const count = await importWithout(resolve(root, "src/index.ts"), [
      "better-sqlite3",
      "pg",
      "kysely",
      "src/sandbox/process-sandbox.ts",
      "src/store/",
      "src/builtin/",
      "@opentelemetry/api",
    ]);
    expect(Number(count)).toBeGreaterThan(100);
  }, 60_000);

  it("imports the SQLite store and the built-in tools without loading pg", async () => {
    expect(
      Number(await importWithout(resolve(root, "src/store/sqlite.ts"), ["pg"])),
    ).toBeGreaterThan(0);
    expect(
      Number(await importWithout(resolve(root, "src/builtin/index.ts"), ["pg", "better-sqlite3"])),
    ).toBeGreaterThan(0);
  }, 60_000);

  it("keeps internals out of the root", async () => {
    const rootModule = await import("../../src/index.js");
    for (const internal of [
      "editDistance",
      "circularMarker",
      "NIL_UUID",
      "readParameter",
      "TOOL_EXECUTIONS_TABLE",
      "timeOrderedUuid",
      "openStore",
      "ProcessSandbox",
      "builtinTools",
    ]) {
      expect(Object.keys(rootModule), internal).not.toContain(internal);
    }
  });
});
