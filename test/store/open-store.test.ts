import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolCallStatus } from "../../src/calls/index.js";
import { AinternError, RiskLevel } from "../../src/core/index.js";
import { AuditStatus } from "../../src/execution/index.js";
import {
  InvalidStoreOptionsError,
  InvalidStoreUrlError,
  openStore,
  StoreClosedError,
  StoreOpenError,
  sqliteTableName,
  storeIndexName,
  TOOL_CALLS_INDEXES,
  TOOL_CALLS_TABLE,
  TOOL_EXECUTIONS_INDEXES,
  TOOL_EXECUTIONS_TABLE,
  TOOL_PERMISSIONS_INDEXES,
  TOOL_PERMISSIONS_TABLE,
  toolExecutionsIndexName,
} from "../../src/store/index.js";
import { toolCallRecord } from "./fixtures/tool-call-records.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

const startedAt = new Date(Date.UTC(2026, 1, 4));

describe("openStore URLs and options", () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "aintern-open-store-"));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it.each([
    ["mysql://root@localhost/db", "mysql:"],
    ["file:./audit.db", "file:"],
    ["SQLITE3:./x.db", "sqlite3:"],
  ])("rejects %s, naming its scheme and the accepted forms", async (url, scheme) => {
    const error = await openStore(url).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidStoreUrlError);
    expect(error).toMatchObject({ code: "INVALID_STORE_URL", scheme });
    const message = (error as Error).message;
    expect(message).toContain(`"${scheme}"`);
    expect(message).toContain("sqlite:<file>");
    expect(message).toContain("sqlite::memory:");
    expect(message).toContain("postgres://");
    expect(message).toContain("postgresql://");
    expect(AinternError.isInstance(error)).toBe(true);
  });

  it("rejects a URL without a scheme, an empty one, and sqlite without a file", async () => {
    await expect(openStore("./audit.db")).rejects.toMatchObject({
      code: "INVALID_STORE_URL",
      scheme: undefined,
    });
    await expect(openStore("")).rejects.toThrow(/empty/);
    await expect(openStore("sqlite:")).rejects.toThrow(/names no database file/);
    await expect(openStore("sqlite:///tmp/x.db")).rejects.toThrow(/right after "sqlite:"/);
    await expect(openStore("postgres://")).rejects.toThrow(/names no host/);
  });

  it("hides the password of a URL it rejects", async () => {
    const error = (await openStore("mysql://root:s3cret@db/app").catch((e: unknown) => e)) as Error;
    expect(error.message).not.toContain("s3cret");
    expect(error.message).toContain("mysql://root:***@db/app");
  });

  it("rejects a schema that is not a plain identifier, and bad sizes", async () => {
    for (const schema of ["agent-tools", "1abc", "a.b", 'x"; drop table y; --', "x".repeat(41)]) {
      await expect(openStore("sqlite::memory:", { schema })).rejects.toThrow(
        InvalidStoreOptionsError,
      );
    }
    await expect(openStore("sqlite::memory:", { poolSize: 0 })).rejects.toMatchObject({
      code: "INVALID_STORE_OPTIONS",
      option: "poolSize",
    });
    await expect(openStore("sqlite::memory:", { busyTimeoutMs: -1 })).rejects.toMatchObject({
      option: "busyTimeoutMs",
    });
  });

  it("opens sqlite::memory: with no journal and nothing to recover", async () => {
    const store = await openStore("sqlite::memory:");
    expect(store.dialect).toBe("sqlite");
    await store.audit.begin({ executionId: "m-1", toolName: "t", startedAt });
    await store.audit.complete({
      executionId: "m-1",
      toolName: "t",
      status: AuditStatus.Completed,
      startedAt,
      completedAt: startedAt,
    });
    expect(await store.audit.count()).toBe(1);
    expect(await store.audit.recoverInterrupted()).toBe(0);
    await store.close();
  });

  it("opens a relative sqlite path against the working directory and creates its folder", async () => {
    const absolute = join(folder, "nested", "deeper", "rel.db");
    const store = await openStore(`sqlite:${relative(process.cwd(), absolute)}`);
    await store.close();
    const again = await openStore(`sqlite:${absolute}`);
    expect(await again.audit.count()).toBe(0);
    await again.close();
  });

  it("reports a file that is not a database as StoreOpenError", async () => {
    const path = join(folder, "not-a-db.db");
    writeFileSync(path, "this is plainly not a SQLite database file, just some text ".repeat(100));
    await expect(openStore(`sqlite:${path}`)).rejects.toMatchObject({
      code: "STORE_OPEN_FAILED",
    });
  });

  it("reports an unreachable PostgreSQL server as StoreOpenError without its password", async () => {
    const error = await openStore("postgresql://u:pw@127.0.0.1:1/none").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreOpenError);
    expect((error as Error).message).toContain("postgresql://u:***@127.0.0.1:1/none");
    expect((error as Error).message).not.toContain(":pw@");
  });
});

describe.each(storeTargets)("openStore on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("runs the migrations once: opening twice keeps rows and applies nothing twice", async () => {
    const place = target.place();
    const first = await place.open();
    await first.audit.complete({
      executionId: "keep-1",
      toolName: "t",
      status: "completed",
      startedAt,
      completedAt: startedAt,
    });
    await first.close();
    const second = await place.open();
    expect(await second.audit.count()).toBe(1);
    await second.close();
    const migrations =
      target.dialect === "sqlite"
        ? await target.rawQuery(place, `SELECT name FROM "agent_tools_kysely_migration"`)
        : await target.rawQuery(place, `SELECT name FROM "${place.schema}".kysely_migration`);
    expect(migrations.map((row) => row.name)).toEqual([
      "2026_02_04_003_create_tool_executions",
      "2026_02_05_001_add_tool_executions_outcome_columns",
      "2026_02_05_002_create_tool_executions_inflight",
      "2026_11_25_001_create_tool_permissions",
      "2026_11_25_002_create_tool_calls",
      "2026_11_26_issue11_001_key_tool_calls_by_session",
      "2026_11_26_issue11_002_add_tool_executions_decision_columns",
      "2026_11_26_issue14_001_create_console_tables",
      "2026_11_27_001_create_tool_definitions",
    ]);
  });

  it("keeps permissions and calls across reopens: migrating again applies nothing and loses nothing", async () => {
    const place = target.place();
    const first = await place.open();
    await first.permissions.add({
      id: "g-1",
      toolId: "t",
      scope: "tool",
      maxRiskLevel: RiskLevel.Low,
      createdAt: startedAt,
    });
    await first.calls.save({
      callId: "c-1",
      record: toolCallRecord("c-1", ToolCallStatus.Approved),
    });
    await first.close();
    for (let round = 0; round < 2; round++) {
      const again = await place.open();
      expect((await again.permissions.list()).map((grant) => grant.id)).toEqual(["g-1"]);
      expect((await again.calls.get("c-1"))?.record.status).toBe(ToolCallStatus.Approved);
      await again.close();
    }
  });

  it("creates tool_permissions and tool_calls under their mapped names with their indexes", async () => {
    const place = target.place();
    const store = await place.open();
    await store.close();
    const expected = [
      ...TOOL_CALLS_INDEXES.map((column) => [TOOL_CALLS_TABLE, column] as const),
      ...TOOL_PERMISSIONS_INDEXES.map((column) => [TOOL_PERMISSIONS_TABLE, column] as const),
    ];
    if (target.dialect === "sqlite") {
      const tables = await target.rawQuery(
        place,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN (?, ?) ORDER BY name",
        [
          sqliteTableName("agent_tools", TOOL_CALLS_TABLE),
          sqliteTableName("agent_tools", TOOL_PERMISSIONS_TABLE),
        ],
      );
      expect(tables.map((row) => row.name)).toEqual([
        "agent_tools_tool_calls",
        "agent_tools_tool_permissions",
      ]);
      const indexes = await target.rawQuery(
        place,
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name IN (?, ?) AND sql IS NOT NULL ORDER BY name",
        ["agent_tools_tool_calls", "agent_tools_tool_permissions"],
      );
      expect(indexes.map((row) => row.name)).toEqual(
        expected
          .map(([table, column]) => storeIndexName("sqlite", "agent_tools", table, column))
          .sort(),
      );
      expect(indexes.map((row) => row.name)).toContain("IX_agent_tools_tool_permissions_tool_key");
    } else {
      const indexes = await target.rawQuery(
        place,
        "SELECT indexname FROM pg_indexes WHERE schemaname = $1 AND tablename IN ($2, $3) AND indexname LIKE 'IX_%' ORDER BY indexname",
        [place.schema, TOOL_CALLS_TABLE, TOOL_PERMISSIONS_TABLE],
      );
      expect(indexes.map((row) => row.indexname)).toEqual([
        "IX_tool_calls_seq",
        "IX_tool_calls_session_id",
        "IX_tool_calls_status",
        "IX_tool_permissions_tool_key",
      ]);
    }
    const columns = async (table: string) =>
      target.dialect === "sqlite"
        ? (
            await target.rawQuery(
              place,
              `PRAGMA table_info("${sqliteTableName("agent_tools", table)}")`,
            )
          ).map((row) => row.name)
        : (
            await target.rawQuery(
              place,
              "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2 ORDER BY ordinal_position",
              [place.schema, table],
            )
          ).map((row) => row.column_name);
    expect(await columns(TOOL_PERMISSIONS_TABLE)).toEqual([
      "id",
      "tool_id",
      "tool_key",
      "scope",
      "session_id",
      "pattern",
      "pattern_kind",
      "max_risk_level",
      "workspace_path",
      "created_at",
      "expires_at",
      "granted_by",
    ]);
    expect(await columns(TOOL_CALLS_TABLE)).toEqual([
      "call_id",
      "session_id",
      "status",
      "record_json",
      "updated_at",
      "owner",
      "seq",
    ]);
  });

  it("creates the audit table under its mapped name with the five indexes and the decision ones", async () => {
    const place = target.place();
    const store = await place.open();
    await store.close();
    if (target.dialect === "sqlite") {
      const tables = await target.rawQuery(
        place,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?",
        [sqliteTableName("agent_tools", TOOL_EXECUTIONS_TABLE)],
      );
      expect(tables).toEqual([{ name: "agent_tools_tool_executions" }]);
      const indexes = await target.rawQuery(
        place,
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL ORDER BY name",
        ["agent_tools_tool_executions"],
      );
      expect(indexes.map((row) => row.name)).toEqual(
        [...TOOL_EXECUTIONS_INDEXES.map((index) => index.column), "session_id", "decision"]
          .map((column) => toolExecutionsIndexName("sqlite", "agent_tools", column))
          .sort(),
      );
      const startedIndex = indexes.find((row) => String(row.name).endsWith("started_at"));
      expect(String(startedIndex?.sql)).toMatch(/"started_at" desc/i);
    } else {
      const indexes = await target.rawQuery(
        place,
        "SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE 'IX_%' ORDER BY indexname",
        [place.schema, TOOL_EXECUTIONS_TABLE],
      );
      expect(indexes.map((row) => row.indexname)).toEqual([
        "IX_tool_executions_batch_id",
        "IX_tool_executions_decision",
        "IX_tool_executions_execution_id",
        "IX_tool_executions_session_id",
        "IX_tool_executions_started_at",
        "IX_tool_executions_status",
        "IX_tool_executions_tool_name",
      ]);
      const startedIndex = indexes.find((row) => row.indexname === "IX_tool_executions_started_at");
      expect(String(startedIndex?.indexdef)).toMatch(/started_at DESC/);
      const inflight = await target.rawQuery(
        place,
        "SELECT relpersistence FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relname = 'tool_executions_inflight'",
        [place.schema],
      );
      expect(inflight).toEqual([{ relpersistence: "u" }]);
    }
  });

  it("has the spec's columns plus the outcome and decision columns", async () => {
    const place = target.place();
    const store = await place.open();
    await store.close();
    const columns =
      target.dialect === "sqlite"
        ? (await target.rawQuery(place, `PRAGMA table_info("agent_tools_tool_executions")`)).map(
            (row) => row.name,
          )
        : (
            await target.rawQuery(
              place,
              "SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'tool_executions' ORDER BY ordinal_position",
              [place.schema],
            )
          ).map((row) => row.column_name);
    expect(columns).toEqual([
      "id",
      "execution_id",
      "tool_name",
      "parameters_json",
      "status",
      "error_message",
      "error_code",
      "started_at",
      "completed_at",
      "duration_ms",
      "output_size_bytes",
      "sandbox_id",
      "agent_id",
      "user_id",
      "batch_id",
      "metadata_json",
      "conversation_id",
      "result_summary",
      "was_approved",
      "timed_out",
      "was_cancelled",
      "call_id",
      "session_id",
      "decision",
      "decided_by",
      "approval_scope",
      "grant_id",
      "arguments_hash",
      "edited_arguments_hash",
    ]);
  });

  it("keeps two schemas of one database apart", async () => {
    const place = target.place();
    const other = target.dialect === "sqlite" ? "audit_b" : `${place.schema}_b`;
    const first = await place.open();
    const second = await place.open({ schema: other });
    expect(second.schema).toBe(other);
    await second.audit.complete({
      executionId: "b-only",
      toolName: "t",
      status: "completed",
      startedAt,
      completedAt: startedAt,
    });
    expect(await first.audit.count()).toBe(0);
    expect(await second.audit.count()).toBe(1);
    await second.close();
    if (target.dialect === "postgres") {
      await target.rawQuery(place, `DROP SCHEMA "${other}" CASCADE`);
    } else {
      const tables = await target.rawQuery(
        place,
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'audit_b_%' ORDER BY name",
      );
      expect(tables.map((row) => row.name)).toEqual([
        "audit_b_kysely_migration",
        "audit_b_kysely_migration_lock",
        "audit_b_pending_approvals",
        "audit_b_running_executions",
        "audit_b_tool_calls",
        "audit_b_tool_definitions",
        "audit_b_tool_executions",
        "audit_b_tool_permissions",
      ]);
    }
  });

  it("throws StoreClosedError from every audit call after close, and closes twice quietly", async () => {
    const store = await target.place().open();
    expect(store.closed).toBe(false);
    await store.close();
    await store.close();
    expect(store.closed).toBe(true);
    const calls = [
      () => store.audit.begin({ executionId: "c", toolName: "t", startedAt }),
      () =>
        store.audit.complete({
          executionId: "c",
          toolName: "t",
          status: "completed",
          startedAt,
          completedAt: startedAt,
        }),
      () => store.audit.get("c"),
      () => store.audit.query(),
      () => store.audit.count(),
      () => store.audit.recoverInterrupted(),
    ];
    for (const call of calls) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(StoreClosedError);
      expect(error).toMatchObject({ code: "STORE_CLOSED" });
      expect((error as StoreClosedError).operation).toMatch(/^audit\./);
    }
  });

  it("commits completes that were queued when close was called", async () => {
    const place = target.place();
    const store = await place.open();
    const pending = Array.from({ length: 20 }, (_, index) =>
      store.audit.complete({
        executionId: `late-${index}`,
        toolName: "t",
        status: "completed",
        startedAt,
        completedAt: startedAt,
      }),
    );
    await store.close();
    await Promise.all(pending);
    const reopened = await place.open();
    expect(await reopened.audit.count()).toBe(20);
  });
});
