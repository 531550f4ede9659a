import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "aintern-builtin-names-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("aintern mcp: a config naming a built-in tool's parameters", () => {
  it("adds to the tool's own names: the configuration stays guarded", async () => {
    await writeFile(
      join(dir, "gateway.json"),
      JSON.stringify({
        policy: { pathParameters: { "file-write": ["pathx"] }, allow: [{ toolId: "file-write" }] },
      }),
    );
    const runtime = await openMcpRuntime({
      workspace: dir,
      config: join(dir, "gateway.json"),
      approvals: "deny",
    });
    try {
      const decision = runtime.policy.decide({
        toolId: "file-write",
        category: "FileSystem" as never,
        riskLevel: 2,
        parameters: { path: "gateway.json", content: "{}" },
        workspacePath: dir,
      });
      expect(decision.kind).toBe("deny");
      // The added name counts too.
      expect(
        runtime.policy.decide({
          toolId: "file-write",
          category: "FileSystem" as never,
          riskLevel: 2,
          parameters: { pathx: "gateway.json", content: "{}" },
          workspacePath: dir,
        }).kind,
      ).toBe("deny");
    } finally {
      await runtime.close();
    }
  });
});
