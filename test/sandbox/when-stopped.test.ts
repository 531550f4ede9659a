import { spawn } from "node:child_process";
import { afterEach, describe, expect, it } from "vitest";
import { whenStopped } from "../../src/sandbox/when-stopped.js";

const children: ReturnType<typeof spawn>[] = [];
function start(script: string): number {
  const child = spawn("/bin/sh", ["-c", script], { stdio: "ignore" });
  children.push(child);
  return child.pid!;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

describe.runIf(process.platform === "linux")("whenStopped", () => {
  it("says stopped once the process has sent itself SIGSTOP", async () => {
    const pid = start("sleep 0.05; kill -STOP $$; exit 0");
    expect(await whenStopped(pid, 5_000, () => false)).toBe("stopped");
  });

  it("says gone for a process that exited instead", async () => {
    const pid = start("exit 0");
    expect(await whenStopped(pid, 5_000, () => false)).toBe("gone");
  });

  it("says late when the process still runs after the limit", async () => {
    const pid = start("sleep 5");
    const since = performance.now();
    expect(await whenStopped(pid, 30, () => false)).toBe("late");
    expect(performance.now() - since).toBeGreaterThanOrEqual(30);
  });

  it("stops waiting as soon as it is told to give up", async () => {
    const pid = start("sleep 5");
    let polls = 0;
    expect(await whenStopped(pid, 5_000, () => ++polls > 3)).toBe("given-up");
    expect(polls).toBe(4);
  });
});
