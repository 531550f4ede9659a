import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ToolCallStatus } from "../../src/calls/index.js";
import { storeTargets, useStoreTarget } from "../store/store-targets.js";

const here = dirname(fileURLToPath(import.meta.url));
const trials = Number(process.env.RACE_TRIALS ?? 100);

/** A child process running race-child.ts, answering one `go` at a time. */
interface RaceChild {
  readonly child: ChildProcess;
  go(trial: number, delayMs: number): Promise<string>;
  exit(): Promise<void>;
}

function startRaceChild(url: string, schema: string, runLog: string): Promise<RaceChild> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(here, "fixtures", "race-child.ts"), url, schema, runLog],
    { cwd: join(here, "..", ".."), stdio: ["pipe", "pipe", "pipe"] },
  );
  let output = "";
  let stderr = "";
  const waiters = new Map<string, (line: string) => void>();
  child.stderr!.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("exit", (code) => reject(new Error(`race child exited (${code}):\n${stderr}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      let newline = output.indexOf("\n");
      while (newline >= 0) {
        const line = output.slice(0, newline);
        output = output.slice(newline + 1);
        if (line === "READY") {
          resolve({
            child,
            go(trial, delayMs) {
              const done = new Promise<string>((settle) => waiters.set(String(trial), settle));
              child.stdin!.write(`go ${trial} ${delayMs}\n`);
              return done;
            },
            exit() {
              return new Promise((settle) => {
                child.removeAllListeners("exit");
                child.on("exit", () => settle());
                child.stdin!.write("exit\n");
              });
            },
          });
        }
        const [word, trial, status] = line.split(" ");
        if (word === "done" && trial !== undefined) waiters.get(trial)?.(status ?? "");
        newline = output.indexOf("\n");
      }
    });
  });
}

describe.each(storeTargets)("two processes meeting the same new call on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it(`run it at most once and never overwrite its record, in ${trials} trials`, async () => {
    const place = target.place();
    const setup = await place.open(); // migrates once, before the children race
    const folder = mkdtempSync(join(tmpdir(), "aintern-race-"));
    const runLog = join(folder, "runs.log");
    writeFileSync(runLog, "");
    const children = await Promise.all([
      startRaceChild(place.url, place.schema, runLog),
      startRaceChild(place.url, place.schema, runLog),
    ]);
    const answers: string[][] = [];
    try {
      for (let trial = 0; trial < trials; trial++) {
        // Half the trials start together; the others 0-20 ms apart, either one first.
        const stagger = trial % 2 === 0 ? 0 : Math.floor(Math.random() * 20);
        const late = trial % 4 === 1 ? 0 : 1;
        answers.push(
          await Promise.all(
            children.map((child, index) => child.go(trial, index === late ? stagger : 0)),
          ),
        );
      }
    } finally {
      await Promise.all(children.map((child) => child.exit()));
    }

    const runs = new Map<string, number>();
    for (const line of readFileSync(runLog, "utf8").split("\n").filter(Boolean)) {
      const callId = line.split(" ")[0]!;
      runs.set(callId, (runs.get(callId) ?? 0) + 1);
    }
    rmSync(folder, { recursive: true, force: true });
    const doubleRuns = [...runs].filter(([, count]) => count > 1);
    expect(doubleRuns).toEqual([]);
    // Each call ran exactly once, and its stored record is the run's outcome.
    expect(runs.size).toBe(trials);
    const stored = await setup.calls.list({ sessionId: "race" });
    expect(stored).toHaveLength(trials);
    const overwritten = stored.filter((call) => call.record.status !== ToolCallStatus.Completed);
    expect(overwritten).toEqual([]);
    // Each process was told the real outcome, or that the other one had the call in hand.
    for (const pair of answers) {
      expect(pair).toContain(ToolCallStatus.Completed);
      for (const status of pair) {
        expect([ToolCallStatus.Completed, ToolCallStatus.Cancelled]).toContain(status);
      }
    }
  }, 120_000);
});
