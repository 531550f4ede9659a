import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = resolve(".");

/** Imports `source` with the packages in `forbidden` made unloadable; resolves its export count. */
async function importWithout(source: string, forbidden: readonly string[]): Promise<number> {
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
  return Number(stdout.trim());
}

/** Each test starts a Node.js process that compiles the entry with tsx: slow on a loaded machine. */
const timeout = 120_000;

const frameworks = ["ai", "ai7", "@openai/agents", "@langchain/core", "langchain"] as const;

describe("adapter entries", () => {
  it(
    "the root loads none of the agent frameworks",
    async () => {
      expect(await importWithout(resolve(root, "src/index.ts"), frameworks)).toBeGreaterThan(0);
    },
    timeout,
  );

  it.each([
    ["ai-sdk", "ai"],
    ["openai-agents", "@openai/agents"],
    ["langchain", "@langchain/core"],
  ])(
    "aintern/%s loads its own framework only",
    async (entry, own) => {
      const others = frameworks.filter((name) => name !== own && !(own === "ai" && name === "ai7"));
      expect(
        await importWithout(resolve(root, `src/adapters/${entry}/index.ts`), others),
      ).toBeGreaterThan(0);
    },
    timeout,
  );
});
