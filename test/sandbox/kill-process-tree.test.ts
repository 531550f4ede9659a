// How a call's processes are recognised (src/sandbox/kill-process-tree.ts): never by something
// an unrelated process can share with them. Only the search runs here, never a kill: a search
// that went wrong must not take the machine down with it.
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { RiskLevel } from "../../src/core/index.js";
import {
  findCallProcesses,
  markerVariable,
  outputPipesOf,
  statOf,
} from "../../src/sandbox/kill-process-tree.js";
import { assessCommandRisk } from "../../src/shell/index.js";
import { eventually } from "../mcp/mcp-support.js";

const started: ChildProcess[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
});

function sleeper(stdio: "ignore" | "pipe"): ChildProcess {
  const child = spawn("sleep", ["60"], { stdio });
  started.push(child);
  return child;
}

const unmarked = (): string => `AINTERN_CALL=${randomUUID()}`;

describe("the marker of a call's processes", () => {
  it("is the variable the command policy holds a command to High for changing or removing", () => {
    expect(assessCommandRisk(`env -u ${markerVariable} sleep 1`).riskLevel).toBe(RiskLevel.High);
    expect(assessCommandRisk(`${markerVariable}=x sleep 1`).riskLevel).toBe(RiskLevel.High);
  });
});

describe.runIf(process.platform === "linux")("finding a call's processes", () => {
  it("reads a child's output as the socket Node spawns it with", async () => {
    const piped = sleeper("pipe");
    await eventually(() => expect(outputPipesOf(piped.pid!)).toHaveLength(2), 5_000);
    for (const link of outputPipesOf(piped.pid!)) expect(link).toMatch(/^socket:\[[0-9]+\]$/);
  });

  it("does not record an output that is not a socket: a shell may have put /dev/null there", () => {
    const quiet = sleeper("ignore");
    expect(outputPipesOf(quiet.pid!)).toEqual([]);
  });

  it("takes no process for the call's because it holds the same /dev/null or file", () => {
    const before = statOf(process.pid)!.startTime;
    const unrelated = sleeper("ignore");
    const found = findCallProcesses({
      pid: 0x3fffff,
      environmentMarker: unmarked(),
      pipes: ["/dev/null", "/dev/null"],
      startTime: before,
    });
    expect(found).not.toContain(unrelated.pid);
  });

  it("never takes pid 1, or pid 0 (listed before its process started), for the call's shell", () => {
    for (const pid of [0, 1]) {
      const found = findCallProcesses({
        pid,
        environmentMarker: unmarked(),
        pipes: [],
        startTime: 0,
        ownGroup: false,
      });
      expect(found).toEqual([]);
    }
  });
});
