// A process that exits (`process.exit`, as a sandbox worker does when its host closes the
// channel) with a terminal command still running takes the command's processes with it: the
// background one and the one that left for a session of its own.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { eventually } from "../mcp/mcp-support.js";

const fixture = fileURLToPath(new URL("./fixtures/exit-with-command.ts", import.meta.url));
const started = new Map<number, number>();
let dir: string | undefined;

function startTimeOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] === "Z" || fields[0] === "X" ? undefined : Number(fields[19]);
  } catch {
    return undefined;
  }
}
const running = (pid: number): boolean => startTimeOf(pid) === started.get(pid);

afterAll(async () => {
  for (const pid of started.keys()) if (running(pid)) process.kill(pid, "SIGKILL");
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
      for (const pid of found) started.set(pid, startTimeOf(pid) ?? -1);
      return found;
    }, 20_000);
    expect(pids.every(running)).toBe(true);
    child.stdin?.write("exit\n");
    expect(await exited).toBe(0);
    // Killed synchronously by the exit handler: gone as the process is.
    await eventually(() => expect(pids.filter(running)).toEqual([]), 2_000);
  }, 30_000);
});
