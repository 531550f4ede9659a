import { spawnSync } from "node:child_process";
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { InflightExecution } from "../../src/store/audit-row.js";
import { InflightJournal } from "../../src/store/inflight-journal.js";

function execution(index: number, parameters: string | null = null): InflightExecution {
  return {
    id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
    executionId: `exec-${index}`,
    toolName: "tool",
    startedAt: new Date(Date.UTC(2026, 1, 4, 0, 0, index)),
    parametersJson: parameters,
    batchId: index % 2 === 0 ? "batch" : null,
    userId: "user",
    agentId: null,
    conversationId: null,
    sandboxId: null,
    metadataJson: null,
  };
}

/** A pid that surely belongs to no running process: one that has just exited. */
function deadPid(): number {
  const result = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]);
  return Number(result.stdout.toString());
}

describe("InflightJournal", () => {
  let folder: string;

  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), "aintern-journal-"));
  });

  afterAll(() => {
    rmSync(folder, { recursive: true, force: true });
  });

  it("appends one line per start and reads them back", () => {
    const database = join(folder, "a.db");
    const journal = new InflightJournal(database);
    expect(existsSync(journal.path)).toBe(false);
    journal.append(execution(1, '{"q":"ü"}'));
    journal.append(execution(2));
    expect(readFileSync(journal.path, "utf8").split("\n")).toHaveLength(3);
    expect(InflightJournal.read(journal.path)).toEqual([execution(1, '{"q":"ü"}'), execution(2)]);
    journal.close(2);
    expect(existsSync(journal.path)).toBe(true);
    InflightJournal.remove(journal.path);
    InflightJournal.remove(journal.path);
    expect(existsSync(journal.path)).toBe(false);
  });

  it("removes its file on a close with nothing in flight", () => {
    const journal = new InflightJournal(join(folder, "b.db"));
    journal.append(execution(1));
    journal.close(0);
    expect(existsSync(journal.path)).toBe(false);
  });

  it("empties itself past 64 KiB once nothing is in flight, and not before", () => {
    const journal = new InflightJournal(join(folder, "c.db"));
    const big = JSON.stringify({ blob: "x".repeat(1000) });
    for (let index = 0; index < 70; index++) journal.append(execution(index, big));
    journal.tidy(1, () => []);
    expect(statSync(journal.path).size).toBeGreaterThan(64 * 1024);
    journal.tidy(0, () => []);
    expect(statSync(journal.path).size).toBe(0);
    journal.append(execution(99));
    expect(InflightJournal.read(journal.path)).toEqual([execution(99)]);
    journal.close(0);
  });

  it("rewrites itself with only the live lines past 4 MiB", () => {
    const journal = new InflightJournal(join(folder, "d.db"));
    const big = JSON.stringify({ blob: "y".repeat(10_000) });
    let keep = "";
    for (let index = 0; index < 420; index++) {
      const line = journal.append(execution(index, big));
      if (index === 7) keep = line;
    }
    journal.tidy(1, () => [keep]);
    expect(InflightJournal.read(journal.path)).toEqual([execution(7, big)]);
    journal.append(execution(500));
    expect(InflightJournal.read(journal.path).map((item) => item.executionId)).toEqual([
      "exec-7",
      "exec-500",
    ]);
    journal.close(2);
  });

  it("skips torn and foreign lines", () => {
    const path = join(folder, "e.db-inflight.1.ab");
    writeFileSync(path, "");
    const line = JSON.stringify([
      execution(1).id,
      "exec-1",
      "tool",
      execution(1).startedAt.getTime(),
      null,
      "batch",
      "user",
      null,
      null,
      null,
      null,
    ]);
    appendFileSync(
      path,
      `${line}\n["torn", "line\n{"not":"an array"}\n[1,2,3,4,5,6,7,8,9,10,11]\n`,
    );
    appendFileSync(path, `["id","exec","tool","not a time",null,null,null,null,null,null,null]\n`);
    expect(InflightJournal.read(path)).toEqual([{ ...execution(1), batchId: "batch" }]);
    expect(InflightJournal.read(join(folder, "missing"))).toEqual([]);
  });

  it("finds the journals of dead processes and closed stores, not of live ones", () => {
    const database = join(folder, "f.db");
    const live = new InflightJournal(database);
    live.append(execution(1));
    const closed = new InflightJournal(database);
    closed.append(execution(2));
    closed.close(1);
    const dead = `${database}-inflight.${deadPid()}.abcdef`;
    writeFileSync(dead, "");
    const staleTemporary = `${database}-inflight.${deadPid()}.abcdef.tmp`;
    writeFileSync(staleTemporary, "");
    const parent = `${database}-inflight.${process.ppid}.abcdef`;
    writeFileSync(parent, "");
    writeFileSync(`${database}-inflight.not-a-journal`, "");
    writeFileSync(`${database}-wal-inflight.1.ab`, "");

    const orphans = InflightJournal.findOrphans(database);
    expect(orphans.sort()).toEqual([closed.path, dead].sort());
    expect(existsSync(staleTemporary)).toBe(false);
    live.close(0);
  });

  it("writes several lines made by lineOf with one write, read back like appended ones", () => {
    const journal = new InflightJournal(join(folder, "g.db"));
    journal.write(InflightJournal.lineOf(execution(1)) + InflightJournal.lineOf(execution(2)));
    journal.append(execution(3));
    expect(InflightJournal.read(journal.path)).toEqual([execution(1), execution(2), execution(3)]);
    journal.close(0);
    expect(existsSync(journal.path)).toBe(false);
  });
});
