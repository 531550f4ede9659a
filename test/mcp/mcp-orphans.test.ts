// What a call started ends when `aintern mcp` is killed outright (SIGKILL, the OOM killer), which
// runs no handler of its own: the orphan reaper, a process of its own, kills a terminal command
// still running (with what it left in the background or moved to a session of its own) and the
// worker of a hung process-isolated tool, which cannot hear its channel close.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import type { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { NotedProcesses } from "../sandbox/process-helpers.js";
import { connectStdio, eventually, fixtureTools, makeWorkspace, newClient } from "./mcp-support.js";

const onLinux = process.platform === "linux";
/** Every process a test saw: killed after the tests if left. */
const seen = new NotedProcesses();
const { running } = seen;
let cleanup: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(cleanup.map((c) => c()));
  cleanup = [];
});

afterAll(() => seen.killLeft());

async function serve(args: string[] = []): Promise<{
  client: Client;
  transport: StdioClientTransport;
  workspace: string;
}> {
  const workspace = await makeWorkspace();
  // Approves every call once: the commands here are the test's own.
  const client = newClient({
    current: () => ({ action: "accept", content: { decision: "approve_once" } }),
  });
  const transport = await connectStdio(client, [
    "--workspace",
    workspace.path,
    "--db",
    "sqlite::memory:",
    ...args,
  ]);
  cleanup.push(async () => {
    await client.close().catch(() => undefined);
    await workspace.remove();
  });
  return { client, transport, workspace: workspace.path };
}

async function pidIn(file: string): Promise<number> {
  return eventually(async () => {
    const pid = Number((await readFile(file, "utf8")).trim());
    expect(pid).toBeGreaterThan(1);
    return seen.note(pid);
  }, 20_000);
}

describe.runIf(onLinux)("when `aintern mcp` is killed outright", () => {
  it("a terminal command still running ends, with what it left in the background and what left its session", async () => {
    const { client, transport, workspace } = await serve();
    const call = client
      .callTool({
        name: "terminal-execute",
        arguments: {
          command:
            "echo $$ > shell.pid; sleep 300 & echo $! > background.pid; setsid sleep 301 & echo $! > session.pid; wait",
          timeoutMs: 120_000,
        },
      })
      .catch(() => undefined);
    const pids = await Promise.all(
      ["shell.pid", "background.pid", "session.pid"].map((f) => pidIn(join(workspace, f))),
    );
    expect(pids.every(running)).toBe(true);
    // Killed as soon as the command has started (each process is listed with the reaper before
    // it is spawned; test/builtin/run-shell-command-exit.test.ts kills at the spawn itself).
    process.kill(transport.pid!, "SIGKILL");
    await call;
    await eventually(() => expect(pids.filter(running)).toEqual([]), 30_000);
  }, 90_000);

  it("a hung process-isolated tool's worker ends, long before its timeout", async () => {
    const { client, transport } = await serve(["--tools", fixtureTools]);
    let worker: number | undefined;
    const call = client
      .callTool(
        { name: "hang", arguments: {} },
        {
          onprogress: (p) => {
            worker = (JSON.parse(p.message ?? "{}") as { pid?: number }).pid;
          },
        },
      )
      .catch(() => undefined);
    const pid = await eventually(() => {
      expect(worker).toBeGreaterThan(1);
      return seen.note(worker!);
    }, 20_000);
    const killedAt = Date.now();
    process.kill(transport.pid!, "SIGKILL");
    await call;
    // Nothing else would ever end it: the server that would time it out is gone.
    await eventually(() => expect(running(pid)).toBe(false), 10_000);
    expect(Date.now() - killedAt).toBeLessThan(10_000);
  }, 60_000);
});
