/**
 * Runs every benchmark under bench/ one after another, each in its own process so one bench's
 * warm-up, garbage and open handles do not colour the next. Exits non-zero if any bench misses
 * its target.
 *
 *   npm run bench               # all
 *   npm run bench -- executor   # only the benches whose file name contains "executor"
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const filter = process.argv[2];
const benches = readdirSync(here)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => filter === undefined || f.includes(filter))
  .sort();

const failed: string[] = [];
for (const bench of benches) {
  process.stdout.write(`\n### ${bench}\n`);
  const run = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", join(here, bench)], {
    stdio: "inherit",
  });
  if (run.status !== 0) failed.push(bench);
}
if (failed.length > 0) {
  process.stdout.write(`\nMissed targets or failed: ${failed.join(", ")}\n`);
  process.exitCode = 1;
} else {
  process.stdout.write(`\nAll ${benches.length} benchmarks met their targets.\n`);
}
