import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AuditStatus } from "../../src/execution/index.js";
import { killed, sessionsGone, startChild } from "./crash-helpers.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

/**
 * The ids of a child's log lines starting with `verb`, in order (repeats kept). A last line
 * without its newline was torn by the kill (a write the kernel cut short: `RAN r9-` was seen)
 * and is left out.
 */
function logged(logDir: string, file: string, verb: string): string[] {
  const path = join(logDir, file);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter((line) => line.startsWith(`${verb} `))
    .map((line) => line.slice(verb.length + 1));
}

const KILLS_PER_STORE = 10;

describe.each(storeTargets)("killing a process at random points, on $name", ({ make }) => {
  const target = useStoreTarget(make);
  const logDirs: string[] = [];
  afterAll(() => {
    for (const dir of logDirs) rmSync(dir, { recursive: true, force: true });
  });

  it(`finds every execution a killed process accepted as exactly one row, and none ran twice (${KILLS_PER_STORE} kills)`, {
    timeout: 300_000,
  }, async () => {
    const place = target.place();
    const logDir = mkdtempSync(join(tmpdir(), "aintern-chaos-"));
    logDirs.push(logDir);
    for (let round = 0; round < KILLS_PER_STORE; round++) {
      const applicationName = `aintern-chaos-${process.pid}-${round}-${Date.now()}`;
      const { child, ready } = startChild("chaos-child.ts", [
        place.url,
        place.schema,
        applicationName,
        logDir,
        `r${round}`,
        "chaos",
      ]);
      await ready;
      // A random point of the workload: 0 to 250 ms after the first 20 executions.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 250)));
      await killed(child);
      if (target.dialect === "postgres") await sessionsGone(applicationName);
    }

    const store = await place.open();
    const started = logged(logDir, "start.log", "START");
    const accepted = logged(logDir, "accepted.log", "ACCEPTED");
    const ran = logged(logDir, "ran.log", "RAN");
    // The workload ran in every round: a child says READY once 10 executions finished, four in
    // five of them of a registered tool, so accepted. More is usual, not promised: a loaded
    // machine reaches the kill before many more start (187 for 10 rounds in one CI run).
    expect(accepted.length).toBeGreaterThanOrEqual(KILLS_PER_STORE * 5);

    // None ran twice, and each run was of an accepted execution.
    expect(ran.length).toBe(new Set(ran).size);
    const acceptedSet = new Set(accepted);
    expect(ran.filter((id) => !acceptedSet.has(id))).toEqual([]);

    // Every accepted execution has exactly one row; an execution started but killed before
    // its start was durable has at most one (it never ran).
    const problems: string[] = [];
    for (const executionId of started) {
      const rows = await store.audit.count({ executionId });
      if (rows > 1 || (rows === 0 && acceptedSet.has(executionId))) {
        problems.push(`${executionId}: ${rows} rows`);
      }
    }
    expect(problems).toEqual([]);
    // Statuses match what the logs say: an interrupted row only for a killed execution.
    expect(await store.audit.count()).toBeGreaterThanOrEqual(accepted.length);
    expect(await store.audit.count({ status: AuditStatus.Interrupted })).toBeGreaterThan(0);
    await store.close();
  });

  it("finds executions that were waiting for a concurrency slot when the process was killed", {
    timeout: 60_000,
  }, async () => {
    const place = target.place();
    const logDir = mkdtempSync(join(tmpdir(), "aintern-queued-"));
    logDirs.push(logDir);
    const applicationName = `aintern-queued-${process.pid}-${Date.now()}`;
    const { child, ready } = startChild("chaos-child.ts", [
      place.url,
      place.schema,
      applicationName,
      logDir,
      "q",
      "queued",
    ]);
    await ready;
    await killed(child);
    if (target.dialect === "postgres") await sessionsGone(applicationName);

    const store = await place.open();
    // One ran (and never returned), four waited for the one slot: all five are found.
    expect(logged(logDir, "ran.log", "RAN")).toEqual(["q-0"]);
    for (let index = 0; index < 5; index++) {
      expect((await store.audit.get(`q-${index}`))?.status, `q-${index}`).toBe(
        AuditStatus.Interrupted,
      );
    }
    await store.close();
  });
});
