/**
 * Console approvals: time from a decision given in the console to the waiting call starting
 * (the `ConsoleApprovalHandler` resolving), on SQLite (the waiter polls every 50 ms) and on
 * PostgreSQL (LISTEN/NOTIFY). The waiter and the deciding side use separate stores (SQLite:
 * two connections to one file; PostgreSQL: two pools), as two processes would.
 * Target: P95 under 250 ms on both.
 *
 *   npx tsx bench/console.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { ToolCallRequest } from "../src/calls/index.js";
import { ConsoleApprovalHandler, PendingApprovalStatus } from "../src/console/index.js";
import { RiskLevel } from "../src/core/index.js";
import { openStore, type Store } from "../src/store/index.js";

const rounds = 40;
const postgresUrl =
  process.env.AINTERN_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function measure(agent: Store, consoleSide: Store): Promise<number[]> {
  const handler = new ConsoleApprovalHandler({ approvals: agent.approvals });
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const request = new ToolCallRequest({
      providerCallId: `bench-${i}-${Date.now()}`,
      toolId: "append-line",
      parameters: { line: String(i) },
      riskLevel: RiskLevel.Medium,
    });
    let decidedAt = 0;
    const waiting = handler
      .requestApproval(request, new AbortController().signal)
      .then(() => performance.now() - decidedAt);
    let row: { id: string } | undefined;
    while (row === undefined) {
      [row] = await consoleSide.approvals.list({
        callKey: request.providerCallId ?? "",
        status: PendingApprovalStatus.Pending,
      });
      if (row === undefined) await new Promise((r) => setTimeout(r, 5));
    }
    // A random pause, so that the decision falls anywhere within the waiter's poll interval.
    await new Promise((r) => setTimeout(r, Math.random() * 60));
    decidedAt = performance.now();
    await consoleSide.approvals.decide(row.id, { approved: true }, "bench");
    times.push(await waiting);
  }
  return times.sort((a, b) => a - b);
}

export async function run(): Promise<boolean> {
  const folder = mkdtempSync(join(tmpdir(), "aintern-console-bench-"));
  const schema = `console_bench_${process.pid}`;
  const results: [string, number[]][] = [];
  try {
    const file = `sqlite:${join(folder, "bench.db")}`;
    const a = await openStore(file);
    const b = await openStore(file);
    results.push(["SQLite (poll)", await measure(a, b)]);
    await a.close();
    await b.close();
    const c = await openStore(postgresUrl, { schema });
    const d = await openStore(postgresUrl, { schema });
    results.push(["PostgreSQL (NOTIFY)", await measure(c, d)]);
    await c.close();
    await d.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
    const client = new pg.Client({ connectionString: postgresUrl });
    await client.connect().then(
      () => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`),
      () => undefined,
    );
    await client.end().catch(() => undefined);
  }
  let ok = true;
  console.log("| store | P50 | P95 | max | target P95 < 250 ms |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [name, times] of results) {
    const p95 = percentile(times, 95);
    ok &&= p95 < 250;
    console.log(
      `| ${name} | ${percentile(times, 50).toFixed(1)} ms | ${p95.toFixed(1)} ms | ${times[times.length - 1]?.toFixed(1)} ms | ${p95 < 250 ? "✓" : "✗"} |`,
    );
  }
  return ok;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  run().then((ok) => {
    process.exitCode = ok ? 0 : 1;
  });
}
