// aintern audit --follow, as a real process on a store another process writes: every row is
// printed once, a long execution's row included, whose start is older than rows shown before it.
import { spawn } from "node:child_process";
import { rename, rm } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { defineTool } from "../../src/tools/index.js";
import { cliArgs, eventually, makeWorkspace } from "../mcp/mcp-support.js";

describe("aintern audit --follow", () => {
  it("prints each row once as it is written, a long execution's too, and stops on SIGTERM", async () => {
    const workspace = await makeWorkspace();
    const db = `sqlite:${workspace.path}/audit.db`;
    const runtime = await openMcpRuntime({ workspace: workspace.path, db, tools: ["builtin"] });
    let release: () => void = () => undefined;
    const slow = defineTool({
      id: "slow",
      name: "Slow",
      description: "Waits until released",
      inputSchema: { type: "object", properties: {}, required: [] },
      execute: () => new Promise<{ done: true }>((r) => (release = () => r({ done: true }))),
    });
    runtime.registry.registerTool(slow);
    const follower = spawn(process.execPath, cliArgs("audit", "--follow", "--json", "--db", db), {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    follower.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    const rows = () =>
      out
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as { toolName: string; executionId: string });
    try {
      // Starts first, ends last: its row is written after the quick one's.
      const long = runtime.processor.processCall({ toolId: "slow", parameters: {} });
      await new Promise((r) => setTimeout(r, 1_000));
      await runtime.processor.processCall({ toolId: "list-directory", parameters: { path: "." } });
      await eventually(() => expect(rows().map((r) => r.toolName)).toEqual(["list-directory"]));
      release();
      await long;
      await eventually(() =>
        expect(rows().map((r) => r.toolName)).toEqual(["list-directory", "slow"]),
      );
      // Later polls print nothing twice.
      await new Promise((r) => setTimeout(r, 1_000));
      expect(new Set(rows().map((r) => r.executionId)).size).toBe(rows().length);
      expect(rows()).toHaveLength(2);

      const exited = new Promise<number | null>((r) => follower.once("exit", (code) => r(code)));
      follower.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      follower.kill("SIGKILL");
      await runtime.close();
      await workspace.remove();
    }
  }, 60_000);

  it("follows a database file replaced by another, saying so, and stops with an error when it is deleted", async () => {
    const workspace = await makeWorkspace();
    const file = `${workspace.path}/audit.db`;
    const db = `sqlite:${file}`;
    const write = async (url: string, path: string): Promise<void> => {
      const runtime = await openMcpRuntime({
        workspace: workspace.path,
        db: url,
        tools: ["builtin"],
      });
      try {
        await runtime.processor.processCall({ toolId: "list-directory", parameters: { path } });
      } finally {
        await runtime.close();
      }
    };
    await write(db, ".");
    const follower = spawn(process.execPath, cliArgs("audit", "--follow", "--json", "--db", db), {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    follower.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString();
    });
    follower.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    const exited = new Promise<number | null>((r) => follower.once("exit", (code) => r(code)));
    try {
      // 30 s: the follower starts under tsx, which a loaded CI run on Node 24 once took past 15 s.
      await eventually(() => expect(out).toContain('"toolName":"list-directory"'), 30_000);
      // Another database takes the file's place (a restore, a reset): the follower must read it.
      const other = `${workspace.path}/other.db`;
      await write(`sqlite:${other}`, "..");
      await rename(other, file);
      await eventually(() =>
        expect(err).toMatch(/was replaced by another file; following the new one/),
      );
      await write(db, "sub-after-replace");
      await eventually(() => expect(out).toContain("sub-after-replace"));

      await rm(file);
      await rm(`${file}-wal`, { force: true });
      await rm(`${file}-shm`, { force: true });
      expect(await exited).toBe(1);
      expect(err).toMatch(/was deleted while following; stopped/);
    } finally {
      follower.kill("SIGKILL");
      await workspace.remove();
    }
  }, 60_000);
});
