import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { PendingApprovalStatus } from "../../src/console/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { sqliteTarget, useStoreTarget } from "./store-targets.js";

describe("the console tables' change feed", () => {
  const target = useStoreTarget(sqliteTarget);

  it("tells a new watcher of another process's change made before the feed's first look", async () => {
    const place = target.place();
    const store = await place.open();
    const row = await store.approvals.open({
      callKey: "call-1",
      requestId: "req-1",
      argumentsHash: "hash-1",
      sessionId: "s-1",
      request: {
        id: "req-1",
        toolId: "file-write",
        toolName: "Write File",
        parameters: { path: "a.txt" },
        riskLevel: RiskLevel.Medium,
        executionSummary: "Write",
        warnings: [],
        requestedAt: new Date(),
      },
      details: { reason: "Medium Risk calls need approval", round: 1 },
      expiresAt: new Date(Date.now() + 60_000),
    });
    // Another process: its own connection, whose writes this store hears of only by polling.
    const other = new Database(place.url.slice("sqlite:".length));
    const heard: string[] = [];
    const stop = store.approvals.watch((change) => heard.push(change));
    try {
      // The person decides in the other process before the feed has looked even once.
      other
        .prepare(
          `UPDATE ${place.schema}_pending_approvals SET status = ?, changed_seq = changed_seq + 1000 WHERE id = ?`,
        )
        .run(PendingApprovalStatus.Approved, row.id);
      const deadline = Date.now() + 2_000;
      while (!heard.includes("approvals") && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(heard).toContain("approvals");
    } finally {
      stop();
      other.close();
    }
  });
});
