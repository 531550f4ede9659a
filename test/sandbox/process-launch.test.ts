import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  detectMemoryLimitMethod,
  findExecutable,
  workerLaunch,
  workerScriptPath,
} from "../../src/sandbox/process-launch.js";

const base = { memoryMb: 64, osMemoryMb: 320, execArgv: ["--trace-warnings"], workerArgs: ["{}"] };
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

  it("caps the data segment through prlimit", () => {
    const line = unwrapped(workerLaunch({ ...base, memoryLimit: "prlimit" }));
    if (findExecutable("prlimit") === undefined) return;
    expect(line[0]).toMatch(/prlimit$/);
    expect(line[1]).toBe(`--data=${320 * 1024 * 1024}`);
    expect(line[2]).toBe("--");
    expect(line[3]).toBe(process.execPath);
  });

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
