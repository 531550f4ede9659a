// A process that exits (`process.exit`, as a sandbox worker does when its host closes the
// channel) with a terminal command still running takes the command's processes with it: the
// background one and the one that left for a session of its own. So does one killed outright
// (through its orphan reaper), even at the moment it started the command.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../mcp/mcp-support.js";
import { NotedProcesses, processesWith } from "../sandbox/process-helpers.js";

const fixture = fileURLToPath(new URL("./fixtures/exit-with-command.ts", import.meta.url));
const killedAtStart = fileURLToPath(
  new URL("./fixtures/killed-as-command-starts.ts", import.meta.url),
);
const started = new NotedProcesses();
const { running } = started;
let dir: string | undefined;

afterAll(async () => {
  started.killLeft();
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("a process exiting with a command running", () => {
  it("kills the command's processes, also what it put in the background or in its own session", async () => {
    dir = await mkdtemp(join(tmpdir(), "aintern-exit-"));
    const child = spawn(process.execPath, ["--import", "tsx", fixture, dir], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    const pids = await eventually(async () => {
      const found = await Promise.all(
        ["background.pid", "session.pid"].map(async (f) =>
          Number((await readFile(join(dir!, f), "utf8")).trim()),
        ),
      );
      expect(found.every((pid) => pid > 1)).toBe(true);
      for (const pid of found) started.note(pid);
      return found;
    }, 20_000);
    expect(pids.every(running)).toBe(true);
    child.stdin?.write("exit\n");
    expect(await exited).toBe(0);
    // Killed synchronously by the exit handler: gone as the process is.
    await eventually(() => expect(pids.filter(running)).toEqual([]), 2_000);
  }, 30_000);

  it("kills them when the process is killed outright right as it starts the command", async () => {
    const tag = `AINTERN_TEST_TAG=${randomUUID()}`;
    const child = spawn(process.execPath, ["--import", "tsx", killedAtStart], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, AINTERN_TEST_TAG: tag.slice("AINTERN_TEST_TAG=".length) },
    });
    const signal = await new Promise((resolve) => child.once("exit", (_code, s) => resolve(s)));
    expect(signal).toBe("SIGKILL");
    // The shell and what it started carry the tag; so does the reaper, which exits once it has
    // killed them. Under tsx the reaper takes a few seconds to start on a busy machine.
    await eventually(() => {
      const left = processesWith(tag);
      for (const pid of left) started.note(pid);
      expect(left).toEqual([]);
    }, 30_000);
  }, 60_000);
});
