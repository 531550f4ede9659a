import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";

/**
 * The policy judges a call's own path; `search` and `list-directory` reach further. Through the
 * runtime `aintern mcp` serves (its config, its policy, its store in `.aintern/`), nothing they
 * reach on their own may show what a protected path or a deny rule keeps from the model.
 */
const secrets: Record<string, string> = {
  ".env": "API_KEY=sk-live-123\n",
  "src/.env.production": "DB_PASS=hunter2\n",
  ".npmrc": "//registry.npmjs.org/:_authToken=npm_SECRET\n",
  ".aintern/x": "JOURNAL=in-flight-row\n",
  ".git/config": "[remote]\nurl=https://user:GIT_TOKEN@example.com\n",
};
const secretText = /sk-live-123|hunter2|npm_SECRET|in-flight-row|GIT_TOKEN/;
/** The README's own rule. */
const readmeDenyRule = { pathPattern: "**/.env*", reason: "Secrets stay out of the model's reach" };

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "aintern-guarded-")));
  for (const [path, content] of Object.entries({ ...secrets, "src/app.ts": "const a = 1;\n" })) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function withRuntime(
  policy: object,
  body: (call: (toolId: string, parameters: object) => Promise<string>) => Promise<void>,
): Promise<void> {
  await writeFile(join(dir, "aintern.config.json"), JSON.stringify({ policy }));
  // The config found in the workspace (it only restricts: no trust needed), the default store.
  const runtime = await openMcpRuntime({ workspace: dir, approvals: "deny" });
  let n = 0;
  try {
    await body(async (toolId, parameters) => {
      const answer = await runtime.processor.processCall({
        toolId,
        parameters,
        callId: `call-${++n}`,
      });
      return answer.content;
    });
  } finally {
    await runtime.close();
  }
}

describe("aintern mcp: search and list-directory respect the policy beyond the call's path", () => {
  it("with the README's deny rule, search reads no secret, the store included, and says so", async () => {
    await withRuntime({ deny: [readmeDenyRule] }, async (call) => {
      expect(await call("file-read", { path: ".env" })).toMatch(/Secrets stay out/);
      expect(await call("search", { path: ".env", query: "=" })).toMatch(/Secrets stay out/);
      for (const parameters of [
        { query: "=" },
        { query: "=", respectGitignore: false },
        { query: "API_KEY", glob: ".env" },
        { query: "DB_PASS|TOKEN|SECRET|JOURNAL", ignoreCase: true },
        { query: ".", path: "src" },
      ]) {
        const content = await call("search", parameters);
        expect(content, JSON.stringify(parameters)).not.toMatch(secretText);
        expect(content).toMatch(/Result: Success/);
      }
      const root = await call("search", { query: "=" });
      expect(root).toContain("src/app.ts");
      expect(root).toMatch(/\.env, src\/\.env\.production\): a policy deny rule/);
      expect(root).toMatch(/\(\.npmrc, aintern\.config\.json\): protected paths/);
      expect(root).toMatch(/\.aintern\/\): aintern's own store/);

      const listing = await call("list-directory", { depth: 10 });
      expect(listing).toContain(".aintern");
      expect(listing).not.toMatch(/\.aintern\/(x|audit)/);
      expect(listing).not.toMatch(/\.git\//);
    });
  });

  it("without any rule, the protected paths are not read either", async () => {
    await withRuntime({}, async (call) => {
      const content = await call("search", { query: "=" });
      expect(content).not.toMatch(secretText);
      expect(content).toMatch(
        /\(\.env, \.npmrc, aintern\.config\.json, src\/\.env\.production\): protected paths/,
      );
      // Asked directly, the policy judges the path: protected, so it asks (here: no one to ask).
      expect(await call("file-read", { path: ".npmrc" })).not.toMatch(secretText);
    });
  });
});

describe("loadTools with the policy's guarded paths", () => {
  it("makes the built-in tools once: 'builtin' with 'readonly' registers each tool once", async () => {
    const { loadTools } = await import("../../src/cli/mcp-runtime.js");
    const tools = await loadTools(["builtin", "readonly"], { deniedPaths: ["**/.env*"] });
    const ids = tools.map((t) => t.id);
    expect(ids).toEqual([...new Set(ids)]);
    expect(ids).toContain("search");
    expect((await loadTools(["readonly"], {})).map((t) => t.id)).toEqual([
      "file-read",
      "list-directory",
      "search",
    ]);
  });
});
