import { beforeAll, describe, expect, it } from "vitest";
import { type AuditRecord, AuditStatus } from "../../src/execution/index.js";
import {
  InvalidAuditQueryError,
  InvalidAuditRecordError,
  type Store,
} from "../../src/store/index.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

const base = Date.UTC(2026, 1, 4, 10, 0, 0);

function at(offsetMs: number): Date {
  return new Date(base + offsetMs);
}

function record(overrides: Partial<AuditRecord> & { executionId: string }): AuditRecord {
  return {
    toolName: "file-read",
    status: AuditStatus.Completed,
    startedAt: at(0),
    completedAt: at(25),
    ...overrides,
  };
}

describe.each(storeTargets)("audit log on $name", ({ make }) => {
  const target = useStoreTarget(make);
  let store: Store;

  beforeAll(async () => {
    store = await target.place().open();
  });

  it("round-trips every column of a completed execution", async () => {
    const full: AuditRecord = {
      executionId: "round-trip-1",
      toolName: "file-write",
      status: AuditStatus.Failed,
      parameters: { path: "notes/a.md", content: "hello", lines: [1, 2, 3], nested: { ok: true } },
      resultSummary: "Wrote 0 bytes",
      errorMessage: "Disk full",
      errorCode: "ExecutionError",
      startedAt: at(1000),
      completedAt: at(1750),
      durationMs: 749.6,
      outputSizeBytes: 12345,
      sandboxId: "sandbox-7",
      agentId: "agent-3",
      userId: "alice@example.com",
      conversationId: "conv-9",
      batchId: "batch-1",
      metadata: { source: "test", attempt: 2 },
      wasApproved: true,
      timedOut: true,
      wasCancelled: true,
    };
    await store.audit.complete(full);
    const entry = await store.audit.get("round-trip-1");
    expect(entry).toMatchObject({
      executionId: "round-trip-1",
      toolName: "file-write",
      status: "failed",
      parameters: full.parameters,
      resultSummary: "Wrote 0 bytes",
      errorMessage: "Disk full",
      errorCode: "ExecutionError",
      startedAt: at(1000),
      completedAt: at(1750),
      durationMs: 750,
      outputSizeBytes: 12345,
      sandboxId: "sandbox-7",
      agentId: "agent-3",
      userId: "alice@example.com",
      conversationId: "conv-9",
      batchId: "batch-1",
      metadata: { source: "test", attempt: 2 },
      wasApproved: true,
      timedOut: true,
      wasCancelled: true,
    });
    expect(entry?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.isFrozen(entry)).toBe(true);
  });

  it("stores absent optional fields as null and false, and derives the duration", async () => {
    await store.audit.complete(
      record({ executionId: "minimal-1", startedAt: at(0), completedAt: at(40) }),
    );
    expect(await store.audit.get("minimal-1")).toMatchObject({
      parameters: null,
      resultSummary: null,
      errorMessage: null,
      errorCode: null,
      durationMs: 40,
      outputSizeBytes: null,
      sandboxId: null,
      agentId: null,
      userId: null,
      conversationId: null,
      batchId: null,
      metadata: null,
      wasApproved: false,
      timedOut: false,
      wasCancelled: false,
    });
  });

  it("fills what complete leaves out from the execution's begin, under the same row id", async () => {
    await store.audit.begin({
      executionId: "begun-1",
      toolName: "search",
      startedAt: at(5000),
      parameters: { query: "tool executor" },
      batchId: "batch-begun",
      userId: "user-b",
      agentId: "agent-b",
      conversationId: "conv-b",
      sandboxId: "sandbox-b",
      metadata: { from: "begin" },
    });
    await store.audit.complete({
      executionId: "begun-1",
      toolName: "search",
      status: AuditStatus.Completed,
      startedAt: at(5000),
      completedAt: at(5100),
    });
    expect(await store.audit.get("begun-1")).toMatchObject({
      parameters: { query: "tool executor" },
      batchId: "batch-begun",
      userId: "user-b",
      agentId: "agent-b",
      conversationId: "conv-b",
      sandboxId: "sandbox-b",
      metadata: { from: "begin" },
    });
    expect(await store.audit.count({ executionId: "begun-1" })).toBe(1);
  });

  it("keeps JSON with unicode, NUL escapes and lone surrogates exactly", async () => {
    const parameters = {
      text: "héllo wörld — 你好 — مرحبا — 🙂👩‍👩‍👧",
      nul: "a\u0000b",
      lone: "x\ud800y",
      "ключ 🔑": ["Ω", "e\u0301"],
    };
    await store.audit.complete(
      record({ executionId: "unicode-1", parameters, metadata: { 名前: "値 ✓" } }),
    );
    const entry = await store.audit.get("unicode-1");
    expect(entry?.parameters).toEqual(parameters);
    expect(entry?.metadata).toEqual({ 名前: "値 ✓" });
  });

  it("turns NUL in text columns into U+FFFD and cuts over-long text at the spec's lengths", async () => {
    await store.audit.complete(
      record({
        executionId: "text-1",
        toolName: `t${"x".repeat(80)}`,
        errorMessage: `bad\u0000byte ${"é".repeat(2000)}`,
        errorCode: "E".repeat(100),
        resultSummary: "sum\u0000mary",
      }),
    );
    const entry = await store.audit.get("text-1");
    expect(entry?.toolName).toHaveLength(64);
    expect(entry?.toolName.endsWith("…")).toBe(true);
    expect(entry?.errorMessage?.startsWith("bad\uFFFDbyte")).toBe(true);
    expect(Array.from(entry?.errorMessage ?? "")).toHaveLength(1024);
    expect(entry?.errorCode).toHaveLength(64);
    expect(entry?.resultSummary).toBe("sum\uFFFDmary");
  });

  it("returns the newest row of an execution id and undefined for an unknown one", async () => {
    await store.audit.complete(
      record({ executionId: "twice", startedAt: at(10), completedAt: at(11) }),
    );
    await store.audit.complete(
      record({ executionId: "twice", startedAt: at(20), completedAt: at(21), status: "denied" }),
    );
    expect((await store.audit.get("twice"))?.status).toBe("denied");
    expect(await store.audit.get("never-ran")).toBeUndefined();
  });

  it("commits 200 concurrent completes, every row present", async () => {
    const completes = Array.from({ length: 200 }, (_, index) =>
      store.audit.complete(
        record({
          executionId: `burst-${index}`,
          toolName: "burst",
          batchId: "burst-batch",
          startedAt: at(100_000 + index),
          completedAt: at(100_100 + index),
        }),
      ),
    );
    await Promise.all(completes);
    expect(await store.audit.count({ batchId: "burst-batch" })).toBe(200);
    const page = await store.audit.query({ batchId: "burst-batch", limit: 1000 });
    expect(new Set(page.entries.map((entry) => entry.executionId)).size).toBe(200);
  });

  it("commits 200 concurrent begin / complete pairs", async () => {
    await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const executionId = `pair-${index}`;
        await store.audit.begin({
          executionId,
          toolName: "pair",
          startedAt: at(200_000 + index),
          batchId: "pair-batch",
        });
        await store.audit.complete(
          record({
            executionId,
            toolName: "pair",
            startedAt: at(200_000 + index),
            completedAt: at(200_001 + index),
          }),
        );
      }),
    );
    expect(await store.audit.count({ batchId: "pair-batch" })).toBe(200);
    expect(await store.audit.recoverInterrupted()).toBe(0);
  });

  it("rejects an unknown status, an empty id, a bad date and unserializable parameters", async () => {
    await expect(
      store.audit.complete(record({ executionId: "bad-1", status: "done" as AuditStatus })),
    ).rejects.toThrow(InvalidAuditRecordError);
    await expect(store.audit.complete(record({ executionId: "" }))).rejects.toMatchObject({
      code: "INVALID_AUDIT_RECORD",
      field: "executionId",
    });
    await expect(
      store.audit.complete(record({ executionId: "bad-2", completedAt: new Date(Number.NaN) })),
    ).rejects.toMatchObject({ field: "completedAt" });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await expect(
      store.audit.begin({
        executionId: "bad-3",
        toolName: "x",
        startedAt: at(0),
        parameters: cyclic as never,
      }),
    ).rejects.toMatchObject({ field: "parameters" });
    await expect(
      store.audit.begin({ executionId: "bad-4", toolName: 42 as never, startedAt: at(0) }),
    ).rejects.toMatchObject({ field: "toolName" });
    expect(await store.audit.count({ toolName: "x" })).toBe(0);
  });

  it("refuses to begin an execution id that is already in flight", async () => {
    await store.audit.begin({ executionId: "dup-1", toolName: "dup", startedAt: at(0) });
    await expect(
      store.audit.begin({ executionId: "dup-1", toolName: "dup", startedAt: at(0) }),
    ).rejects.toMatchObject({ code: "INVALID_AUDIT_RECORD", executionId: "dup-1" });
    await store.audit.complete(record({ executionId: "dup-1", toolName: "dup" }));
    await store.audit.begin({ executionId: "dup-1", toolName: "dup", startedAt: at(1) });
    await store.audit.complete(record({ executionId: "dup-1", toolName: "dup" }));
    expect(await store.audit.count({ toolName: "dup" })).toBe(2);
  });

  it("finds rows by completion time: a long execution that started first, by when it ended", async () => {
    const own = await target.place().open();
    try {
      await own.audit.complete(
        record({ executionId: "quick", startedAt: at(10_000), completedAt: at(10_050) }),
      );
      await own.audit.complete(
        record({ executionId: "long", startedAt: at(0), completedAt: at(60_000) }),
      );
      const ended = await own.audit.query({ completedFrom: at(10_100) });
      expect(ended.entries.map((e) => e.executionId)).toEqual(["long"]);
      const both = await own.audit.query({ completedFrom: at(10_050) });
      expect(both.entries.map((e) => e.executionId).sort()).toEqual(["long", "quick"]);
      await expect(own.audit.query({ completedFrom: new Date("nope") })).rejects.toMatchObject({
        field: "completedFrom",
      });
    } finally {
      await own.close();
    }
  });

  describe("query", () => {
    let queried: Store;

    beforeAll(async () => {
      queried = await target.place().open();
      const tools = ["file-read", "file-write", "search"];
      const statuses = [AuditStatus.Completed, AuditStatus.Failed, AuditStatus.Timeout];
      await Promise.all(
        Array.from({ length: 30 }, (_, index) =>
          queried.audit.complete(
            record({
              executionId: `q-${String(index).padStart(2, "0")}`,
              toolName: tools[index % 3] as string,
              status: statuses[Math.floor(index / 10)] as AuditStatus,
              batchId: index < 15 ? "first-half" : null,
              userId: index % 2 === 0 ? "even" : "odd",
              conversationId: index % 5 === 0 ? "conv-5" : null,
              agentId: index === 7 ? "agent-7" : null,
              startedAt: at(index * 1000),
              completedAt: at(index * 1000 + 10),
            }),
          ),
        ),
      );
      // Two rows with the same start time: the id breaks the tie.
      await queried.audit.complete(record({ executionId: "tie-a", startedAt: at(29_000) }));
    });

    it("lists newest first with a default page of 50", async () => {
      const page = await queried.audit.query();
      expect(page.entries).toHaveLength(31);
      expect(page.nextCursor).toBeUndefined();
      const times = page.entries.map((entry) => entry.startedAt.getTime());
      expect(times).toEqual([...times].sort((left, right) => right - left));
      const [first, second] = page.entries;
      expect(first?.startedAt).toEqual(at(29_000));
      expect(second?.startedAt).toEqual(at(29_000));
      expect((first?.id ?? "") > (second?.id ?? "")).toBe(true);
    });

    it("filters by tool, status, batch, user, agent, conversation and execution id", async () => {
      expect(await queried.audit.count({ toolName: "search" })).toBe(10);
      expect(await queried.audit.count({ status: "timeout" })).toBe(10);
      expect(await queried.audit.count({ status: ["failed", "timeout"] })).toBe(20);
      expect(await queried.audit.count({ status: [] })).toBe(0);
      expect(await queried.audit.count({ batchId: "first-half" })).toBe(15);
      expect(await queried.audit.count({ userId: "odd" })).toBe(15);
      expect(await queried.audit.count({ agentId: "agent-7" })).toBe(1);
      expect(await queried.audit.count({ conversationId: "conv-5" })).toBe(6);
      expect(await queried.audit.count({ executionId: "q-03" })).toBe(1);
      expect(await queried.audit.count({ toolName: "search", status: "completed" })).toBe(3);
      const page = await queried.audit.query({ toolName: "file-write", status: "failed" });
      expect(page.entries.map((entry) => entry.executionId)).toEqual([
        "q-19",
        "q-16",
        "q-13",
        "q-10",
      ]);
    });

    it("filters by start time, from inclusive and to exclusive", async () => {
      const page = await queried.audit.query({ from: at(5000), to: at(8000) });
      expect(page.entries.map((entry) => entry.executionId)).toEqual(["q-07", "q-06", "q-05"]);
      expect(await queried.audit.count({ from: at(25_000) })).toBe(6);
    });

    it("pages with a cursor through every row exactly once", async () => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page: Awaited<ReturnType<typeof queried.audit.query>> = await queried.audit.query({
          limit: 7,
          ...(cursor === undefined ? {} : { cursor }),
        });
        seen.push(...page.entries.map((entry) => entry.executionId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(pages).toBe(5);
      expect(seen).toHaveLength(31);
      expect(new Set(seen).size).toBe(31);
      expect(seen).toEqual(
        (await queried.audit.query({ limit: 100 })).entries.map((e) => e.executionId),
      );
    });

    it("pages with limit and offset", async () => {
      const all = (await queried.audit.query({ limit: 1000 })).entries.map((e) => e.executionId);
      const page = await queried.audit.query({ limit: 5, offset: 10 });
      expect(page.entries.map((entry) => entry.executionId)).toEqual(all.slice(10, 15));
      expect(page.nextCursor).toBeDefined();
      const last = await queried.audit.query({ limit: 5, offset: 30 });
      expect(last.entries).toHaveLength(1);
      expect(last.nextCursor).toBeUndefined();
    });

    it("rejects a bad limit, offset, cursor, status or date", async () => {
      await expect(queried.audit.query({ limit: 1001 })).rejects.toThrow(InvalidAuditQueryError);
      await expect(queried.audit.query({ limit: 0 })).rejects.toMatchObject({ field: "limit" });
      await expect(queried.audit.query({ limit: 2.5 })).rejects.toMatchObject({ field: "limit" });
      await expect(queried.audit.query({ offset: -1 })).rejects.toMatchObject({ field: "offset" });
      await expect(queried.audit.query({ cursor: "not-a-cursor" })).rejects.toMatchObject({
        field: "cursor",
      });
      const { nextCursor } = await queried.audit.query({ limit: 1 });
      await expect(
        queried.audit.query({ cursor: nextCursor as string, offset: 1 }),
      ).rejects.toMatchObject({ field: "cursor" });
      await expect(
        queried.audit.count({ status: "finished" as AuditStatus }),
      ).rejects.toMatchObject({ code: "INVALID_AUDIT_QUERY", field: "status" });
      await expect(queried.audit.count({ from: new Date("nope") })).rejects.toMatchObject({
        field: "from",
      });
    });

    it("accepts the largest page", async () => {
      expect((await queried.audit.query({ limit: 1000 })).entries).toHaveLength(31);
    });
  });
});
