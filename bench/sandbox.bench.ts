/**
 * What process isolation costs per call: a tool returning a small result, called one at a time
 * through a warm `ProcessSandbox` (pool of 1) and through the `InProcessSandbox`; the median of
 * each, and the difference (target: 150 µs or less). Beside it, the floor: a raw round trip of a
 * same-size message between two processes. Each of the five rounds measures all three one after
 * the other, so the sandbox and its floor see the same load (on a shared machine the load moves
 * between runs); the figures are the medians of the rounds' medians, with their ranges. Also the
 * cold start: from spawning a worker to its "ready" message, and a cold sandbox's first call
 * (spawn, ready, tool module load, call).
 *
 * It measures the compiled JavaScript, as an installed package runs: `dist/` after
 * `npm run build`, or the folder in `AINTERN_BENCH_DIST` (e.g. `npx tsc -p tsconfig.build.json
 * --outDir .tmp/bench-dist`). Without either it falls back to the TypeScript sources through
 * tsx, and says so (workers then start through tsx too, which makes cold starts slower).
 *
 * Run: `npx tsx bench/sandbox.bench.ts` (or import and call `run()`).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type * as ContextModule from "../src/context/index.js";
import type * as CoreModule from "../src/core/index.js";
import type * as SandboxModule from "../src/sandbox/process.js";
import type * as ToolsModule from "../src/tools/index.js";

/** Per-call costs in microseconds and start-up times in milliseconds. */
export interface SandboxBenchFigures {
  /** Which code was measured: `"dist"` (compiled JS, from `source`) or `"tsx"` (TS sources). */
  readonly build: "dist" | "tsx";
  readonly source: string;
  readonly calls: number;
  readonly inProcessUs: number;
  readonly processUs: number;
  /** What process isolation adds per call (process - in-process). */
  readonly addedUs: number;
  /** The lowest and highest of the rounds' added costs. */
  readonly addedRangeUs: readonly [number, number];
  /**
   * The floor on this machine: one round trip of a message of the same size between two Node
   * processes over the same kind of channel, with nothing else done.
   */
  readonly roundTripFloorUs: number;
  /** The lowest and highest of the rounds' floors. */
  readonly roundTripFloorRangeUs: readonly [number, number];
  /** Spawn to ready of one worker, median. */
  readonly coldStartMs: number;
  /** A new sandbox's first call, median: spawn, ready, tool module load and the call. */
  readonly coldFirstCallMs: number;
  /** The OS memory limit the workers ran under. */
  readonly memoryLimit: string;
}

interface Implementation {
  readonly build: "dist" | "tsx";
  readonly root: string;
  readonly sandbox: typeof SandboxModule;
  readonly context: typeof ContextModule;
  readonly core: typeof CoreModule;
}

async function load(): Promise<Implementation> {
  const candidates = [process.env.AINTERN_BENCH_DIST, "dist"].filter(
    (folder): folder is string => folder !== undefined && folder !== "",
  );
  for (const folder of candidates) {
    const root = resolve(folder);
    if (existsSync(join(root, "sandbox", "process.js"))) {
      const url = (path: string): string => pathToFileURL(join(root, path)).href;
      // The package's entries: the root holds the context and core exports the bench uses.
      const rootModule = await import(url("index.js"));
      return {
        build: "dist",
        root,
        sandbox: (await import(url("sandbox/process.js"))) as typeof SandboxModule,
        context: rootModule as typeof ContextModule,
        core: rootModule as typeof CoreModule,
      };
    }
  }
  return {
    build: "tsx",
    root: resolve("src"),
    sandbox: await import("../src/sandbox/process.js"),
    context: await import("../src/context/index.js"),
    core: await import("../src/core/index.js"),
  };
}

// The tool both sandboxes run, as a module the worker can import: JS importing the measured build.
function writeToolModule(folder: string, root: string): string {
  const result = pathToFileURL(
    join(root, existsSync(join(root, "index.js")) ? "index.js" : join("result", "index.ts")),
  ).href;
  const file = join(folder, "small-tool.mjs");
  writeFileSync(
    file,
    `import { ToolResult } from ${JSON.stringify(result)};
export const small = {
  id: "small", name: "Small", description: "Returns a small result", category: "Custom",
  defaultRiskLevel: 0, inputSchema: { type: "object", properties: {} }, isAvailable: true,
  tags: [], requiredPermissions: [], requiresConfirmation: false, isolation: "process",
  source: { module: import.meta.url, exportName: "small" },
  async execute(context) {
    return ToolResult.succeeded({ echo: context.getRequiredString("text"), length: 5 }, "ok");
  },
  validate() { return { isValid: true, errors: [], warnings: [] }; },
  getExecutionSummary() { return "Small"; },
  getEffectiveRiskLevel() { return 0; },
};
`,
  );
  return file;
}

// The other end of the round-trip floor: echoes every chunk it reads on fd 3.
const echoScript = `const s = new (require("node:net").Socket)({ fd: 3, readable: true, writable: true });
s.on("data", (chunk) => s.write(chunk)); s.on("end", () => process.exit(0));`;

/** The floor's echo process; `round(count)` times `count` round trips and returns the median. */
interface Floor {
  round(count: number): Promise<number>;
  close(): void;
}

function startFloor(): Floor {
  const child = spawn(process.execPath, ["-e", echoScript], {
    stdio: ["ignore", "inherit", "inherit", "pipe"],
  });
  const channel = child.stdio[3] as Socket;
  const message = Buffer.alloc(420, 97);
  const roundTrip = (): Promise<void> =>
    new Promise<void>((resolve) => {
      let received = 0;
      const onData = (chunk: Buffer): void => {
        received += chunk.length;
        if (received < message.length) return;
        channel.off("data", onData);
        resolve();
      };
      channel.on("data", onData);
      channel.write(message);
    });
  return {
    async round(count: number): Promise<number> {
      const samples: number[] = [];
      for (let index = 0; index < count; index++) {
        const started = process.hrtime.bigint();
        await roundTrip();
        samples.push(Number(process.hrtime.bigint() - started) / 1000);
      }
      return median(samples);
    },
    close(): void {
      child.kill("SIGKILL");
    },
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const round = (value: number, digits = 1): number => Number(value.toFixed(digits));
const range = (values: readonly number[]): [number, number] => [
  round(Math.min(...values)),
  round(Math.max(...values)),
];

const warmUpCalls = 4000;

/** Runs the benchmark: `calls` timed calls per sandbox per round, five rounds, after a warm-up. */
export async function run(calls = 2000, coldStarts = 5): Promise<SandboxBenchFigures> {
  const impl = await load();
  const folder = mkdtempSync(join(tmpdir(), "aintern-sandbox-bench-"));
  const { ProcessSandbox, InProcessSandbox } = impl.sandbox;
  const { ServiceContainer, ToolExecutionContext } = impl.context;
  try {
    const toolFile = writeToolModule(folder, impl.root);
    const { small } = (await import(pathToFileURL(toolFile).href)) as {
      small: ToolsModule.Tool;
    };
    const services = new ServiceContainer();
    const signal = new AbortController().signal;
    const options = { signal, timeoutMs: 30_000 };
    const context = (): ContextModule.ToolExecutionContext =>
      new ToolExecutionContext({ services, toolId: "small", parameters: { text: "hello" } });

    const timeCalls = async (sandbox: SandboxModule.ToolSandbox, count: number) => {
      const samples: number[] = [];
      for (let index = 0; index < count; index++) {
        const ctx = context();
        const started = process.hrtime.bigint();
        const outcome = await sandbox.run(small, ctx, options);
        samples.push(Number(process.hrtime.bigint() - started) / 1000);
        if (outcome.kind !== "completed" || !outcome.result.success) {
          throw new Error(`The benchmark call failed: ${JSON.stringify(outcome)}`);
        }
      }
      return median(samples);
    };

    const inProcess = new InProcessSandbox();
    const isolated = new ProcessSandbox({ poolSize: 1, preloadModules: [toolFile] });
    const floor = startFloor();
    const inProcessRounds: number[] = [];
    const processRounds: number[] = [];
    const addedRounds: number[] = [];
    const floorRounds: number[] = [];
    try {
      await isolated.warm();
      // Both processes need a few thousand calls before their code is optimized: "warm" means
      // that steady state, not the first calls of a new worker (those are the cold figures).
      await timeCalls(inProcess, warmUpCalls);
      await timeCalls(isolated, warmUpCalls);
      await floor.round(warmUpCalls);
      for (let round = 0; round < 5; round++) {
        const inProcessUs = await timeCalls(inProcess, calls);
        const processUs = await timeCalls(isolated, calls);
        inProcessRounds.push(inProcessUs);
        processRounds.push(processUs);
        addedRounds.push(processUs - inProcessUs);
        floorRounds.push(await floor.round(calls));
      }
    } finally {
      floor.close();
      await isolated.close();
    }

    const coldStart: number[] = [];
    const coldFirstCall: number[] = [];
    for (let index = 0; index < coldStarts; index++) {
      const started = performance.now();
      const sandbox = new ProcessSandbox({ poolSize: 1 });
      try {
        await sandbox.warm();
        coldStart.push(performance.now() - started);
      } finally {
        await sandbox.close();
      }
      const firstStarted = performance.now();
      const cold = new ProcessSandbox({ poolSize: 1 });
      try {
        const outcome = await cold.run(small, context(), options);
        if (outcome.kind !== "completed") throw new Error("The cold call failed.");
        coldFirstCall.push(performance.now() - firstStarted);
      } finally {
        await cold.close();
      }
    }

    const inProcessUs = median(inProcessRounds);
    const processUs = median(processRounds);
    return {
      build: impl.build,
      source: impl.root,
      calls,
      inProcessUs: round(inProcessUs),
      processUs: round(processUs),
      addedUs: round(processUs - inProcessUs),
      addedRangeUs: range(addedRounds),
      roundTripFloorUs: round(median(floorRounds)),
      roundTripFloorRangeUs: range(floorRounds),
      coldStartMs: round(median(coldStart)),
      coldFirstCallMs: round(median(coldFirstCall)),
      memoryLimit: isolated.memoryLimit,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = await run(Number(process.env.SANDBOX_BENCH_CALLS ?? 2000));
  console.log(
    `sandbox, small result, ${figures.calls} calls x 5 rounds, median; measured: ${figures.build} (${figures.source})`,
  );
  if (figures.build === "tsx") {
    console.log("  (no compiled build found: TypeScript sources through tsx; run `npm run build`)");
  }
  console.log(`in-process sandbox                     ${figures.inProcessUs} µs`);
  console.log(`process sandbox, warm pool             ${figures.processUs} µs`);
  const [addedLow, addedHigh] = figures.addedRangeUs;
  const [floorLow, floorHigh] = figures.roundTripFloorRangeUs;
  console.log(
    `added by process isolation             ${figures.addedUs} µs  (rounds ${addedLow}–${addedHigh}; target <= 150 µs)`,
  );
  console.log(
    `floor: raw round trip, same size       ${figures.roundTripFloorUs} µs  (rounds ${floorLow}–${floorHigh})`,
  );
  console.log(`cold start, spawn to ready             ${figures.coldStartMs} ms`);
  console.log(`cold sandbox, first call               ${figures.coldFirstCallMs} ms`);
  console.log(`OS memory limit                        ${figures.memoryLimit}`);
  if (figures.addedUs > 150) {
    console.log(`Missed: process isolation adds ${figures.addedUs} µs (target <= 150 µs)`);
    process.exitCode = 1;
  }
}
