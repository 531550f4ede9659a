import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import {
  interruptedCallMessage,
  interruptRecord,
  ToolCallLifecycle,
  type ToolCallLifecycleRecord,
  ToolCallStatus,
} from "../../src/calls/index.js";
import {
  InvalidToolCallError,
  StoreClosedError,
  sqliteTableName,
  TOOL_CALLS_TABLE,
} from "../../src/store/index.js";
import { killed, sessionsGone, startChild } from "./crash-helpers.js";
import { toolCallRecord } from "./fixtures/tool-call-records.js";
import {
  postgresUrl,
  type StorePlace,
  type StoreTarget,
  storeTargets,
  useStoreTarget,
} from "./store-targets.js";

const S = ToolCallStatus;

/** Writes straight into a place's tool_calls table, bypassing the store (for foreign rows). */
async function insertRaw(
  target: StoreTarget,
  place: StorePlace,
  row: { callId: string; status: string; recordJson: string; owner: string | null; seq: number },
): Promise<void> {
  const values = [row.callId, row.status, row.recordJson, row.owner, row.seq];
  if (target.dialect === "postgres") {
    await target.rawQuery(
      place,
      `INSERT INTO "${place.schema}".tool_calls (call_id, status, record_json, owner, seq, updated_at, session_id) VALUES ($1, $2, $3, $4, $5, now(), 'default')`,
      values,
    );
    return;
  }
  const db = new Database(place.url.slice("sqlite:".length));
  try {
    db.prepare(
      `INSERT INTO "${sqliteTableName(place.schema, TOOL_CALLS_TABLE)}" (call_id, status, record_json, owner, seq, updated_at, session_id) VALUES (?, ?, ?, ?, ?, ?, 'default')`,
    ).run(...values, new Date().toISOString());
  } finally {
    db.close();
  }
}

function expectInterrupted(record: ToolCallLifecycleRecord | undefined, before: Date): void {
  expect(record?.status).toBe(S.Failed);
  expect(record?.errorMessage).toBe(interruptedCallMessage);
  expect(record?.transitions.at(-1)).toMatchObject({ from: S.Executing, to: S.Failed });
  expect(new Date(record?.executionCompleted ?? 0).getTime()).toBeGreaterThanOrEqual(
    before.getTime(),
  );
  // The record is still one a lifecycle can be restored from, in its final state.
  const restored = ToolCallLifecycle.fromRecord(record as ToolCallLifecycleRecord);
  expect(restored.status).toBe(S.Failed);
}

describe.each(storeTargets)("store.calls on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("saves and gets a call with its session, record and update time", async () => {
    const store = await target.place().open();
    const record = toolCallRecord("call-1", S.AwaitingApproval);
    const before = Date.now();
    await store.calls.save({ callId: "call-1", sessionId: "session-1", record });
    const stored = await store.calls.get("call-1", "session-1");
    expect(stored).toMatchObject({ callId: "call-1", sessionId: "session-1", record });
    expect(stored?.updatedAt).toBeInstanceOf(Date);
    expect(stored?.updatedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(await store.calls.get("missing")).toBeUndefined();
    expect(await store.calls.get(42 as unknown as string)).toBeUndefined();
  });

  it("upserts by (session, call id): a second save replaces the record of that session only", async () => {
    const store = await target.place().open();
    await store.calls.save({
      callId: "call-u",
      sessionId: "s-1",
      record: toolCallRecord("call-u", S.Executing),
    });
    const completed = toolCallRecord("call-u", S.Completed);
    await store.calls.save({ callId: "call-u", sessionId: "s-1", record: completed });
    expect(await store.calls.list()).toHaveLength(1);
    const stored = await store.calls.get("call-u", "s-1");
    expect(stored?.record).toEqual(completed);
    expect(await store.calls.list({ status: S.Executing })).toEqual([]);
    // The same call id in another session (or none: "default") is another call.
    await store.calls.save({
      callId: "call-u",
      record: toolCallRecord("call-u", S.AwaitingApproval),
    });
    expect(await store.calls.list()).toHaveLength(2);
    expect((await store.calls.get("call-u"))?.record.status).toBe(S.AwaitingApproval);
    expect((await store.calls.get("call-u"))?.sessionId).toBe("default");
    expect((await store.calls.get("call-u", "s-1"))?.record.status).toBe(S.Completed);
    expect(await store.calls.get("call-u", "s-2")).toBeUndefined();
  });

  it("a claim (expected: null) is an insert only one writer wins; a later save moves on only from the state it read", async () => {
    const place = target.place();
    const store = await place.open();
    const other = await place.open(); // a second store on the same database
    const executing = toolCallRecord("race", S.Executing);
    const claims = await Promise.all([
      store.calls.save({ callId: "race", sessionId: "s", record: executing, expected: null }),
      other.calls.save({ callId: "race", sessionId: "s", record: executing, expected: null }),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims[0] ? store : other;
    const loser = claims[0] ? other : store;
    const completed = toolCallRecord("race", S.Completed);
    expect(
      await winner.calls.save({
        callId: "race",
        sessionId: "s",
        record: completed,
        expected: S.Executing,
      }),
    ).toBe(true);
    // A reader that saw Executing cannot overwrite the Completed record.
    const interrupted = interruptRecord(executing, new Date());
    expect(
      await loser.calls.save({
        callId: "race",
        sessionId: "s",
        record: interrupted,
        expected: S.Executing,
      }),
    ).toBe(false);
    expect((await loser.calls.get("race", "s"))?.record).toEqual(completed);
    // A claim on a stored call fails; the same id in another session is free.
    expect(
      await loser.calls.save({ callId: "race", sessionId: "s", record: executing, expected: null }),
    ).toBe(false);
    expect(
      await loser.calls.save({ callId: "race", sessionId: "t", record: executing, expected: null }),
    ).toBe(true);
    await other.close();
  });

  it("lists newest first by save order, filtered by status, session and limit", async () => {
    const store = await target.place().open();
    const save = (id: string, status: ToolCallStatus, sessionId: string | null) =>
      store.calls.save({ callId: id, sessionId, record: toolCallRecord(id, status) });
    await save("a", S.AwaitingApproval, "s-1");
    await save("b", S.Executing, "s-2");
    await save("c", S.Completed, "s-1");
    await save("d", S.AwaitingApproval, null);
    await save("a", S.Executing, "s-1"); // saved again: now the newest
    const ids = async (filter?: Parameters<typeof store.calls.list>[0]) =>
      (await store.calls.list(filter)).map((call) => call.callId);
    expect(await ids()).toEqual(["a", "d", "c", "b"]);
    expect(await ids({ status: S.Executing })).toEqual(["a", "b"]);
    expect(await ids({ status: [S.AwaitingApproval, S.Completed] })).toEqual(["d", "c"]);
    expect(await ids({ sessionId: "s-1" })).toEqual(["a", "c"]);
    expect(await ids({ sessionId: "s-1", status: S.Completed })).toEqual(["c"]);
    expect(await ids({ limit: 2 })).toEqual(["a", "d"]);
    expect(await ids({ status: [] })).toEqual([]);
    expect(await ids({ limit: 0 })).toEqual([]);
    expect(await ids({ sessionId: "nobody" })).toEqual([]);
  });

  it("round-trips a record with unicode, escapes and a big JSON payload", async () => {
    const place = target.place();
    const store = await place.open();
    const big = Array.from({ length: 20_000 }, (_, index) => ({
      index,
      text: `line ${index}: ünïcödé 😀 中文 עברית`,
    }));
    const record = toolCallRecord("call-big", S.Executing, {
      path: "/tmp/ü 😀/файл.txt",
      nul: "a\0b",
      lone: "x\uD800y",
      quotes: `"'\\\n\t`,
      big,
    });
    await store.calls.save({ callId: "call-ü😀", sessionId: "sessión-中", record });
    await store.close();
    const reopened = await place.open();
    const stored = await reopened.calls.get("call-ü😀", "sessión-中");
    expect(stored?.sessionId).toBe("sessión-中");
    // A closed store's executing call was interrupted on reopen; the payload is intact.
    expect(stored?.record.request).toEqual(record.request);
    expect(JSON.stringify(stored?.record.request).length).toBeGreaterThan(1_000_000);
    expect(await reopened.calls.list({ sessionId: "sessión-中" })).toHaveLength(1);
  });

  it("rejects a call it cannot save and a filter it cannot run, naming the field", async () => {
    const store = await target.place().open();
    const record = toolCallRecord("x", S.Parsed);
    const circular = { ...record } as Record<string, unknown>;
    circular.self = circular;
    const cases: [unknown, string, RegExp][] = [
      [{ callId: "", record }, "callId", /non-empty string/],
      [{ callId: 7, record }, "callId", /non-empty string/],
      [{ callId: "nul\0", record }, "callId", /control character U\+0000/],
      [{ callId: "ok", sessionId: "", record }, "sessionId", /non-empty string/],
      [{ callId: "ok", record: { ...record, status: "Running" } }, "record", /known status/],
      [{ callId: "ok", record: null }, "record", /known status/],
      [{ callId: "ok", record: circular }, "record", /cannot be written as JSON/],
      [null, "call", /callId, sessionId\?, record/],
    ];
    for (const [call, field, message] of cases) {
      const error = await store.calls
        .save(call as Parameters<typeof store.calls.save>[0])
        .catch((e: unknown) => e);
      expect(error, field).toBeInstanceOf(InvalidToolCallError);
      expect(error).toMatchObject({ code: "INVALID_TOOL_CALL", field });
      expect((error as Error).message).toMatch(message);
    }
    await expect(store.calls.list({ status: "Running" as ToolCallStatus })).rejects.toMatchObject({
      field: "status",
    });
    for (const limit of [-1, 1.5, Number.NaN]) {
      await expect(store.calls.list({ limit })).rejects.toMatchObject({ field: "limit" });
    }
    expect(await store.calls.list()).toEqual([]);
  });

  it("fails the calls a closed store left executing on the next open, and only those", async () => {
    const place = target.place();
    const first = await place.open();
    await first.calls.save({ callId: "left", record: toolCallRecord("left", S.Executing) });
    await first.calls.save({ callId: "waiting", record: toolCallRecord("waiting", S.Approved) });
    await first.close();
    const before = new Date();
    const second = await place.open();
    expectInterrupted((await second.calls.get("left"))?.record, before);
    expect((await second.calls.get("waiting"))?.record.status).toBe(S.Approved);
    expect(await second.calls.markInterrupted()).toBe(0);
    expect((await second.calls.list())[0]?.callId).toBe("left");
  });

  it("leaves the executing calls of a live store alone when a second store opens", async () => {
    const place = target.place();
    const running = await place.open();
    const executing = toolCallRecord("live-1", S.Executing);
    await running.calls.save({ callId: "live-1", sessionId: "s", record: executing });

    const other = await place.open();
    expect((await other.calls.get("live-1", "s"))?.record).toEqual(executing);
    expect(await other.calls.markInterrupted()).toBe(0);
    expect(await running.calls.markInterrupted()).toBe(0);
    expect((await other.calls.get("live-1", "s"))?.record.status).toBe(S.Executing);

    const completed = toolCallRecord("live-1", S.Completed);
    await running.calls.save({ callId: "live-1", sessionId: "s", record: completed });
    expect((await other.calls.get("live-1", "s"))?.record).toEqual(completed);
    await running.close();
    // Completed calls are never touched, whoever saved them.
    expect(await other.calls.markInterrupted()).toBe(0);
  });

  it("fails executing calls no live store owns and skips a record it cannot read", async () => {
    const place = target.place();
    const store = await place.open();
    const record = JSON.stringify(toolCallRecord("orphan", S.Executing));
    await insertRaw(target, place, {
      callId: "orphan-none",
      status: S.Executing,
      recordJson: record,
      owner: null,
      seq: 100,
    });
    await insertRaw(target, place, {
      callId: "orphan-foreign",
      status: S.Executing,
      recordJson: record,
      owner: "not-an-owner-token",
      seq: 101,
    });
    await insertRaw(target, place, {
      callId: "orphan-garbled",
      status: S.Executing,
      recordJson: "{not json",
      owner: null,
      seq: 102,
    });
    const before = new Date();
    expect(await store.calls.markInterrupted()).toBe(2);
    expectInterrupted((await store.calls.get("orphan-none"))?.record, before);
    expectInterrupted((await store.calls.get("orphan-foreign"))?.record, before);
    expect(
      (await store.calls.list({ status: S.Failed })).map((call) => call.callId).sort(),
    ).toEqual(["orphan-foreign", "orphan-none"]);
    // The unreadable row is left as it was, and reading it says which call it is.
    await expect(store.calls.get("orphan-garbled")).rejects.toMatchObject({
      code: "INVALID_TOOL_CALL",
      callId: "orphan-garbled",
    });
    await expect(store.calls.list({ status: S.Executing })).rejects.toThrow(
      /stored record of tool call 'orphan-garbled' is not JSON/,
    );
  });

  it("fails a call whose process was killed while it was executing, on the next open", async () => {
    const place = target.place();
    const applicationName = `aintern-call-crash-${process.pid}-${Date.now()}`;
    const { child, ready } = startChild("call-crash-child.ts", [
      place.url,
      place.schema,
      applicationName,
      "killed-call",
    ]);
    await ready;
    await killed(child);
    if (target.dialect === "postgres") await sessionsGone(applicationName);

    const before = new Date();
    const store = await place.open();
    const stored = await store.calls.get("killed-call", "session-crash");
    expect(stored?.sessionId).toBe("session-crash");
    expectInterrupted(stored?.record, before);
    expect(stored?.record.request.parameters).toEqual({ path: "/tmp/ü 😀", n: 3 });
    expect((await store.calls.get("killed-call-done", "session-crash"))?.record.status).toBe(
      S.Completed,
    );
    // A call awaiting approval is still pending after the restart.
    expect((await store.calls.get("killed-call-waiting", "session-crash"))?.record.status).toBe(
      S.AwaitingApproval,
    );
    expect(await store.calls.markInterrupted()).toBe(0);
    await store.close();
    const again = await place.open();
    expect(await again.calls.list({ status: S.Failed })).toHaveLength(1);
  });

  it("throws StoreClosedError from every call after close", async () => {
    const store = await target.place().open();
    await store.close();
    for (const call of [
      () => store.calls.save({ callId: "c", record: toolCallRecord("c", S.Parsed) }),
      () => store.calls.get("c"),
      () => store.calls.list(),
      () => store.calls.markInterrupted(),
    ]) {
      const error = await call().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreClosedError);
      expect((error as StoreClosedError).operation).toMatch(/^calls\./);
    }
  });
});

describe("store.calls on postgres when a live store loses its lease", () => {
  const target = storeTargets.find((item) => item.name === "postgres")?.make() as StoreTarget;

  afterAll(async () => {
    await target.cleanup();
  });

  it("lets the live store's later save replace the interrupted record", async () => {
    const place = target.place();
    const applicationName = `aintern-call-lease-${process.pid}-${Date.now()}`;
    const running = await place.open({ applicationName });
    await running.calls.save({ callId: "lost", record: toolCallRecord("lost", S.Executing) });

    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1",
      [applicationName],
    );
    await admin.end();
    await sessionsGone(applicationName);

    const other = await place.open();
    expect((await other.calls.get("lost"))?.record.status).toBe(S.Failed);
    const completed = toolCallRecord("lost", S.Completed);
    await running.calls.save({ callId: "lost", record: completed });
    expect((await other.calls.get("lost"))?.record).toEqual(completed);
  });
});
