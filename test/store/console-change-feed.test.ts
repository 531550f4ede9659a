import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { PendingApprovalStatus } from "../../src/console/index.js";
import { pendingCall } from "./pending-call.js";
import { sqliteTarget, useStoreTarget } from "./store-targets.js";

describe("the console tables' change feed", () => {
  const target = useStoreTarget(sqliteTarget);

  it("tells a new watcher of another process's change made before the feed's first look", async () => {
    const place = target.place();
    const store = await place.open();
    const row = await store.approvals.open(pendingCall("1"));
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

  it("wakes a watcher for a change made while no one listened, and not again for the same one", async () => {
    const place = target.place();
    const store = await place.open();
    const row = await store.approvals.open(pendingCall("2"));
    const other = new Database(place.url.slice("sqlite:".length));
    const until = async (done: () => boolean): Promise<void> => {
      const deadline = Date.now() + 2_000;
      while (!done() && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      // A first watcher sees the feed start, then leaves: no one listens.
      const first: string[] = [];
      const stopFirst = store.approvals.watch((change) => first.push(change));
      await until(() => first.length > 0);
      await new Promise((resolve) => setTimeout(resolve, 150));
      stopFirst();
      other
        .prepare(
          `UPDATE ${place.schema}_pending_approvals SET changed_seq = changed_seq + 1000 WHERE id = ?`,
        )
        .run(row.id);
      // The next watcher hears of the change made in the gap, once.
      const second: string[] = [];
      const stopSecond = store.approvals.watch((change) => second.push(change));
      await until(() => second.includes("approvals"));
      expect(second.filter((c) => c === "approvals")).toHaveLength(1);
      stopSecond();
      // A third watcher with nothing new hears nothing: leaving and coming back does not loop.
      const third: string[] = [];
      const stopThird = store.approvals.watch((change) => third.push(change));
      await new Promise((resolve) => setTimeout(resolve, 300));
      stopThird();
      expect(third).toEqual([]);
    } finally {
      other.close();
    }
  });
});
