/**
 * Registry benchmark: register 1,000 tools with realistic JsonSchemaBuilder schemas, then time
 * `getFunctionDefinitions()`: the first call (builds every definition) and 1,000 repeated calls
 * (reuse the cached list after one pass over the tools' availability).
 *
 *     npx tsx bench/registry.bench.ts
 *
 * Exits non-zero when the median repeated call takes 1 ms or more. `run()` returns the figures
 * for a bench runner.
 */
import { pathToFileURL } from "node:url";
import { allRiskLevels, allToolCategories } from "../src/core/index.js";
import { ToolRegistry } from "../src/registry/index.js";
import { type JsonSchema, JsonSchemaBuilder } from "../src/schema/index.js";
import { MockTool } from "../src/testing/index.js";

/** The repeated-call median must stay below this. */
export const maxRepeatedMedianMs = 1;

/** What {@link run} measured. */
export interface RegistryBenchReport {
  readonly node: string;
  readonly date: string;
  readonly toolCount: number;
  /** Registering every tool (id / schema checks, schema compilation), in total. */
  readonly registerAllMs: number;
  /** The first `getFunctionDefinitions()` after registration. */
  readonly firstCallMs: number;
  readonly repeatedCalls: number;
  readonly repeatedMedianMs: number;
  readonly repeatedP99Ms: number;
  readonly repeatedMaxMs: number;
  /** Whether {@link RegistryBenchReport.repeatedMedianMs} < {@link maxRepeatedMedianMs}. */
  readonly passed: boolean;
}

/** A schema of the size real tools have: 6-8 properties of mixed kinds, some required. */
function schemaFor(i: number): JsonSchema {
  const builder = JsonSchemaBuilder.create()
    .withDescription(`Parameters of tool ${i}`)
    .addString("path", "Path relative to the workspace root", {
      required: true,
      minLength: 1,
      maxLength: 4096,
    })
    .addString("query", "Text or pattern to look for", { pattern: "^[^\\u0000]*$" })
    .addEnum("mode", "How to match", ["literal", "regex", "glob"], { defaultValue: "literal" })
    .addInteger("maxResults", "Most results to return", {
      minimum: 1,
      maximum: 1000,
      defaultValue: 100,
    })
    .addBoolean("caseSensitive", "Match case", { defaultValue: false })
    .addStringArray("include", "Glob patterns to include", { maxItems: 32, uniqueItems: true });
  if (i % 2 === 0) builder.addNumber("timeoutSeconds", "Give up after", { minimum: 0.1 });
  if (i % 3 === 0) builder.addPath("output", "Where to write results", { mustExist: false });
  return builder.build();
}

function percentile(sorted: readonly number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)]!;
}

/** Runs the benchmark and returns its figures; prints nothing. */
export function run(
  options: { toolCount?: number; repeatedCalls?: number } = {},
): RegistryBenchReport {
  const toolCount = options.toolCount ?? 1_000;
  const repeatedCalls = options.repeatedCalls ?? 1_000;
  const tools = Array.from(
    { length: toolCount },
    (_, i) =>
      new MockTool({
        id: `tool-${i.toString().padStart(4, "0")}`,
        name: `Tool ${i}`,
        description: `Does task number ${i} in the workspace and reports what it found.`,
        category: allToolCategories[i % allToolCategories.length]!,
        riskLevel: allRiskLevels[i % allRiskLevels.length]!,
        tags: [`group-${i % 10}`, "bench"],
        schema: schemaFor(i),
      }),
  );

  const registry = new ToolRegistry();
  const registerStart = performance.now();
  registry.registerTools(tools);
  const registerAllMs = performance.now() - registerStart;

  const firstStart = performance.now();
  const first = registry.getFunctionDefinitions();
  const firstCallMs = performance.now() - firstStart;
  if (first.length !== toolCount) {
    throw new Error(`expected ${toolCount} definitions, got ${first.length}`);
  }

  const samples: number[] = [];
  for (let i = 0; i < repeatedCalls; i++) {
    const start = performance.now();
    const again = registry.getFunctionDefinitions();
    samples.push(performance.now() - start);
    if (again !== first) throw new Error("a repeated call rebuilt the definitions");
  }
  samples.sort((a, b) => a - b);
  const repeatedMedianMs = percentile(samples, 50);
  return {
    node: process.version,
    date: new Date().toISOString(),
    toolCount,
    registerAllMs,
    firstCallMs,
    repeatedCalls,
    repeatedMedianMs,
    repeatedP99Ms: percentile(samples, 99),
    repeatedMaxMs: samples[samples.length - 1]!,
    passed: repeatedMedianMs < maxRepeatedMedianMs,
  };
}

function main(): void {
  const r = run();
  const ms = (value: number): string => `${value.toFixed(3)} ms`;
  console.log(`registry bench: node ${r.node}, ${r.date}, ${r.toolCount} tools`);
  console.log(`  register all tools                      ${ms(r.registerAllMs)}`);
  console.log(`  first getFunctionDefinitions()          ${ms(r.firstCallMs)}`);
  console.log(
    `  repeated x${r.repeatedCalls} median / p99 / max     ` +
      `${ms(r.repeatedMedianMs)} / ${ms(r.repeatedP99Ms)} / ${ms(r.repeatedMaxMs)}`,
  );
  if (!r.passed) {
    console.error(
      `FAIL: repeated-call median ${ms(r.repeatedMedianMs)} >= ${maxRepeatedMedianMs} ms`,
    );
    process.exitCode = 1;
  } else {
    console.log(`ok: repeated-call median ${ms(r.repeatedMedianMs)} < ${maxRepeatedMedianMs} ms`);
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
