// Several writers on one database at once: processes sharing a store (an agent, `aintern mcp`,
// the console), and stores of one process on one SQLite file. A write that loses a race waits
// for its turn; it never fails with "database is locked".

import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { PendingApprovalStatus } from "../../src/console/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

const here = dirname(fileURLToPath(import.meta.url));
const run = promisify(execFile);
const PROCESSES = 4;
const CALLS = 60;

function pending(callKey: string) {
  return {
    callKey,
    requestId: `req-${callKey}`,
    argumentsHash: "hash",
    sessionId: "s-1",
    request: {
      id: `req-${callKey}`,
      toolId: "file-write",
      toolName: "Write File",
      parameters: { path: `${callKey}.txt` },
      riskLevel: RiskLevel.Medium,
      executionSummary: `Write ${callKey}.txt`,
      warnings: [],
      requestedAt: new Date(),
    },
    details: { reason: "Medium Risk calls need approval", round: 1 },
    expiresAt: new Date(Date.now() + 600_000),
  };
}

describe.each(storeTargets)("several writers on one database, on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it(`loses no write when ${PROCESSES} processes open, decide and finish ${CALLS} calls each at once`, {
    timeout: 120_000,
  }, async () => {
    const place = target.place();
    await (await place.open()).close();
    const outputs = await Promise.all(
      Array.from({ length: PROCESSES }, (_, p) =>
        run(
          process.execPath,
          [
            "--import",
            "tsx",
            join(here, "fixtures", "concurrent-writer-child.ts"),
            place.url,
            place.schema,
            `p${p}`,
            String(CALLS),
          ],
          { cwd: join(here, "..", "..") },
        ),
      ),
    );
    for (const { stdout } of outputs) {
      expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({
        failures: [],
        done: { opened: CALLS, decided: CALLS, claimed: CALLS, finished: CALLS },
      });
    }
    const store = await place.open();
    const rows = await store.approvals.list({ limit: 1000 });
    expect(rows).toHaveLength(PROCESSES * CALLS);
    expect(rows.filter((r) => r.status === PendingApprovalStatus.Approved)).toHaveLength(
      (PROCESSES * CALLS) / 2,
    );
    expect(await store.executions.list()).toEqual([]);
  });

  it("opens three stores of one process on one new database at once", async () => {
    const place = target.place();
    // Each migrates (or finds the tables made) in turn: none waits out busy_timeout and fails.
    const stores = await Promise.all([place.open(), place.open(), place.open()]);
    await stores[0]!.permissions.add({
      id: "g-1",
      toolId: "file-write",
      scope: "tool",
      maxRiskLevel: RiskLevel.Medium,
      createdAt: new Date(),
    });
    expect(await stores[2]!.permissions.list()).toHaveLength(1);
  });

  it("reads the audit log without waiting out busy_timeout while a transaction of the store is open", async () => {
    const store = await target.place().open();
    // The read inserts the rows waiting in the journal first (SQLite: by the insert thread, and
    // it waits for the thread). Begun while approvals.open held the write lock across an await,
    // that wait blocked the event loop the transaction needed to commit, until busy_timeout
    // (5 s), and the read missed the rows. Each k starts the read k microtasks later.
    for (let k = 0; k < 40; k++) {
      const at = new Date();
      await store.audit.complete({
        executionId: `e-${k}`,
        toolName: "file-write",
        status: "completed",
        startedAt: at,
        completedAt: at,
      });
      const began = Date.now();
      const opening = store.approvals.open(pending(`call-${k}`));
      for (let i = 0; i < k; i++) await Promise.resolve();
      expect(await store.audit.count()).toBe(k + 1);
      await opening;
      expect(Date.now() - began).toBeLessThan(2_000);
    }
  });

  it("loses no write when two stores of one process use the same database at once", async () => {
    const place = target.place();
    const [agent, consoleSide] = [await place.open(), await place.open()];
    const work = Array.from({ length: CALLS }, async (_, i) => {
      const [mine, theirs] = i % 2 === 0 ? [agent, consoleSide] : [consoleSide, agent];
      const row = await mine.approvals.open(pending(`call-${i}`));
      const decided = await theirs.approvals.decide(row.id, { approved: true }, "ada");
      expect(decided.ok).toBe(true);
      expect(await mine.approvals.claim(row.id)).toBe(true);
    });
    await Promise.all(work);
    const rows = await agent.approvals.list({ status: PendingApprovalStatus.Approved });
    expect(rows).toHaveLength(CALLS);
    expect(rows.every((r) => r.appliedAt !== undefined)).toBe(true);
  });
});
