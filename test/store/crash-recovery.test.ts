import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { ToolErrorCode } from "../../src/core/index.js";
import { AuditStatus } from "../../src/execution/index.js";
import { killed, sessionsGone, startChild } from "./crash-helpers.js";
import {
  postgresUrl,
  type StorePlace,
  type StoreTarget,
  storeTargets,
  useStoreTarget,
} from "./store-targets.js";

/** Starts the audit fixture and resolves once it has begun its executions. */
function startAuditChild(
  place: StorePlace,
  applicationName: string,
  executionId: string,
  mode?: "hold",
) {
  return startChild("crash-child.ts", [
    place.url,
    place.schema,
    applicationName,
    executionId,
    ...(mode === undefined ? [] : [mode]),
  ]);
}

describe.each(storeTargets)("crash recovery on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("turns an execution whose process was killed into an interrupted row on the next open", async () => {
    const place = target.place();
    const applicationName = `aintern-crash-${process.pid}-${Date.now()}`;
    const { child, ready } = startAuditChild(place, applicationName, "killed-1");
    await ready;
    await killed(child);
    if (target.dialect === "postgres") await sessionsGone(applicationName);

    const store = await place.open();
    const entry = await store.audit.get("killed-1");
    expect(entry).toMatchObject({
      executionId: "killed-1",
      toolName: "slow-tool",
      status: AuditStatus.Interrupted,
      errorCode: ToolErrorCode.Interrupted,
      parameters: { путь: "/tmp/ü 😀", n: 3 },
      batchId: "batch-crash",
      userId: "user-crash",
      conversationId: "conv-crash",
      metadata: { why: "killed" },
      wasApproved: false,
    });
    expect(entry?.errorMessage).toMatch(/stopped before it finished/);
    expect(entry?.completedAt.getTime()).toBeGreaterThanOrEqual(entry?.startedAt.getTime() ?? 0);
    expect(await store.audit.count({ batchId: "batch-crash", status: "interrupted" })).toBe(4);
    // The execution that completed before the kill keeps its one, completed row.
    expect(await store.audit.count({ executionId: "killed-1-done" })).toBe(1);
    expect((await store.audit.get("killed-1-done"))?.status).toBe(AuditStatus.Completed);

    // Recovery happens once: a second open finds nothing more.
    expect(await store.audit.recoverInterrupted()).toBe(0);
    await store.close();
    const again = await place.open();
    expect(await again.audit.count({ status: "interrupted" })).toBe(4);
    await again.close();
    if (target.dialect === "sqlite") {
      const database = place.url.slice("sqlite:".length);
      const journals = readdirSync(dirname(database)).filter((name) => name.includes("-inflight."));
      expect(journals).toEqual([]);
    }
  });

  it("keeps the real outcome of an execution that finished just before the kill", async () => {
    const place = target.place();
    const applicationName = `aintern-crash-hold-${process.pid}-${Date.now()}`;
    // The child blocks its thread once its executions are reported: nothing more runs there.
    const { child, ready } = startAuditChild(place, applicationName, "held-1", "hold");
    await ready;
    await killed(child);
    if (target.dialect === "postgres") await sessionsGone(applicationName);
    if (target.dialect === "sqlite") {
      // SQLite writes a finished row ahead to the journal: it was durable, not yet in the table.
      const database = place.url.slice("sqlite:".length);
      const journals = readdirSync(dirname(database)).filter((name) => name.includes("-inflight."));
      const text = journals.map((name) => readFileSync(join(dirname(database), name), "utf8"));
      expect(text.join("")).toMatch(/^\{"done":\["[^"]+","held-1-done",/m);
      const raw = new Database(database, { readonly: true });
      const table = `${place.schema}_tool_executions`;
      const before = raw
        .prepare(`SELECT COUNT(*) AS n FROM "${table}" WHERE execution_id = ?`)
        .get("held-1-done") as { n: number };
      raw.close();
      expect(before.n).toBe(0);
    }

    const store = await place.open();
    expect(await store.audit.count({ executionId: "held-1-done" })).toBe(1);
    expect((await store.audit.get("held-1-done"))?.status).toBe(AuditStatus.Completed);
    expect((await store.audit.get("held-1"))?.status).toBe(AuditStatus.Interrupted);
    await store.close();
  });

  it("leaves the executions of a store that is still open alone", async () => {
    const place = target.place();
    const running = await place.open();
    const startedAt = new Date();
    await running.audit.begin({ executionId: "live-1", toolName: "slow", startedAt });

    const other = await place.open();
    expect(await other.audit.recoverInterrupted()).toBe(0);
    expect(await other.audit.get("live-1")).toBeUndefined();

    await running.audit.complete({
      executionId: "live-1",
      toolName: "slow",
      status: AuditStatus.Completed,
      startedAt,
      completedAt: new Date(),
    });
    expect(await other.audit.count({ executionId: "live-1" })).toBe(1);
    expect((await other.audit.get("live-1"))?.status).toBe(AuditStatus.Completed);
  });

  it("recovers what a store closed with executions still in flight", async () => {
    const place = target.place();
    const first = await place.open();
    await first.audit.begin({ executionId: "left-1", toolName: "slow", startedAt: new Date() });
    await first.close();
    const second = await place.open();
    expect((await second.audit.get("left-1"))?.status).toBe(AuditStatus.Interrupted);
  });
});

describe("crash recovery on postgres when a live store loses its lease", () => {
  const target = storeTargets.find((item) => item.name === "postgres")?.make() as StoreTarget;

  afterAll(async () => {
    await target.cleanup();
  });

  it("lets the real outcome replace the interrupted row another store wrote", async () => {
    const place = target.place();
    const applicationName = `aintern-lease-${process.pid}-${Date.now()}`;
    const running = await place.open({ applicationName });
    const startedAt = new Date();
    await running.audit.begin({ executionId: "lost-1", toolName: "slow", startedAt });

    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
      [applicationName],
    );
    await admin.end();
    await sessionsGone(applicationName);

    const other = await place.open();
    expect((await other.audit.get("lost-1"))?.status).toBe(AuditStatus.Interrupted);

    await running.audit.complete({
      executionId: "lost-1",
      toolName: "slow",
      status: AuditStatus.Completed,
      startedAt,
      completedAt: new Date(),
    });
    expect(await other.audit.count({ executionId: "lost-1" })).toBe(1);
    expect((await other.audit.get("lost-1"))?.status).toBe(AuditStatus.Completed);
  });
});

describe("a begin that cannot be recorded", () => {
  const target = storeTargets.find((item) => item.name === "postgres")?.make() as StoreTarget;

  afterAll(async () => {
    await target.cleanup();
  });

  it("rejects and is not left in flight", async () => {
    const place = target.place();
    const store = await place.open();
    await target.rawQuery(place, `DROP TABLE "${place.schema}".tool_executions_inflight`);
    const startedAt = new Date();
    for (let attempt = 0; attempt < 2; attempt++) {
      // The second attempt fails the same way, not with "already in flight".
      await expect(
        store.audit.begin({ executionId: "unrecorded", toolName: "t", startedAt }),
      ).rejects.toThrow(/tool_executions_inflight/);
    }
  });
});
