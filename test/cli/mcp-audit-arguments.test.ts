import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";

let dir: string;
beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "aintern-mcp-audit-arguments-")));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("aintern mcp's audit rows", () => {
  // Red team (session 19): a 'git status' run with a cwd inside a folder the model had written
  // left a row saying only 'git status': the cwd, the evidence of what it did, was not kept.
  it("hold each call's arguments, the cwd of a command among them", async () => {
    const runtime = await openMcpRuntime({ workspace: dir, approvals: "deny" });
    try {
      const answer = await runtime.processor.processCall({
        toolId: "terminal-execute",
        parameters: { command: "pwd", cwd: "." },
        callId: "c-1",
      });
      expect(answer.isError).toBe(false);
      const { entries } = await runtime.store.audit.query({});
      expect(entries).toHaveLength(1);
      expect(entries[0]?.parameters).toEqual({ command: "pwd", cwd: "." });
    } finally {
      await runtime.close();
    }
  });
});
