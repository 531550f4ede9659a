/**
 * What the executor costs per tool call, measured against what any audited call must pay.
 *
 *   (a) floor: an Ajv validation of the tool's parameters plus one row inserted with a prepared
 *       better-sqlite3 statement into the store's audit table (spec 003's tool_executions with
 *       its five indexes; WAL, synchronous = NORMAL), one call after another
 *   (b) ToolExecutor.execute, one call after another, a trivial in-process tool, auditing to a
 *       SQLite file through `openStore` (lookup, validation, events, timeout, crash evidence,
 *       group-committed row): per call, and its ratio to (a). Target: at most 1.3x.
 *   (c) the same with 64 calls in flight (maxConcurrentExecutions 64): throughput against (a)'s
 *       sequential rate. Target: at least 2x.
 *   (d) auditing off: what execute adds over a bare `await execute(args)` of the same tool
 *       function, against the AI SDK's marginal cost of one tool call (`generateText` with its
 *       mock model: one step returning a tool call, then text, minus one step returning text).
 *       Target: at most half of the AI SDK's.
 *   (e) spec 003's P95 targets: one execution under 500 ms, a batch of 10 under 5 s.
 *
 * Every measure runs in the same process, interleaved over several rounds after a warm-up; each
 * figure is the median of its rounds, and each ratio is the median of the per-round ratios of
 * measures that ran back to back (so a neighbour's load on this machine colours both sides).
 *
 *   npx tsx bench/executor.bench.ts          (or `npm run bench -- executor`)
 *
 * Exits non-zero when a target is missed. `run()` returns the figures.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tool as aiTool, generateText, stepCountIs } from "ai";
import { Ajv } from "ajv";
import Database from "better-sqlite3";
import { z } from "zod";
import {
  auditStatusCode,
  LicenseTier,
  staticLicense,
  ToolExecutor,
  type ToolExecutorConfig,
} from "../src/execution/index.js";
import { ToolRegistry } from "../src/registry/index.js";
import { JsonSchemaBuilder } from "../src/schema/index.js";
import {
  openStore,
  type Store,
  sqliteTableName,
  TOOL_EXECUTIONS_TABLE,
} from "../src/store/index.js";
import { defineTool } from "../src/tools/index.js";
import { block, median, percentile, round2, type Sample } from "./measure.js";
import { toolCallingModel } from "./tool-calling-model.js";

/** Targets from the issue. */
export const targets = {
  sequentialRatioMax: 1.3,
  inflightSpeedupMin: 2,
  overheadShareOfAiSdkMax: 0.5,
  singleP95MsMax: 500,
  batchOf10P95MsMax: 5_000,
} as const;

/** The per-call figures of (a) to (d), in one unit of time (wall clock or CPU). */
export interface CallFigures {
  /** (a) µs per call. */
  readonly floorUs: number;
  /** (b) µs per call. */
  readonly sequentialUs: number;
  /** (b) / (a), median of the per-round ratios. */
  readonly sequentialRatio: number;
  /** (c) µs per call with 64 in flight. */
  readonly inflight64Us: number;
  /** (c) throughput / (a)'s sequential throughput, median of the per-round ratios. */
  readonly inflight64Speedup: number;
  /** (d) µs per bare `await execute(args)`. */
  readonly bareUs: number;
  /** (d) µs per `executor.execute` with auditing off. */
  readonly unauditedUs: number;
  /** (d) unauditedUs - bareUs. */
  readonly overheadUs: number;
  /** (d) µs of one AI SDK generateText that returns text. */
  readonly aiSdkTextUs: number;
  /** (d) µs of one AI SDK generateText with one tool call, then text. */
  readonly aiSdkToolUs: number;
  /** (d) aiSdkToolUs - aiSdkTextUs. */
  readonly aiSdkMarginalUs: number;
  /** (d) overheadUs / aiSdkMarginalUs, median of the per-round ratios. */
  readonly overheadShareOfAiSdk: number;
}

/** What {@link run} measured. */
export interface ExecutorBenchFigures {
  readonly node: string;
  readonly cpus: number;
  readonly date: string;
  readonly rounds: number;
  readonly callsPerRound: number;
  /**
   * CPU time of this process per call: what the targets are judged on. The machines this runs
   * on are shared (other sessions' builds and benches take the CPUs), which makes wall-clock
   * figures swing by 2x from one round to the next; CPU time does not count time spent waiting
   * for a CPU.
   */
  readonly cpu: CallFigures;
  /** Wall-clock time per call, for reference. */
  readonly wall: CallFigures;
  /** (e) ms, wall clock. */
  readonly singleP95Ms: number;
  /** (e) ms, wall clock. */
  readonly batchOf10P95Ms: number;
  readonly passed: boolean;
  readonly missed: readonly string[];
}

// ------------------------------------------------------------------ the tool, three ways

const parameters = { path: "src/app.ts", maxLines: 200 };

/** The tool's own work: what a bare call runs and what the executor's tool wraps. */
async function readLines(input: { path: string; maxLines?: number }) {
  return { path: input.path, lines: input.maxLines ?? 0 };
}

const inputSchema = JsonSchemaBuilder.create()
  .addString("path", "File path", { required: true, maxLength: 4096 })
  .addInteger("maxLines", "Most lines to read", { minimum: 1, maximum: 10_000 })
  .build();

function registry(): ToolRegistry {
  return new ToolRegistry({
    tools: [
      defineTool({
        id: "file-read",
        name: "Read File",
        description: "Reads a file",
        inputSchema,
        execute: (input) => readLines(input as { path: string; maxLines?: number }),
      }),
    ],
  });
}

// ------------------------------------------------------------------ timing helpers

function now(): number {
  return performance.now();
}

// ------------------------------------------------------------------ (a) the floor

interface Floor {
  measure(calls: number): Sample;
  close(): void;
}

/** A migrated audit table in its own file, written with one prepared INSERT per call. */
async function openFloor(folder: string): Promise<Floor> {
  const path = join(folder, "floor.db");
  const migrated = await openStore(`sqlite:${path}`);
  await migrated.close();
  const db = new Database(path);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const table = sqliteTableName("agent_tools", TOOL_EXECUTIONS_TABLE);
  const insert = db.prepare(
    `INSERT INTO "${table}" (id, execution_id, tool_name, parameters_json, status, error_message, error_code, started_at, completed_at, duration_ms, sandbox_id, batch_id, result_summary, was_approved, timed_out, was_cancelled) VALUES (?, ?, ?, ?, ?, NULL, NULL, ?, ?, ?, ?, NULL, ?, 1, 0, 0)`,
  );
  const validate = new Ajv({ allErrors: true }).compile(inputSchema);
  const completed = auditStatusCode("completed");
  return {
    measure(calls) {
      const end = block();
      for (let i = 0; i < calls; i++) {
        const startedAt = new Date();
        if (!validate(parameters)) throw new Error("invalid");
        const completedAt = new Date();
        insert.run(
          crypto.randomUUID(),
          crypto.randomUUID(),
          "file-read",
          null,
          completed,
          startedAt.toISOString(),
          completedAt.toISOString(),
          completedAt.getTime() - startedAt.getTime(),
          "in-process",
          "Success",
        );
      }
      return end(calls);
    },
    close: () => db.close(),
  };
}

// ------------------------------------------------------------------ (b), (c), (e) the pipeline

function executor(config: Omit<ToolExecutorConfig, "registry"> = {}): ToolExecutor {
  return new ToolExecutor({ registry: registry(), ...config });
}

async function sequential(run: ToolExecutor, calls: number): Promise<Sample> {
  const end = block();
  for (let i = 0; i < calls; i++) {
    const result = await run.execute({ toolName: "file-read", parameters });
    if (!result.success) throw new Error(`bench call failed: ${result.errorMessage}`);
  }
  return end(calls);
}

async function inflight(run: ToolExecutor, calls: number, width: number): Promise<Sample> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < calls) {
      next++;
      const result = await run.execute({ toolName: "file-read", parameters });
      if (!result.success) throw new Error(`bench call failed: ${result.errorMessage}`);
    }
  };
  const end = block();
  await Promise.all(Array.from({ length: width }, worker));
  return end(calls);
}

async function bare(calls: number): Promise<Sample> {
  const end = block();
  for (let i = 0; i < calls; i++) await readLines(parameters);
  return end(calls);
}

// ------------------------------------------------------------------ (d) the AI SDK

/** Answers with one tool call unless the prompt holds a tool result or asks for text. */
const model = toolCallingModel("readFile", parameters, () => "call-1");

const aiTools = {
  readFile: aiTool({
    description: "Reads a file",
    inputSchema: z.object({ path: z.string().max(4096), maxLines: z.number().int().optional() }),
    execute: readLines,
  }),
};

async function aiSdk(calls: number, withTool: boolean): Promise<Sample> {
  const end = block();
  for (let i = 0; i < calls; i++) {
    const result = await generateText({
      model,
      tools: aiTools,
      system: withTool ? "tool" : "text",
      prompt: "Read src/app.ts",
      stopWhen: stepCountIs(2),
    });
    if (result.steps.length !== (withTool ? 2 : 1)) throw new Error("unexpected AI SDK steps");
  }
  // The model's answer is recorded per call; forget it so memory stays flat.
  model.doGenerateCalls.length = 0;
  return end(calls);
}

// ------------------------------------------------------------------ (e) latencies

async function latencies(run: ToolExecutor, singles: number, batches: number) {
  const single: number[] = [];
  for (let i = 0; i < singles; i++) {
    const t0 = now();
    await run.execute({ toolName: "file-read", parameters });
    single.push(now() - t0);
  }
  const ten = Array.from({ length: 10 }, () => ({ toolName: "file-read", parameters }));
  const batch: number[] = [];
  for (let i = 0; i < batches; i++) {
    const t0 = now();
    const results = await run.executeBatch(ten);
    if (!results.every((r) => r.success)) throw new Error("bench batch failed");
    batch.push(now() - t0);
  }
  return { singleP95Ms: percentile(single, 95), batchOf10P95Ms: percentile(batch, 95) };
}

// ------------------------------------------------------------------ the run

/** The per-round samples of every measure, in one unit of time. */
class Rounds {
  readonly floor: number[] = [];
  readonly sequential: number[] = [];
  readonly inflightFloor: number[] = [];
  readonly inflight: number[] = [];
  readonly bare: number[] = [];
  readonly unaudited: number[] = [];
  readonly aiText: number[] = [];
  readonly aiTool: number[] = [];

  /** Medians, and ratios taken round by round (each from measures that ran back to back). */
  figures(): CallFigures {
    const perRound = (f: (i: number) => number): number =>
      round2(median(this.floor.map((_, i) => f(i))));
    const unauditedUs = median(this.unaudited);
    const bareUs = median(this.bare);
    const textUs = median(this.aiText);
    const toolUs = median(this.aiTool);
    return {
      floorUs: round2(median(this.floor)),
      sequentialUs: round2(median(this.sequential)),
      sequentialRatio: perRound((i) => this.sequential[i]! / this.floor[i]!),
      inflight64Us: round2(median(this.inflight)),
      inflight64Speedup: perRound((i) => this.inflightFloor[i]! / this.inflight[i]!),
      bareUs: round2(bareUs),
      unauditedUs: round2(unauditedUs),
      overheadUs: round2(unauditedUs - bareUs),
      aiSdkTextUs: round2(textUs),
      aiSdkToolUs: round2(toolUs),
      aiSdkMarginalUs: round2(toolUs - textUs),
      overheadShareOfAiSdk: perRound(
        (i) => (this.unaudited[i]! - this.bare[i]!) / (this.aiTool[i]! - this.aiText[i]!),
      ),
    };
  }
}

/**
 * Measures (a) to (e) in one process: a warm-up of every measure, then `rounds` rounds, each
 * running every measure on `calls` calls, in an order that rotates from round to round.
 */
export async function run(calls = 1_000, rounds = 9): Promise<ExecutorBenchFigures> {
  const folder = mkdtempSync(join(tmpdir(), "aintern-executor-bench-"));
  const stores: Store[] = [];
  let floor: Floor | undefined;
  try {
    floor = await openFloor(folder);
    const sequentialStore = await openStore(`sqlite:${join(folder, "sequential.db")}`);
    const inflightStore = await openStore(`sqlite:${join(folder, "inflight.db")}`);
    const latencyStore = await openStore(`sqlite:${join(folder, "latency.db")}`);
    stores.push(sequentialStore, inflightStore, latencyStore);
    const audited = executor({ audit: sequentialStore.audit });
    const wide = executor({
      audit: inflightStore.audit,
      options: { maxConcurrentExecutions: 64 },
    });
    const unaudited = executor();
    const teams = executor({
      audit: latencyStore.audit,
      license: staticLicense(LicenseTier.Teams),
    });

    const f = floor;
    const cpu = new Rounds();
    const wall = new Rounds();
    const add = (name: Exclude<keyof Rounds, "figures">, sample: Sample): void => {
      cpu[name].push(sample.cpuUs);
      wall[name].push(sample.wallUs);
    };

    // Warm-up: every measure once, results dropped.
    f.measure(calls);
    await sequential(audited, calls);
    await inflight(wide, calls, 64);
    await bare(calls * 10);
    await sequential(unaudited, calls);
    await aiSdk(calls, false);
    await aiSdk(calls, true);

    for (let r = 0; r < rounds; r++) {
      // What is compared runs back to back; the groups rotate so none always runs first.
      const groups: (() => Promise<void>)[] = [
        async () => {
          const floorFirst = r % 2 === 0;
          const a = floorFirst ? f.measure(calls) : undefined;
          const b = await sequential(audited, calls);
          add("floor", a ?? f.measure(calls));
          add("sequential", b);
        },
        async () => {
          add("inflightFloor", f.measure(calls));
          add("inflight", await inflight(wide, calls, 64));
        },
        async () => {
          add("unaudited", await sequential(unaudited, calls));
          add("bare", await bare(calls * 10));
          add("aiText", await aiSdk(calls, false));
          add("aiTool", await aiSdk(calls, true));
        },
      ];
      for (let step = 0; step < groups.length; step++) await groups[(r + step) % groups.length]!();
    }

    await latencies(teams, 50, 5); // warm the batch path
    const tails = await latencies(teams, 500, 100);
    const cpuFigures = cpu.figures();
    const figures = {
      node: process.version,
      cpus: availableParallelism(),
      date: new Date().toISOString().slice(0, 10),
      rounds,
      callsPerRound: calls,
      cpu: cpuFigures,
      wall: wall.figures(),
      singleP95Ms: round2(tails.singleP95Ms),
      batchOf10P95Ms: round2(tails.batchOf10P95Ms),
    };
    const missed: string[] = [];
    if (cpuFigures.sequentialRatio > targets.sequentialRatioMax)
      missed.push("(b) sequential ratio");
    if (cpuFigures.inflight64Speedup < targets.inflightSpeedupMin) missed.push("(c) 64 in flight");
    if (cpuFigures.overheadShareOfAiSdk > targets.overheadShareOfAiSdkMax) {
      missed.push("(d) overhead vs AI SDK");
    }
    if (figures.singleP95Ms >= targets.singleP95MsMax) missed.push("(e) single P95");
    if (figures.batchOf10P95Ms >= targets.batchOf10P95MsMax) missed.push("(e) batch P95");
    return { ...figures, passed: missed.length === 0, missed };
  } finally {
    floor?.close();
    for (const store of stores) await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

function table(f: ExecutorBenchFigures): string {
  const { cpu, wall } = f;
  const rows: string[][] = [
    ["", "CPU µs/call", "wall µs/call", "CPU figure", "target"],
    ["(a) floor: Ajv + prepared INSERT", `${cpu.floorUs}`, `${wall.floorUs}`, "", ""],
    [
      "(b) execute, sequential, audited",
      `${cpu.sequentialUs}`,
      `${wall.sequentialUs}`,
      `${cpu.sequentialRatio}x floor (wall ${wall.sequentialRatio}x)`,
      `<= ${targets.sequentialRatioMax}x`,
    ],
    [
      "(c) execute, 64 in flight, audited",
      `${cpu.inflight64Us}`,
      `${wall.inflight64Us}`,
      `${cpu.inflight64Speedup}x floor rate (wall ${wall.inflight64Speedup}x)`,
      `>= ${targets.inflightSpeedupMin}x`,
    ],
    ["(d) bare await execute(args)", `${cpu.bareUs}`, `${wall.bareUs}`, "", ""],
    [
      "(d) execute, auditing off",
      `${cpu.unauditedUs}`,
      `${wall.unauditedUs}`,
      `+${cpu.overheadUs} µs`,
      "",
    ],
    ["(d) AI SDK generateText, text", `${cpu.aiSdkTextUs}`, `${wall.aiSdkTextUs}`, "", ""],
    [
      "(d) AI SDK generateText, 1 tool call",
      `${cpu.aiSdkToolUs}`,
      `${wall.aiSdkToolUs}`,
      `+${cpu.aiSdkMarginalUs} µs`,
      "",
    ],
    [
      "(d) our overhead / AI SDK marginal",
      "",
      "",
      `${cpu.overheadShareOfAiSdk} (wall ${wall.overheadShareOfAiSdk})`,
      `<= ${targets.overheadShareOfAiSdkMax}`,
    ],
    ["(e) single execution P95", "", `${f.singleP95Ms} ms`, "", `< ${targets.singleP95MsMax} ms`],
    ["(e) batch of 10 P95", "", `${f.batchOf10P95Ms} ms`, "", `< ${targets.batchOf10P95MsMax} ms`],
  ];
  const widths = [0, 1, 2, 3, 4].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c]!)).join("  ")).join("\n");
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run(
    Number(process.env.EXECUTOR_BENCH_CALLS ?? 1_000),
    Number(process.env.EXECUTOR_BENCH_ROUNDS ?? 9),
  );
  console.log(
    `ToolExecutor, node ${figures.node}, ${figures.cpus} CPUs, ${figures.date}, ${figures.rounds} rounds of ${figures.callsPerRound} calls, medians`,
  );
  console.log(table(figures));
  if (!figures.passed) {
    console.log(`Missed: ${figures.missed.join(", ")}`);
    process.exitCode = 1;
  }
}
