/**
 * Two trees' executors in one process, interleaved: what a change to the executor costs, measured
 * where a busy machine colours both sides alike. Not one of `npm run bench`'s targets.
 *
 *   git worktree add --detach /tmp/before <commit>   (and link its node_modules)
 *   npx tsx bench/executor-ab.ts /tmp/before .       [ROUNDS=15] [LICENSE=core]
 *
 * Each round runs 1,500 audited (SQLite, as executor.bench.ts) and 3,000 unaudited sequential
 * calls on each tree; prints CPU µs per call (medians) and the median per-round ratio B / A.
 * With LICENSE=core both executors get `staticLicense(LicenseTier.Core)`; otherwise none.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const trees = process.argv.slice(2, 4).map((t) => resolve(t));
if (trees.length !== 2) throw new Error("usage: npx tsx bench/executor-ab.ts <tree A> <tree B>");
const rounds = Number(process.env.ROUNDS ?? 15);
const parameters = { path: "src/app.ts", maxLines: 200 };

async function readLines(input: { path: string; maxLines?: number }) {
  return { path: input.path, lines: input.maxLines ?? 0 };
}

interface Executor {
  execute(input: unknown): Promise<{ success: boolean; errorMessage?: string }>;
}

async function setup(root: string, folder: string) {
  const ex = await import(`${root}/src/execution/index.ts`);
  const reg = await import(`${root}/src/registry/index.ts`);
  const schema = await import(`${root}/src/schema/index.ts`);
  const tools = await import(`${root}/src/tools/index.ts`);
  const store = await import(`${root}/src/store/index.ts`);
  const inputSchema = schema.JsonSchemaBuilder.create()
    .addString("path", "File path", { required: true, maxLength: 4096 })
    .addInteger("maxLines", "Most lines to read", { minimum: 1, maximum: 10_000 })
    .build();
  const registry = () =>
    new reg.ToolRegistry({
      tools: [
        tools.defineTool({
          id: "file-read",
          name: "Read File",
          description: "Reads a file",
          inputSchema,
          execute: (input: { path: string; maxLines?: number }) => readLines(input),
        }),
      ],
    });
  const opened = await store.openStore(`sqlite:${join(folder, `${trees.indexOf(root)}.db`)}`);
  const license =
    process.env.LICENSE === "core" ? { license: ex.staticLicense(ex.LicenseTier.Core) } : {};
  return {
    audited: new ex.ToolExecutor({ registry: registry(), audit: opened.audit, ...license }),
    bare: new ex.ToolExecutor({ registry: registry(), ...license }),
    close: () => opened.close(),
  };
}

async function sequential(executor: Executor, calls: number): Promise<number> {
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const result = await executor.execute({ toolName: "file-read", parameters });
    if (!result.success) throw new Error(`bench call failed: ${result.errorMessage}`);
  }
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / calls;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const folder = mkdtempSync(join(tmpdir(), "aintern-executor-ab-"));
try {
  const sides = await Promise.all(trees.map((tree) => setup(tree, folder)));
  for (const side of sides) {
    await sequential(side.audited, 3_000);
    await sequential(side.bare, 3_000);
  }
  const audited: number[][] = [[], []];
  const bare: number[][] = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (const [k, side] of sides.entries()) {
      audited[k]?.push(await sequential(side.audited, 1_500));
      bare[k]?.push(await sequential(side.bare, 3_000));
    }
  }
  for (const [k, tree] of trees.entries()) {
    console.log(
      `${tree}: audited ${median(audited[k] ?? []).toFixed(1)} µs, unaudited ${median(bare[k] ?? []).toFixed(1)} µs (CPU per call)`,
    );
  }
  const ratio = (series: number[][]) =>
    median((series[1] ?? []).map((b, i) => b / (series[0]?.[i] ?? Number.NaN))).toFixed(3);
  console.log(`B / A: audited ${ratio(audited)}, unaudited ${ratio(bare)}`);
  for (const side of sides) await side.close();
} finally {
  rmSync(folder, { recursive: true, force: true });
}
