import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import { ToolErrorCode } from "../../src/core/index.js";
import {
  auditStatusFromCode,
  grantPermissions,
  LicenseTier,
  staticLicense,
  type ToolExecutionResult,
  type ToolExecutor,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchemaBuilder } from "../../src/schema/index.js";
import { sqliteTableName, TOOL_EXECUTIONS_TABLE } from "../../src/store/index.js";
import { type SqliteAuditLog, WRITE_BEHIND_MS } from "../../src/store/sqlite-audit-log.js";
import { MockTool } from "../../src/testing/index.js";
import {
  blockingTool,
  deferred,
  executorWith,
  gatedTool,
  openTempStore,
  type TempStore,
  waitFor,
} from "./support.js";

const table = sqliteTableName("agent_tools", TOOL_EXECUTIONS_TABLE);

interface RawRow {
  readonly execution_id: string;
  readonly tool_name: string;
  readonly status: number;
  readonly error_code: string | null;
  readonly batch_id: string | null;
  readonly parameters_json: string | null;
  readonly was_approved: number;
  readonly timed_out: number;
  readonly was_cancelled: number;
  readonly sandbox_id: string | null;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly conversation_id: string | null;
}

let temp: TempStore;
/** A second connection to the same file: a row it sees is committed. */
let reader: Database.Database;

/** Inserts the rows the store holds in its journal (write-behind), as any read through it does. */
function insertBehind(): void {
  (temp.store.audit as SqliteAuditLog).insertBehind();
}

beforeAll(async () => {
  temp = await openTempStore();
  reader = new Database(temp.path, { readonly: true });
});

afterAll(async () => {
  reader.close();
  await temp.dispose();
});

/** The committed rows of an execution, after the rows waiting in the journal are inserted. */
function rowsOf(executionId: string): RawRow[] {
  insertBehind();
  return rawRowsOf(executionId);
}

/** What another connection sees of an execution now. */
function rawRowsOf(executionId: string): RawRow[] {
  return reader
    .prepare(`SELECT * FROM "${table}" WHERE execution_id = ?`)
    .all(executionId) as RawRow[];
}

/** The one committed row of an execution, read the moment `execute` resolved. */
function onlyRow(result: ToolExecutionResult): RawRow {
  const rows = rowsOf(result.executionId);
  expect(rows).toHaveLength(1);
  const row = rows[0]!;
  expect(auditStatusFromCode(row.status)).toBe(result.status);
  return row;
}

function auditedExecutor(extra: Parameters<typeof executorWith>[1] = {}): ToolExecutor {
  const tools = [
    MockTool.succeeding("ok"),
    MockTool.failing("bad", "it broke"),
    MockTool.throwing("throws"),
    new MockTool({ id: "admin", requiredPermissions: ["admin"] }),
    new MockTool({
      id: "named",
      schema: JsonSchemaBuilder.create().addString("name", "Name", { required: true }).build(),
    }),
    new MockTool({ id: "guarded", requiresConfirmation: true }),
    blockingTool("slow"),
    MockTool.ignoringSignal("stubborn", 200),
  ];
  return executorWith(tools, {
    audit: temp.store.audit,
    authorizer: grantPermissions(),
    license: staticLicense(LicenseTier.Teams),
    ...extra,
  });
}

describe("ToolExecutor with a SQLite audit log: one row per execution, durable when execute resolves", () => {
  it("writes exactly one row, with its final status, for every kind of outcome", async () => {
    const executor = auditedExecutor();
    const outcomes: [ToolExecutionResult, string][] = [];
    const run = async (label: string, work: Promise<ToolExecutionResult>) => {
      const result = await work;
      // Checked at once: execute resolves only after the row is committed.
      onlyRow(result);
      outcomes.push([result, label]);
      return result;
    };

    await run("completed", executor.execute({ toolName: "ok" }));
    await run("failed", executor.execute({ toolName: "bad" }));
    await run("threw", executor.execute({ toolName: "throws" }));
    await run("not found", executor.execute({ toolName: "nope" }));
    await run("permission denied", executor.execute({ toolName: "admin" }));
    await run("validation error", executor.execute({ toolName: "named", parameters: {} }));
    await run("requires confirmation", executor.execute({ toolName: "guarded" }));
    await run(
      "denied",
      executor.execute({ toolName: "guarded" }, { confirmationCallback: () => false }),
    );
    await run("timeout", executor.execute({ toolName: "slow" }, { timeoutMs: 10 }));
    await run("stubborn timeout", executor.execute({ toolName: "stubborn" }, { timeoutMs: 10 }));
    // Cancelled once its tool runs (approved by then): executing alone may still be before that.
    const slow = executor.registry.getTool("slow") as MockTool;
    const slowRuns = slow.executedParameters.length;
    const cancelling = executor.execute({ toolName: "slow" }, { executionId: "to-cancel" });
    await waitFor(() => slow.executedParameters.length > slowRuns);
    executor.cancel("to-cancel");
    await run("cancelled", cancelling);
    await run(
      "cancelled before start",
      executor.execute({ toolName: "ok" }, {}, AbortSignal.abort()),
    );

    expect(outcomes.map(([r, label]) => `${label}: ${r.status}`)).toEqual([
      "completed: completed",
      "failed: failed",
      "threw: failed",
      "not found: failed",
      "permission denied: permissionDenied",
      "validation error: validationError",
      "requires confirmation: requiresConfirmation",
      "denied: denied",
      "timeout: timeout",
      "stubborn timeout: timeout",
      "cancelled: cancelled",
      "cancelled before start: cancelled",
    ]);
    const codes = outcomes.map(([r]) => rowsOf(r.executionId)[0]?.error_code);
    expect(codes).toEqual([
      null,
      null,
      "Error",
      ToolErrorCode.ToolNotFound,
      ToolErrorCode.PermissionDenied,
      ToolErrorCode.ValidationFailed,
      ToolErrorCode.ConfirmationRequired,
      ToolErrorCode.ConfirmationDenied,
      ToolErrorCode.Timeout,
      ToolErrorCode.Timeout,
      ToolErrorCode.Cancelled,
      ToolErrorCode.Cancelled,
    ]);
    const flags = (r: ToolExecutionResult) => {
      const row = rowsOf(r.executionId)[0]!;
      return [row.was_approved, row.timed_out, row.was_cancelled];
    };
    expect(flags(outcomes[0]![0])).toEqual([1, 0, 0]);
    expect(flags(outcomes[8]![0])).toEqual([1, 1, 0]);
    expect(flags(outcomes[10]![0])).toEqual([1, 0, 1]);
    expect(flags(outcomes[7]![0])).toEqual([0, 0, 0]);
  });

  it("writes a row for every batch item, NotRun ones included, with the batch id", async () => {
    const executor = auditedExecutor();

    const results = await executor.executeBatch(
      [{ toolName: "ok" }, { toolName: "bad" }, { toolName: "ok" }],
      { executionId: "audited-batch", continueOnFailure: false },
    );

    const rows = results.map(onlyRow);
    expect(rows.map((r) => r.batch_id)).toEqual([
      "audited-batch",
      "audited-batch",
      "audited-batch",
    ]);
    expect(rows.map((r) => r.error_code)).toEqual([null, null, ToolErrorCode.NotRun]);
    expect(rows[2]?.was_cancelled).toBe(1);
    expect(await temp.store.audit.count({ batchId: "audited-batch" })).toBe(3);
  });

  it("writes a row for a cancelled batch's skipped items and for a ConcurrencyLimit refusal", async () => {
    const gate = deferred();
    const count = { inFlight: 0, maxInFlight: 0, started: 0 };
    const executor = executorWith(
      [gatedTool("gated", () => gate.promise, count), MockTool.succeeding("ok")],
      {
        audit: temp.store.audit,
        options: { maxConcurrentExecutions: 1, maxQueuedExecutions: 0 },
      },
    );
    const controller = new AbortController();

    const batch = executor.executeBatch(
      [{ toolName: "gated" }, { toolName: "ok" }],
      {},
      controller.signal,
    );
    await waitFor(() => count.started === 1);
    const refused = await executor.execute({ toolName: "ok" });
    controller.abort();
    const results = await batch;
    gate.resolve();

    expect(onlyRow(refused).error_code).toBe(ToolErrorCode.ConcurrencyLimit);
    expect(results.map((r) => onlyRow(r).error_code)).toEqual([
      ToolErrorCode.Cancelled,
      ToolErrorCode.NotRun,
    ]);
  });

  it("records parameters only when logParameters is on", async () => {
    const redacting = auditedExecutor();
    const logging = auditedExecutor({ options: { logParameters: true } });

    const hidden = await redacting.execute({ toolName: "ok", parameters: { secret: "x1" } });
    const shown = await logging.execute({ toolName: "ok", parameters: { secret: "x1" } });
    const invalid = await redacting.execute({ toolName: "named", parameters: { name: 7 } });

    expect(onlyRow(hidden).parameters_json).toBeNull();
    expect(JSON.parse(onlyRow(shown).parameters_json ?? "null")).toEqual({ secret: "x1" });
    const entry = await temp.store.audit.get(invalid.executionId);
    expect(invalid.errorMessage).toContain("7");
    expect(entry?.errorMessage).toBe("name (type_mismatch)");
  });

  it("records the sandbox, the result summary and who the execution ran for", async () => {
    const executor = auditedExecutor();

    const lexichord = await executor.execute(
      { toolName: "ok" },
      { context: { userId: "user-1", agentId: "agent-1", conversationId: "conv-1" } },
    );
    const context = ToolExecutionContextBuilder.create()
      .withSessionId("session-9")
      .withMetadata("userId", "user-2")
      .buildForTesting();
    const aintern = await executor.execute("ok", context);

    expect(onlyRow(lexichord)).toMatchObject({
      sandbox_id: "in-process",
      user_id: "user-1",
      agent_id: "agent-1",
      conversation_id: "conv-1",
    });
    expect(onlyRow(aintern)).toMatchObject({ user_id: "user-2", conversation_id: "session-9" });
    const entry = await temp.store.audit.get(lexichord.executionId);
    expect(entry?.resultSummary).toBe("Success: Operation completed successfully");
    expect(entry?.durationMs).toBe(Math.round(lexichord.durationMs));
  });

  it("leaves evidence on disk before the tool runs, and the row once it has finished", async () => {
    const gate = deferred();
    let evidence = "";
    const journalText = () =>
      readdirSync(dirname(temp.path))
        .filter((name) => name.includes("-inflight."))
        .map((name) => readFileSync(join(dirname(temp.path), name), "utf8"))
        .join("");
    const tool = new MockTool({
      id: "watched",
      executeFunc: async () => {
        evidence = journalText();
        await gate.promise;
        return ToolResult.succeeded();
      },
    });
    const executor = executorWith([tool], { audit: temp.store.audit });

    const task = executor.execute({ toolName: "watched" }, { executionId: "evidence-1" });
    await waitFor(() => evidence !== "");
    expect(rowsOf("evidence-1")).toHaveLength(0);
    gate.resolve();
    const result = await task;

    expect(evidence).toContain("evidence-1");
    expect(onlyRow(result).tool_name).toBe("watched");
  });

  it("has the finished row in the journal when execute resolves, and in the table soon after without any read", async () => {
    const journalText = () =>
      readdirSync(dirname(temp.path))
        .filter((name) => name.includes("-inflight."))
        .map((name) => readFileSync(join(dirname(temp.path), name), "utf8"))
        .join("");
    const executor = auditedExecutor();
    insertBehind();

    const result = await executor.execute({ toolName: "ok" }, { executionId: "behind-1" });

    // Durable at once: the done line is written before execute resolves.
    const done = journalText()
      .split("\n")
      .filter((line) => line.startsWith('{"done":') && line.includes('"behind-1"'));
    expect(done).toHaveLength(1);
    expect(rawRowsOf("behind-1")).toHaveLength(0);
    // In the table within the write-behind delay, with no read through the store to prompt it.
    const inserted = Date.now();
    await waitFor(() => rawRowsOf("behind-1").length === 1);
    expect(Date.now() - inserted).toBeLessThan(WRITE_BEHIND_MS + 1_000);
    expect(auditStatusFromCode(rawRowsOf("behind-1")[0]!.status)).toBe(result.status);
  });

  it("audits concurrent executions each once (group commit)", async () => {
    const executor = auditedExecutor({ options: { maxConcurrentExecutions: 16 } });

    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) =>
        executor.execute({ toolName: i % 2 === 0 ? "ok" : "bad" }),
      ),
    );

    for (const result of results) onlyRow(result);
  });
});
