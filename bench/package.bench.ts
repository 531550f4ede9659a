/**
 * Package benchmark: what a new user pays for `import { defineTool } from "aintern"`.
 *
 * - Bundle: esbuild (platform node, minified, ESM) of a file that imports only `defineTool` from
 *   the built root. Target: at most 300 KB, and no better-sqlite3, pg or kysely code in it.
 * - Import time: a fresh Node process importing the built root, against one importing `zod` and
 *   `ajv` together, alternated in the same run. Target: at most 1.5x.
 *
 *     npm run build && npx tsx bench/package.bench.ts
 *
 * Exits non-zero when a target is missed. `run()` returns the figures.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The most the bundle of `defineTool` alone may weigh. */
export const maxBundleBytes = 300 * 1024;
/** The most importing the root may cost against zod + ajv. */
export const maxImportRatio = 1.5;
const forbiddenPackages = ["better-sqlite3", "pg", "kysely"];

export interface PackageBenchReport {
  readonly node: string;
  readonly date: string;
  readonly bundleBytes: number;
  readonly bundledForbidden: readonly string[];
  readonly rootImportMs: number;
  readonly zodAjvImportMs: number;
  readonly importRatio: number;
  readonly passed: boolean;
}

async function bundleDefineTool(): Promise<{ bytes: number; forbidden: string[] }> {
  const folder = mkdtempSync(join(tmpdir(), "aintern-bundle-"));
  try {
    const entry = join(folder, "entry.mjs");
    writeFileSync(
      entry,
      `import { defineTool } from ${JSON.stringify(join(root, "dist/index.js"))};\nconsole.log(typeof defineTool);\n`,
    );
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      minify: true,
      platform: "node",
      format: "esm",
      write: false,
      metafile: true,
      absWorkingDir: root,
      nodePaths: [join(root, "node_modules")],
      logLevel: "silent",
    });
    const inputs = Object.keys(result.metafile.inputs);
    const forbidden = forbiddenPackages.filter((name) =>
      inputs.some((input) => input.includes(`node_modules/${name}/`)),
    );
    return { bytes: result.outputFiles[0]?.contents.byteLength ?? 0, forbidden };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * CPU time (user + system) a fresh `node` spends importing `code`'s modules, in ms, per round.
 * CPU time rather than wall time: the machine is shared, and waiting for a core is not import
 * work.
 */
function importTimes(codes: readonly string[], rounds: number): number[][] {
  const times = codes.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    codes.forEach((code, i) => {
      const script = `const t = process.cpuUsage(); ${code}; const d = process.cpuUsage(t); console.log((d.user + d.system) / 1000);`;
      const child = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
        cwd: root,
        encoding: "utf8",
      });
      if (child.status !== 0) throw new Error(child.stderr);
      times[i]?.push(Number(child.stdout.trim()));
    });
  }
  return times;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

export async function run(rounds = 15): Promise<PackageBenchReport> {
  if (!existsSync(join(root, "dist/index.js"))) throw new Error("Run `npm run build` first.");
  const bundle = await bundleDefineTool();
  const rootUrl = pathToFileURL(join(root, "dist/index.js")).href;
  const [rootTimes = [], zodAjvTimes = []] = importTimes(
    [
      `await import(${JSON.stringify(rootUrl)})`,
      `await Promise.all([import("zod"), import("ajv")])`,
    ],
    rounds,
  );
  const rootImportMs = median(rootTimes);
  const zodAjvImportMs = median(zodAjvTimes);
  const importRatio = rootImportMs / zodAjvImportMs;
  return {
    node: process.version,
    date: new Date().toISOString(),
    bundleBytes: bundle.bytes,
    bundledForbidden: bundle.forbidden,
    rootImportMs,
    zodAjvImportMs,
    importRatio,
    passed:
      bundle.bytes <= maxBundleBytes &&
      bundle.forbidden.length === 0 &&
      importRatio <= maxImportRatio,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const report = await run();
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  console.log(`Node ${report.node}, ${report.date}`);
  console.log(
    `bundle of defineTool: ${kb(report.bundleBytes)} (target ≤ ${kb(maxBundleBytes)}); drivers in it: ${report.bundledForbidden.join(", ") || "none"}`,
  );
  console.log(
    `import root: ${report.rootImportMs.toFixed(1)} ms CPU; zod + ajv: ${report.zodAjvImportMs.toFixed(1)} ms CPU; ratio ${report.importRatio.toFixed(2)}x (target ≤ ${maxImportRatio}x)`,
  );
  console.log(report.passed ? "All targets met." : "A target was missed.");
  if (!report.passed) process.exitCode = 1;
}
