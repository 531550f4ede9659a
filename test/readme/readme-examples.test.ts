import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readmeModule, typescriptBlocks } from "./readme-examples.js";

const repository = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

function sourcePaths(): Record<string, string[]> {
  const { exports } = JSON.parse(readFileSync(join(repository, "package.json"), "utf8")) as {
    exports: Record<string, string | { import: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [key, target] of Object.entries(exports)) {
    if (typeof target === "string") continue;
    const name = key === "." ? "aintern" : `aintern/${key.slice(2)}`;
    paths[name] = [target.import.replace(/^\.\/dist\//, "../../src/").replace(/\.js$/, ".ts")];
  }
  return paths;
}

describe("README examples", () => {
  it("every TypeScript block of README.md typechecks against the source", () => {
    // Inside the repository (ignored by git), so the project's compiler settings and types apply.
    const folder = join(repository, ".tmp", `readme-check-${process.pid}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "readme-examples.ts"), readmeModule(join(repository, "README.md")));
    writeFileSync(
      join(folder, "tsconfig.json"),
      JSON.stringify({
        extends: "../../tsconfig.json",
        compilerOptions: {
          noEmit: true,
          // Every subpath the package exports, mapped to the source it is built from.
          paths: sourcePaths(),
        },
        include: ["readme-examples.ts"],
      }),
    );
    try {
      // The project's compiler (TypeScript 7 has no JavaScript API: run it).
      const tsc = join(repository, "node_modules", ".bin", "tsc");
      const run = spawnSync(tsc, ["-p", join(folder, "tsconfig.json")], {
        cwd: repository,
        encoding: "utf8",
        timeout: 170_000,
      });
      const output = `${run.stdout ?? ""}${run.stderr ?? ""}`.trim();
      expect(output).toBe("");
      expect(run.status).toBe(0);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }, 180_000);

  it("the tour calls the search tool with its real parameter, query", () => {
    const code = typescriptBlocks(readFileSync(join(repository, "README.md"), "utf8")).join("\n");
    expect(code).not.toMatch(/toolName: "search", parameters: \{ pattern/);
    expect(code).toMatch(/toolName: "search", parameters: \{ query/);
  });
});
