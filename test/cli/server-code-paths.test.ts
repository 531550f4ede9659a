import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { toolPackagePaths, upstreamCodePaths } from "../../src/cli/server-code-paths.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "aintern-server-code-")));
  await mkdir(join(dir, "srv", "lib"), { recursive: true });
  await writeFile(join(dir, "srv", "server.js"), "");
  await writeFile(join(dir, "root-server.js"), "");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("upstreamCodePaths", () => {
  it("protects the folder of an upstream's script, or the script alone at the root", () => {
    expect(
      upstreamCodePaths(
        [
          { name: "a", command: "node", args: ["./srv/server.js", "--port", "3"], cwd: dir },
          { name: "b", command: "node", args: ["root-server.js"], cwd: dir },
          { name: "c", command: join(dir, "srv", "lib") },
        ],
        dir,
      ).sort(),
    ).toEqual(["root-server.js", "srv/**", "srv/lib/**"]);
  });

  it("protects an upstream's working folder in the workspace, and nothing outside it", () => {
    expect(
      upstreamCodePaths(
        [{ name: "a", command: "node", args: ["x.js"], cwd: join(dir, "srv") }],
        dir,
      ),
    ).toEqual(["srv/**"]);
    expect(
      upstreamCodePaths([{ name: "a", command: "npx", args: ["-y", "some-server"] }], dir),
    ).toEqual([]);
    expect(upstreamCodePaths([{ name: "h", url: "http://127.0.0.1:1/mcp" }], dir)).toEqual([]);
  });
});

describe("toolPackagePaths", () => {
  it("names node_modules/<package> where Node would look from the server's folder to the root", () => {
    const here = process.cwd();
    process.chdir(join(dir, "srv"));
    try {
      expect(toolPackagePaths(["builtin", "./local.js", "some-pkg"], dir)).toEqual([
        "srv/node_modules/some-pkg/**",
        "node_modules/some-pkg/**",
      ]);
    } finally {
      process.chdir(here);
    }
  });
});

describe("aintern mcp: an upstream's code in the workspace", () => {
  it("asks before a change to it, even where a rule allows file-write", async () => {
    // Named with --config: a config found in the workspace that starts upstreams needs trust.
    await writeFile(
      join(dir, "gateway.json"),
      JSON.stringify({
        policy: { allow: [{ toolId: "file-write" }] },
        upstreams: { files: { command: "node", args: ["./srv/server.js"], cwd: dir } },
      }),
    );
    const runtime = await openMcpRuntime({
      workspace: dir,
      config: join(dir, "gateway.json"),
      approvals: "deny",
      startUpstreams: false,
    });
    try {
      const write = (path: string) =>
        runtime.processor.needsApproval("file-write", { path, content: "x" });
      expect(await write("srv/lib/util.js")).toMatchObject({
        reason: expect.stringMatching(/protected/i),
      });
      expect(await write("other.js")).toBe(false);
    } finally {
      await runtime.close();
    }
  });
});
