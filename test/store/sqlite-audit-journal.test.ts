import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/index.js";
import { InflightJournal } from "../../src/store/inflight-journal.js";
import type { SqliteAuditLog } from "../../src/store/sqlite-audit-log.js";

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

  it("has every start of one tick in the journal before any of those begins resolves", async () => {
    const audit = store.audit as SqliteAuditLog;
    const path = audit.journalPath as string;
    const seen: number[] = [];
    const begins = [1, 2, 3].map((index) =>
      audit.begin(start(index)).then(() => {
        seen.push(InflightJournal.read(path).length);
      }),
    );
    await Promise.all(begins);
    expect(seen).toEqual([3, 3, 3]);
    const ids = InflightJournal.read(path).map((execution) => execution.executionId);
    expect(ids).toEqual(["exec-1", "exec-2", "exec-3"]);
    expect(readFileSync(path, "utf8").endsWith("\n")).toBe(true);
  });

  it("gives audit rows time-ordered version 7 ids", async () => {
    await store.audit.begin(start(1));
    const [line] = InflightJournal.read((store.audit as SqliteAuditLog).journalPath as string);
    expect(line?.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
  });
});
