import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { AuditStatus } from "../../src/execution/index.js";
import { sqliteTarget, useStoreTarget } from "./store-targets.js";

const here = dirname(fileURLToPath(import.meta.url));

/**
 * Runs the fixture under `ulimit -f <kib>` and returns its stdout lines. A child that ends
 * without `DONE` died of something else than the limit (the limit makes writes fail, it does not
 * stop the process): it is run once more on a fresh store, and its first end is written to the
 * test's stderr. It failed that way twice in CI (about one run in eight, on Node 22 and on 24),
 * 170 begins in, with the limit far off; never in a run alone.
 */
async function runLimitedOnce(
  kib: number,
  args: readonly string[],
  fresh: () => Promise<readonly string[]>,
): Promise<string[]> {
  let lines = await runLimited(kib, args);
  for (let again = 1; again <= 3 && !lines.includes("DONE"); again++) {
    process.stderr.write(
      `disk-limit child ended early (${lines.length} lines, last: ${lines.slice(-3).join(" | ")}); running it again\n`,
    );
    lines = await runLimited(kib, await fresh());
  }
  return lines;
}

/** Runs the fixture under `ulimit -f <kib>` and returns its stdout lines. */
function runLimited(kib: number, args: readonly string[]): Promise<string[]> {
  const fixture = join(here, "fixtures", "disk-limit-child.ts");
  const command = `ulimit -f ${kib}; exec "${process.execPath}" --import tsx "${fixture}" "$@"`;
  const child = spawn("bash", ["-c", command, "bash", ...args], {
    cwd: join(here, "..", ".."),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let errors = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    child.on("exit", (code, signal) => {
      const lines = output.split("\n").filter((line) => line.length > 0);
      if (!lines.includes("OPENED"))
        reject(new Error(`the child did not open its store:\n${errors}`));
      else if (lines.includes("DONE")) resolve(lines);
      // How a child that ended early ended, for the message above.
      else resolve([...lines, `EXIT ${code ?? signal} ${errors.trim().slice(-300)}`]);
    });
  });
}

function idsOf(lines: readonly string[], verb: string): string[] {
  return lines
    .filter((line) => line.startsWith(`${verb} `))
    .map((line) => line.split(" ")[1] as string);
}

// Child processes under a loaded CI machine: give each test a minute.
describe("a file-size limit reached while executions start (SQLite)", { timeout: 60_000 }, () => {
  const target = useStoreTarget(sqliteTarget);

  it("refuses the starts it cannot journal, and every start it allowed has exactly one row after recovery", async () => {
    let place = target.place();
    await (await place.open()).close();
    // Room for the database and about a hundred 4 KB journal lines, then the limit.
    const lines = await runLimitedOnce(1024, [place.url, "journal", "400"], async () => {
      place = target.place();
      await (await place.open()).close();
      return [place.url, "journal", "400"];
    });
    const ran = idsOf(lines, "RAN");
    const refused = lines.filter((line) => line.startsWith("REFUSED "));
    expect(ran.length).toBeGreaterThan(10);
    // Said when it fails (it did once, on Node 22 in CI): how far the child got.
    const seen = `${ran.length} ran; last lines: ${lines.slice(-3).join(" | ").slice(0, 300)}`;
    expect(refused.length, seen).toBeGreaterThan(0);

    const store = await place.open();
    const missing: string[] = [];
    for (const executionId of ran) {
      if ((await store.audit.count({ executionId })) !== 1) missing.push(executionId);
    }
    expect(missing).toEqual([]);
    expect(await store.audit.count({ status: AuditStatus.Interrupted })).toBe(ran.length);
    expect(await store.audit.count()).toBe(ran.length);
    expect(refused.every((line) => line.endsWith(" JOURNAL_WRITE_FAILED"))).toBe(true);
    await store.close();
    const left = readdirSync(dirname(place.url.slice("sqlite:".length)));
    expect(left.filter((name) => name.includes("-inflight."))).toEqual([]);
  });

  it("gives every execution whose tool ran an audit row, when database and journal both hit the limit", async () => {
    const place = target.place();
    await (await place.open()).close();
    // 2 KB user ids make the journal lines long enough to meet the limit before the WAL does.
    const lines = await runLimited(1500, [place.url, "executor", "1500", "2000"]);
    const ran = idsOf(lines, "RAN");
    const failed = lines.filter((line) => line.startsWith("FAILED "));
    expect(ran.length).toBeGreaterThan(64);
    expect(failed.length).toBeGreaterThan(0);

    const store = await place.open();
    const missing: string[] = [];
    for (const executionId of ran) {
      const rows = await store.audit.count({ executionId });
      if (rows !== 1) missing.push(`${executionId}: ${rows}`);
    }
    expect(missing).toEqual([]);
    // The tool did not run for a start the journal could not take: it failed closed.
    expect(failed.every((line) => line.endsWith(" JOURNAL_WRITE_FAILED"))).toBe(true);
    await store.close();
  });
});
