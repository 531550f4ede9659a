import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { InflightJournal } from "../../src/store/inflight-journal.js";
import {
  AUDIT_INSERT_FAILED_WARNING,
  type SqliteAuditLog,
} from "../../src/store/sqlite-audit-log.js";

const here = dirname(fileURLToPath(import.meta.url));

function finish(executionId: string, toolName: string) {
  const startedAt = new Date();
  return {
    executionId,
    toolName,
    status: "completed" as const,
    startedAt,
    completedAt: new Date(),
  };
}

function start(index: number) {
  return {
    executionId: `exec-${index}`,
    toolName: "tool",
    startedAt: new Date(Date.UTC(2026, 1, 4, 0, 0, index)),
  };
}

describe("SqliteAuditLog journal", () => {
  let folder: string;
  let store: Store;

  beforeEach(async () => {
    folder = mkdtempSync(join(tmpdir(), "aintern-sqlite-journal-"));
    store = await openStore(`sqlite:${join(folder, "a.db")}`);
  });

  afterEach(async () => {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("has each start in the journal before its begin resolves, and writes the starts of one tick beside others in flight together", async () => {
    const audit = store.audit as SqliteAuditLog;
    const path = audit.journalPath as string;
    const seen: number[] = [];
    const begins = [1, 2, 3].map((index) =>
      audit.begin(start(index)).then(() => {
        seen.push(InflightJournal.read(path).length);
      }),
    );
    await Promise.all(begins);
    // The first start, alone, is written by its begin; the two begun while it is in flight
    // share one write, made before either of them resolves.
    expect(seen).toEqual([1, 3, 3]);
    const ids = InflightJournal.read(path).map((execution) => execution.executionId);
    expect(ids).toEqual(["exec-1", "exec-2", "exec-3"]);
    expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
  });

  it("writes the lines of a lone execution as it begins and completes, before either returns", async () => {
    const audit = store.audit as SqliteAuditLog;
    const path = audit.journalPath as string;
    const begun = audit.begin(start(1));
    // Nothing else in flight: no group write to wait for, the line is there already.
    expect(InflightJournal.read(path).map((e) => e.executionId)).toEqual(["exec-1"]);
    await begun;
    const completed = audit.complete(finish("exec-1", "tool"));
    const lines = readFileSync(path, "utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^\{"done":\[.*"exec-1"/);
    await completed;
    expect((await audit.get("exec-1"))?.status).toBe("completed");
  });

  it("gives audit rows time-ordered version 7 ids", async () => {
    await store.audit.begin(start(1));
    const [line] = InflightJournal.read((store.audit as SqliteAuditLog).journalPath as string);
    expect(line?.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });

  it("keeps a row the table refuses in the journal, warns, and inserts it on the next open", async () => {
    const database = join(folder, "a.db");
    const admin = new Database(database);
    admin.exec(
      `CREATE TRIGGER refuse BEFORE INSERT ON agent_tools_tool_executions
       WHEN NEW.tool_name = 'refused' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      if ((warning as { code?: string }).code === AUDIT_INSERT_FAILED_WARNING)
        warnings.push(warning);
    };
    process.on("warning", onWarning);
    try {
      await store.audit.complete(finish("kept-1", "refused"));
      await store.audit.complete(finish("fine-1", "accepted"));
      // A read inserts what waits: the accepted row goes in, the refused one stays in the journal.
      expect(await store.audit.count({ executionId: "fine-1" })).toBe(1);
      expect(await store.audit.count({ executionId: "kept-1" })).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message).join("\n")).toMatch(/kept-1.*refused by the test/);
      const journal = (store.audit as SqliteAuditLog).journalPath as string;
      expect(readFileSync(journal, "utf8")).toContain('"kept-1"');

      admin.exec("DROP TRIGGER refuse");
      await store.close();
      expect(existsSync(journal)).toBe(true);
      store = await openStore(`sqlite:${database}`);
      expect(await store.audit.count({ executionId: "kept-1" })).toBe(1);
      expect((await store.audit.get("kept-1"))?.status).toBe("completed");
      expect(existsSync(journal)).toBe(false);
    } finally {
      process.off("warning", onWarning);
      admin.close();
    }
  });

  it("inserts the rows waiting in the journal when the process exits", () => {
    const database = join(folder, "exit.db");
    const child = spawnSync(
      process.execPath,
      ["--import", "tsx", join(here, "fixtures", "exit-child.ts"), `sqlite:${database}`],
      { cwd: join(here, "..", ".."), encoding: "utf8", timeout: 30_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    // Read without opening a store (which would recover the journal): the exit inserted it.
    const raw = new Database(database, { readonly: true });
    const row = raw
      .prepare("SELECT status FROM agent_tools_tool_executions WHERE execution_id = ?")
      .get("exited-1");
    raw.close();
    expect(row).toBeDefined();
    expect(readdirSync(folder).some((name) => name.startsWith("exit.db-inflight."))).toBe(true);
  });
});
