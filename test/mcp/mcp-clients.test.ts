// `aintern mcp --http` against clients no one here wrote: the MCP Inspector CLI and the MCP
// conformance suite. Both need Node 22: the binary of the npm package node@22 (fetched through
// npm once, then from npm's cache), or AINTERN_NODE22 when set.
import { execFile } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fixtureTools,
  type HttpServerProcess,
  makeWorkspace,
  repoRoot,
  startHttpServer,
} from "./mcp-support.js";

const run = promisify(execFile);
const require = createRequire(import.meta.url);
const inspectorCli = join(
  require.resolve("@modelcontextprotocol/inspector/package.json"),
  "../clients/launcher/build/index.js",
);
const conformanceCli = join(
  require.resolve("@modelcontextprotocol/conformance/package.json"),
  "../dist/index.js",
);
const notApplicable = fileURLToPath(
  new URL("./fixtures/conformance-not-applicable.yml", import.meta.url),
);

/** The path of a Node 22 binary. */
async function node22(): Promise<string> {
  const fromEnv = process.env.AINTERN_NODE22;
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  const { stdout } = await run(
    "npm",
    [
      "exec",
      "--yes",
      "--package=node@22.23.3",
      "--",
      "node",
      "-e",
      "process.stdout.write(process.execPath)",
    ],
    { cwd: repoRoot, timeout: 180_000 },
  );
  return stdout.trim();
}

describe("aintern mcp with the MCP Inspector and the conformance suite", () => {
  let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
  let server: HttpServerProcess;
  let node: string;

  beforeAll(async () => {
    workspace = await makeWorkspace();
    [server, node] = await Promise.all([
      startHttpServer([
        "--workspace",
        workspace.path,
        "--tools",
        "builtin",
        "--tools",
        fixtureTools,
        "--token",
        "none",
      ]),
      node22(),
    ]);
  }, 240_000);

  afterAll(async () => {
    await server?.stop();
    await workspace?.remove();
  });

  it("the Inspector CLI lists the tools and calls one", async () => {
    const env = {
      ...process.env,
      MCP_CATALOG_PATH: join(workspace.path, "inspector-catalog.json"),
    };
    const listed = await run(
      node,
      [inspectorCli, "--cli", server.url, "--transport", "http", "--method", "tools/list"],
      {
        env,
        timeout: 120_000,
      },
    );
    const names = (JSON.parse(listed.stdout) as { tools: { name: string }[] }).tools.map(
      (t) => t.name,
    );
    expect(names).toEqual(expect.arrayContaining(["file-read", "echo"]));
    const called = await run(
      node,
      [
        inspectorCli,
        "--cli",
        server.url,
        "--transport",
        "http",
        "--method",
        "tools/call",
        "--tool-name",
        "echo",
        "--tool-arg",
        "text=from the inspector",
      ],
      { env, timeout: 120_000 },
    );
    expect(JSON.parse(called.stdout)).toMatchObject({
      structuredContent: { text: "from the inspector" },
    });
  }, 240_000);

  it("passes every conformance scenario that applies (the rest are listed as not applicable)", async () => {
    const output = join(workspace.path, "conformance");
    const result = await run(
      node,
      [
        conformanceCli,
        "server",
        "--url",
        server.url,
        "--expected-failures",
        notApplicable,
        "-o",
        output,
      ],
      { timeout: 240_000 },
    ).catch((error: { stdout?: string; code?: number }) => ({
      stdout: error.stdout ?? "",
      failed: error.code,
    }));
    expect("failed" in result ? result.stdout : "").toBe("");
    const passed: string[] = [];
    for (const dir of await readdir(output)) {
      const checks = JSON.parse(await readFile(join(output, dir, "checks.json"), "utf8")) as {
        status: string;
      }[];
      if (checks.length > 0 && checks.every((c) => c.status === "SUCCESS" || c.status === "INFO")) {
        passed.push(dir.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, ""));
      }
    }
    expect(passed).toEqual(
      expect.arrayContaining([
        "server-initialize",
        "ping",
        "tools-list",
        "server-sse-multiple-streams",
        "dns-rebinding-protection",
      ]),
    );
  }, 300_000);
});
