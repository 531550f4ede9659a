import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_KEY_LENGTH } from "../../src/core/index.js";
import { AuditStatus } from "../../src/execution/index.js";
import { RECOVERY_SKIPPED_WARNING } from "../../src/store/index.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

const startedAt = new Date("2026-11-26T04:00:00Z");
/** Random, so that PostgreSQL cannot compress it under its index-entry limit. */
const longId = randomBytes(1500).toString("hex");

function record(executionId: string, extra: Record<string, unknown> = {}) {
  return {
    executionId,
    toolName: "keys-tool",
    status: AuditStatus.Completed,
    startedAt,
    completedAt: new Date(startedAt.getTime() + 5),
    ...extra,
  };
}

/** Collects the recovery warnings emitted while a test runs. */
function recoveryWarnings(): string[] {
  const seen: string[] = [];
  const listener = (warning: Error & { code?: string }) => {
    if (warning.code === RECOVERY_SKIPPED_WARNING) seen.push(warning.message);
  };
  beforeEach(() => {
    process.on("warning", listener);
  });
  afterEach(() => {
    process.off("warning", listener);
  });
  return seen;
}

describe.each(storeTargets)("keys on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("refuses a 3,000-character execution id with a clear error, and the store opens again", async () => {
    const place = target.place();
    const store = await place.open();
    await expect(
      store.audit.begin({ executionId: longId, toolName: "keys-tool", startedAt }),
    ).rejects.toMatchObject({
      code: "INVALID_AUDIT_RECORD",
      field: "executionId",
      message: expect.stringMatching(/3,000 characters long; an id may have at most 512/),
    });
    await expect(store.audit.complete(record(longId))).rejects.toMatchObject({
      code: "INVALID_AUDIT_RECORD",
    });
    await store.audit.complete(record("after-the-long-one"));
    await store.close();

    const again = await place.open();
    expect(await again.audit.count()).toBe(1);
    expect(await again.audit.count({ executionId: longId })).toBe(0);
    await again.close();
  });

  it("accepts an id of exactly the longest length", async () => {
    const store = await target.place().open();
    const id = "é".repeat(MAX_KEY_LENGTH);
    await store.audit.begin({ executionId: id, toolName: "keys-tool", startedAt });
    await store.audit.complete(record(id));
    expect((await store.audit.get(id))?.executionId).toBe(id);
  });

  it.each([
    ["a NUL byte", "a\u0000b", /U\+0000 at index 1/],
    ["a newline", "line\nbreak", /U\+000A/],
    ["an escape", "\u001b[31m", /U\+001B at index 0/],
    ["a C1 control", "a\u0085", /U\+0085/],
    ["a lone surrogate", "a\uD800", /lone UTF-16 surrogate/],
  ])("refuses an execution id holding %s the same way", async (_what, id, reason) => {
    const store = await target.place().open();
    await expect(
      store.audit.begin({ executionId: id, toolName: "keys-tool", startedAt }),
    ).rejects.toMatchObject({
      code: "INVALID_AUDIT_RECORD",
      message: expect.stringMatching(reason),
    });
    await expect(store.audit.complete(record(id))).rejects.toMatchObject({
      code: "INVALID_AUDIT_RECORD",
    });
    expect(await store.audit.count()).toBe(0);
  });

  it("refuses a batch id that cannot be a key, on begin and on complete", async () => {
    const store = await target.place().open();
    await expect(
      store.audit.begin({ executionId: "b-1", toolName: "t", startedAt, batchId: longId }),
    ).rejects.toMatchObject({ code: "INVALID_AUDIT_RECORD", field: "batchId" });
    await expect(store.audit.complete(record("b-2", { batchId: "a\u0000" }))).rejects.toMatchObject(
      { code: "INVALID_AUDIT_RECORD", field: "batchId" },
    );
  });

  it("refuses call ids and session ids that cannot be keys, with the same error on both", async () => {
    const store = await target.place().open();
    const saved = { status: "Pending" };
    for (const callId of [longId, "nul\u0000", "tab\tid"]) {
      await expect(store.calls.save({ callId, record: saved as never })).rejects.toMatchObject({
        code: "INVALID_TOOL_CALL",
        field: "callId",
      });
    }
    await expect(
      store.calls.save({ callId: "ok", sessionId: longId, record: saved as never }),
    ).rejects.toMatchObject({ code: "INVALID_TOOL_CALL", field: "sessionId" });
  });

  it("answers reads by an id no row can have instead of throwing a driver error", async () => {
    const store = await target.place().open();
    expect(await store.audit.get("a\u0000b")).toBeUndefined();
    expect(await store.audit.get(longId)).toBeUndefined();
    expect(await store.audit.count({ executionId: "a\u0000b", userId: "u\u0000" })).toBe(0);
    expect((await store.audit.query({ batchId: "b\u0000" })).entries).toEqual([]);
    expect(await store.calls.get("nul\u0000")).toBeUndefined();
    expect(await store.calls.list({ sessionId: "s\u0000" })).toEqual([]);
  });
});

describe("recovery that meets a bad row", () => {
  const warnings = recoveryWarnings();

  describe.each(storeTargets.filter((item) => item.name === "postgres"))("on $name", ({ make }) => {
    const target = useStoreTarget(make);

    it("opens a store whose in-flight table holds a 3,000-character execution id, recovering every row", async () => {
      const place = target.place();
      const first = await place.open();
      await first.close();
      // What a store without the key checks left behind: rows of a dead owner (no lock held).
      const table = `"${place.schema}".tool_executions_inflight`;
      await target.rawQuery(
        place,
        `INSERT INTO ${table} (id, owner_key, execution_id, tool_name, started_at) VALUES (gen_random_uuid(), 4242, $1, 'keys-tool', now()), (gen_random_uuid(), 4242, 'good-one', 'keys-tool', now())`,
        [longId],
      );

      const store = await place.open();
      expect(await store.audit.count({ status: AuditStatus.Interrupted })).toBe(2);
      expect((await store.audit.get("good-one"))?.status).toBe(AuditStatus.Interrupted);
      const [salvaged] = (await store.audit.query({ toolName: "keys-tool" })).entries.filter(
        (entry) => entry.executionId !== "good-one",
      );
      expect(salvaged?.executionId.startsWith(longId.slice(0, 100))).toBe(true);
      expect(salvaged?.executionId.length).toBeLessThanOrEqual(MAX_KEY_LENGTH);
      expect(await target.rawQuery(place, `SELECT * FROM ${table}`)).toEqual([]);
      await store.close();
      // And the next open has nothing left to do.
      const again = await place.open();
      expect(await again.audit.count()).toBe(2);
      await again.close();
    });
  });

  describe.each(storeTargets.filter((item) => item.name === "sqlite"))("on $name", ({ make }) => {
    const target = useStoreTarget(make);

    it("recovers the good lines of a dead journal and reports the damaged and torn ones", async () => {
      const place = target.place();
      const first = await place.open();
      await first.close();
      const database = place.url.slice("sqlite:".length);
      const line = (id: string, executionId: string) =>
        `${JSON.stringify([id, executionId, "keys-tool", startedAt.getTime(), null, null, null, null, null, null, null])}\n`;
      // A journal of a process that is not running (no pid is that large).
      const journal = join(dirname(database), "audit.db-inflight.999999999.0a0b0c");
      writeFileSync(
        journal,
        line("00000000-0000-4000-8000-000000000001", "good-1") +
          "{not json\n" +
          line("00000000-0000-4000-8000-000000000002", `long\u0000${longId}`) +
          line("00000000-0000-4000-8000-000000000003", "good-2") +
          line("00000000-0000-4000-8000-000000000004", "torn").slice(0, 30),
      );

      const store = await place.open();
      expect(await store.audit.count({ status: AuditStatus.Interrupted })).toBe(3);
      expect(await store.audit.get("good-2")).toMatchObject({ status: AuditStatus.Interrupted });
      expect(await store.audit.count({ executionId: "torn" })).toBe(0);
      await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on next tick
      expect(warnings.some((text) => /line 2 is not a journal line/.test(text))).toBe(true);
      expect(warnings.some((text) => /torn last line/.test(text))).toBe(true);
      await store.close();
    });
  });
});
