import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  dataLimitBytes,
  detectMemoryLimitMethod,
  findExecutable,
  setDataLimit,
  workerLaunch,
  workerScriptPath,
} from "../../src/sandbox/process-launch.js";

const base = {
  memoryMb: 64,
  launchDataLimitBytes: 320 * 1024 * 1024,
  execArgv: ["--trace-warnings"],
  workerArgs: ["{}"],
};
const setpriv = findExecutable("setpriv");

/** The command line after the optional `setpriv --pdeathsig KILL --` wrapper. */
function unwrapped(launch: { command: string; args: readonly string[] }): string[] {
  const line = [launch.command, ...launch.args];
  return setpriv !== undefined && line[0] === setpriv ? line.slice(4) : line;
}

describe("workerLaunch", () => {
  it("runs the worker script next to the module, through tsx when running from sources", () => {
    const script = workerScriptPath();
    expect(script).toMatch(/process-worker-main\.ts$/);
    expect(existsSync(script)).toBe(true);
    const line = unwrapped(workerLaunch({ ...base, memoryLimit: "none" }));
    expect(line[0]).toBe(process.execPath);
    expect(line).toContain("--max-old-space-size=64");
    expect(line[line.indexOf("--import") + 1]).toMatch(/^file:.*tsx/);
    expect(line.slice(-3)).toEqual(["--trace-warnings", script, "{}"]);
  });

  it("starts Node itself under prlimit, whose limit is set once the worker is ready", () => {
    const line = unwrapped(workerLaunch({ ...base, memoryLimit: "prlimit" }));
    expect(line[0]).toBe(process.execPath);
  });

  it("starts without ulimit -d when no idle data size is known yet (to measure one)", () => {
    const line = unwrapped(
      workerLaunch({ ...base, memoryLimit: "ulimit", launchDataLimitBytes: undefined }),
    );
    expect(line[0]).toBe(process.execPath);
  });

  it("adds the idle data size to the heap cap and the headroom", () => {
    expect(dataLimitBytes(600 * 1024 * 1024, 64, 256)).toBe(920 * 1024 * 1024);
  });

  it.runIf(findExecutable("prlimit") !== undefined)(
    "sets a running process's data limit, soft and hard, through prlimit --pid",
    async () => {
      const child = spawn("sleep", ["30"], { stdio: "ignore" });
      try {
        const pid = child.pid as number;
        await setDataLimit(pid, 123 * 1024 * 1024);
        const limits = readFileSync(`/proc/${pid}/limits`, "utf8");
        expect(limits).toMatch(
          new RegExp(`Max data size\\s+${123 * 1024 * 1024}\\s+${123 * 1024 * 1024}\\s+bytes`),
        );
        await expect(setDataLimit(2 ** 22 + 12345, 1024)).rejects.toThrow(/prlimit/);
      } finally {
        child.kill("SIGKILL");
      }
    },
  );

  it("caps the data segment through ulimit -d in /bin/sh, passing arguments unparsed", () => {
    const line = unwrapped(workerLaunch({ ...base, memoryLimit: "ulimit" }));
    expect(line[0]).toMatch(/sh$/);
    expect(line[1]).toBe("-c");
    expect(line[2]).toBe(`ulimit -d ${320 * 1024} && exec "$0" "$@"`);
    expect(line[3]).toBe(process.execPath);
  });

  it("adds a parent-death signal where setpriv exists", () => {
    const launch = workerLaunch({ ...base, memoryLimit: "none" });
    if (setpriv === undefined) return;
    expect([launch.command, ...launch.args.slice(0, 3)]).toEqual([
      setpriv,
      "--pdeathsig",
      "KILL",
      "--",
    ]);
  });

  it("detects the OS memory limit of this machine", () => {
    const method = detectMemoryLimitMethod();
    if (process.platform !== "linux") expect(method).toBe("none");
    else expect(method).toBe(findExecutable("prlimit") !== undefined ? "prlimit" : "ulimit");
  });

  it("finds executables on PATH and nothing for a made-up name", () => {
    expect(findExecutable("sh")).toMatch(/\/sh$/);
    expect(findExecutable("no-such-binary-aintern")).toBeUndefined();
  });
});
