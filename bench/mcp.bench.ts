/**
 * `aintern mcp` over stdio, with the official SDK client, in rounds that alternate which server
 * goes first (the machine is shared: each round compares side by side, the spread is reported):
 *   (a) a Safe built-in call (list-directory) through the gate directly (processCall), sequential
 *   (b) the same call through `aintern mcp` over stdio: (b) - (a) is what MCP adds
 *   (c) a file read through `aintern mcp` (policy and audit on) against the official filesystem
 *       server's read_text_file of the same file over stdio: target ≤ 1.0x. The two take turns
 *       in blocks of 50 calls; the ratio is the median over the pairs of blocks (a shared machine
 *       whose speed changes from second to second slows both sides of a pair alike)
 *   (d) throughput of 64 calls in flight from one client (list-directory; and file reads, both
 *       servers)
 *   (e) the floor of (c): the same read through a bare server on the same MCP SDK and stdio
 *       transport (bare-read-server.ts: readFileSync, no policy, no audit), so (c) splits into
 *       what the SDK costs against the official server and what aintern's guard adds
 * Each figure is the wall time per call seen by the client, and the server process's CPU time per
 * call, all its threads and its main thread alone (from /proc, Linux), which a loaded machine
 * colours less.
 *
 * Both servers first serve MCP_BENCH_WARMUP file reads (default 3,000): V8 keeps optimizing a
 * server for thousands of calls, so the rounds measure the steady state a long-lived server runs
 * in, not its warm-up.
 *
 *   npm run build && npx tsx bench/mcp.bench.ts
 *   MCP_BENCH_ROUNDS=7 MCP_BENCH_CALLS=300     more rounds, more calls per round
 *   MCP_BENCH_WARMUP=0                         measure from the first calls instead
 *   MCP_BENCH_PAIR_CALLS=100                   longer blocks in (c)
 *   MCP_BENCH_PROF_DIR=/tmp/prof               both servers run with --cpu-prof into that folder
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { openMcpRuntime } from "../src/cli/mcp-runtime.js";
import { ServiceContainer, ToolExecutionContext } from "../src/context/index.js";
import { RiskLevel } from "../src/core/index.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const filesystemServer = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);
const N = Number(process.env.MCP_BENCH_CALLS ?? 500);
const WARMUP = Number(process.env.MCP_BENCH_WARMUP ?? 3000);
const ROUNDS = Number(process.env.MCP_BENCH_ROUNDS ?? 5);
const IN_FLIGHT = 64;
/** Calls per block in the side-by-side file reads (c): one pair of blocks is two of these. */
const PAIR_CALLS = Number(process.env.MCP_BENCH_PAIR_CALLS ?? 50);
const profDir = process.env.MCP_BENCH_PROF_DIR;
const profArgs = profDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profDir}`];

interface Server {
  readonly client: Client;
  readonly pid: number | undefined;
}

/** A thread's time on a CPU so far (µs), from `/proc/<pid>/task/<tid>/schedstat` (ns). */
function threadMicros(pid: number, tid: string | number): number {
  return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]) / 1000;
}

/**
 * The CPU time (µs) a process's threads have used so far, to the microsecond (`schedstat`), or
 * NaN where /proc is missing. A thread that ended since is not counted: the servers here keep
 * theirs.
 */
function cpuMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    let total = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += threadMicros(pid, tid);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return total;
  } catch {
    return Number.NaN;
  }
}

/** The CPU time (µs) of a process's main thread so far, or NaN where /proc is missing. */
function mainThreadMicros(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    return threadMicros(pid, pid);
  } catch {
    return Number.NaN;
  }
}

/**
 * Wall µs per call, and CPU µs per call of the server process, of its main thread (where a
 * server's JavaScript runs: the steadiest figure on a shared machine) and of this one (the
 * client).
 */
interface Timing {
  wall: number;
  cpu: number;
  main: number;
  client: number;
}

/** Wall and server CPU µs per call of `n` sequential calls (after a warm-up). */
async function sequential(
  n: number,
  pid: number | undefined,
  call: () => Promise<unknown>,
): Promise<Timing> {
  for (let i = 0; i < Math.min(20, n); i++) await call();
  const cpu0 = cpuMicros(pid);
  const main0 = mainThreadMicros(pid);
  const client0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await call();
  const wall = ((performance.now() - t0) * 1000) / n;
  const client = process.cpuUsage(client0);
  return {
    wall,
    cpu: (cpuMicros(pid) - cpu0) / n,
    main: (mainThreadMicros(pid) - main0) / n,
    client: (client.user + client.system) / n,
  };
}

/** CPU µs per call of `n` sequential calls in this process (after a warm-up). */
async function cpuPerCall(n: number, call: () => unknown): Promise<number> {
  for (let i = 0; i < Math.min(50, n); i++) await call();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await call();
  const cpu = process.cpuUsage(cpu0);
  return (cpu.user + cpu.system) / n;
}

/** Calls per second with `IN_FLIGHT` calls always outstanding, `total` calls in all. */
async function throughput(total: number, call: () => Promise<unknown>): Promise<number> {
  let started = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (started < total) {
        started++;
        await call();
      }
    }),
  );
  return total / ((performance.now() - t0) / 1000);
}

async function connect(args: string[]): Promise<Server> {
  const client = new Client({ name: "bench", version: "1" });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...profArgs, ...args],
    cwd: root,
    stderr: "ignore",
  });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined };
}

function failIfError(result: unknown): unknown {
  const r = result as { isError?: boolean; content?: { text?: string }[] };
  if (r.isError === true) throw new Error(`The call failed: ${r.content?.[0]?.text ?? "?"}`);
  return result;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The first and third quartiles of `xs`, as `q1–q3`. */
function quartiles(xs: readonly number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number): number => s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
  return `${at(0.25).toFixed(2)}–${at(0.75).toFixed(2)}`;
}

/**
 * The file reads of a round, both servers in turn in blocks of `PAIR_CALLS` (which goes first
 * alternates): a pair of blocks runs within a few tens of milliseconds, so a machine whose speed
 * changes (other tenants, CPU steal) changes both alike. Each pair's wall ratio is kept in
 * `pairRatios`; the figure is their median. Returns each server's totals over the round.
 */
async function interleavedReads(
  round: number,
  readA: () => Promise<unknown>,
  readO: () => Promise<unknown>,
  pidA: number | undefined,
  pidO: number | undefined,
  pairRatios: number[],
): Promise<[Timing, Timing]> {
  const totals = [
    { wall: 0, cpu: 0, main: 0, client: 0 },
    { wall: 0, cpu: 0, main: 0, client: 0 },
  ];
  const servers = [
    { read: readA, pid: pidA, total: totals[0]! },
    { read: readO, pid: pidO, total: totals[1]! },
  ];
  const pairs = Math.max(1, Math.round(N / PAIR_CALLS));
  for (let pair = 0; pair < pairs; pair++) {
    const walls = [0, 0];
    for (const at of (round + pair) % 2 === 0 ? [0, 1] : [1, 0]) {
      const server = servers[at]!;
      const block = await sequential(PAIR_CALLS, server.pid, async () =>
        failIfError(await server.read()),
      );
      walls[at] = block.wall;
      server.total.wall += block.wall / pairs;
      server.total.cpu += block.cpu / pairs;
      server.total.main += block.main / pairs;
      server.total.client += block.client / pairs;
    }
    pairRatios.push(walls[0]! / walls[1]!);
  }
  return [totals[0]!, totals[1]!];
}

/** `median (min–max)` of a figure over the rounds. */
function spread(xs: readonly number[], digits = 0): string {
  const f = (x: number): string => x.toFixed(digits);
  return `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
}

export async function run(): Promise<boolean> {
  const workspace = await realpath(await mkdtemp(join(tmpdir(), "aintern-mcp-bench-")));
  const file = join(workspace, "notes.md");
  await writeFile(file, "# Notes\n".repeat(512)); // 4 KiB, 512 lines
  const runtime = await openMcpRuntime({
    workspace,
    db: `sqlite:${join(workspace, ".audit.db")}`,
  });
  // The compiled CLI when built (`npm run build`), as users run it; else the sources under tsx.
  const built = join(root, "dist/cli/bin.js");
  const cli = existsSync(built) ? [built] : ["--import", "tsx", join(root, "src/cli/bin.ts")];
  const aintern = await connect([
    ...cli,
    "mcp",
    "--workspace",
    workspace,
    "--db",
    `sqlite:${join(workspace, ".audit-mcp.db")}`,
  ]);
  const official = await connect([filesystemServer, workspace]);
  const bare = await connect([
    "--import",
    "tsx",
    join(root, "bench/bare-read-server.ts"),
    workspace,
  ]);
  const listDirectory = { name: "list-directory", arguments: { path: "." } };
  const readAintern = { name: "file-read", arguments: { path: "notes.md" } };
  const readOfficial = { name: "read_text_file", arguments: { path: file } };
  const readBare = { name: "read", arguments: { path: "notes.md" } };
  // The stages of a guarded read, each alone in this process, and the official server's own
  // handler alone (validatePath + readFileContent from its lib.js, as its read_text_file runs).
  const officialLib = (await import(
    pathToFileURL(join(dirname(filesystemServer), "lib.js")).href
  )) as {
    setAllowedDirectories(directories: string[]): void;
    validatePath(path: string): Promise<string>;
    readFileContent(path: string): Promise<string>;
  };
  officialLib.setAllowedDirectories([workspace]);
  const fileRead = runtime.registry.getTool("file-read")!;
  const services = new ServiceContainer();
  const readParameters = { path: "notes.md" };
  const stageCalls: Record<string, () => unknown> = {
    "file-read's own work (tool.execute)": () =>
      fileRead.execute(
        new ToolExecutionContext({
          services,
          workspacePath: workspace,
          parameters: readParameters,
        }),
      ),
    "policy.decide": () =>
      runtime.policy.decide({
        toolId: fileRead.id,
        category: fileRead.category,
        riskLevel: RiskLevel.Safe,
        parameters: readParameters,
        workspacePath: workspace,
      }),
    "processor.checkCall (the server's pre-check)": () =>
      runtime.processor.checkCall({
        toolId: fileRead.id,
        parameters: readParameters,
        sessionId: "bench",
      }),
    "processor.processCall, audited": () =>
      runtime.processor.processCall({ toolId: fileRead.id, parameters: readParameters }),
    "official: validatePath + readFileContent": async () =>
      officialLib.readFileContent(await officialLib.validatePath(file)),
  };
  const stages = new Map<string, number[]>(Object.keys(stageCalls).map((k) => [k, []]));
  const figures = {
    direct: [] as number[],
    directCpu: [] as number[],
    viaMcp: [] as number[],
    viaMcpCpu: [] as number[],
    added: [] as number[],
    readA: [] as number[],
    readACpu: [] as number[],
    readAMain: [] as number[],
    readAClient: [] as number[],
    readAWait: [] as number[],
    readO: [] as number[],
    readOCpu: [] as number[],
    readOMain: [] as number[],
    readOClient: [] as number[],
    readOWait: [] as number[],
    ratio: [] as number[],
    pairRatios: [] as number[],
    cpuRatio: [] as number[],
    tputList: [] as number[],
    tputReadA: [] as number[],
    tputReadO: [] as number[],
    readBare: [] as number[],
    readBareCpu: [] as number[],
    readBareMain: [] as number[],
    bareRatio: [] as number[],
  };
  try {
    if (!existsSync(built)) process.stdout.write("(dist/ not built: the server runs under tsx)\n");
    for (let i = 0; i < WARMUP; i++) {
      failIfError(await aintern.client.callTool(readAintern));
      failIfError(await official.client.callTool(readOfficial));
      failIfError(await bare.client.callTool(readBare));
      if (i % 3 === 0) failIfError(await aintern.client.callTool(listDirectory));
    }
    for (let round = 0; round < ROUNDS; round++) {
      // In process: its CPU is this process's ("client").
      const direct = await sequential(N, undefined, () =>
        runtime.processor.processCall({ toolId: "list-directory", parameters: { path: "." } }),
      );
      const viaMcp = await sequential(N, aintern.pid, async () =>
        failIfError(await aintern.client.callTool(listDirectory)),
      );
      const [readA, readO] = await interleavedReads(
        round,
        () => aintern.client.callTool(readAintern),
        () => official.client.callTool(readOfficial),
        aintern.pid,
        official.pid,
        figures.pairRatios,
      );
      // The floor, right after the pairs of (c): the official server again beside it.
      const readBareTiming = await sequential(N, bare.pid, async () =>
        failIfError(await bare.client.callTool(readBare)),
      );
      const readOfficialAgain = await sequential(N, official.pid, async () =>
        failIfError(await official.client.callTool(readOfficial)),
      );
      figures.readBare.push(readBareTiming.wall);
      figures.readBareCpu.push(readBareTiming.cpu);
      figures.readBareMain.push(readBareTiming.main);
      figures.bareRatio.push(readBareTiming.wall / readOfficialAgain.wall);
      for (const [stage, call] of Object.entries(stageCalls)) {
        stages.get(stage)!.push(await cpuPerCall(N, call));
      }
      const tputList = await throughput(N * 2, () => aintern.client.callTool(listDirectory));
      const tA = () => throughput(N * 2, () => aintern.client.callTool(readAintern));
      const tO = () => throughput(N * 2, () => official.client.callTool(readOfficial));
      let tputReadA: number;
      let tputReadO: number;
      if (round % 2 === 0) {
        tputReadA = await tA();
        tputReadO = await tO();
      } else {
        tputReadO = await tO();
        tputReadA = await tA();
      }
      figures.direct.push(direct.wall);
      figures.directCpu.push(direct.client);
      figures.viaMcp.push(viaMcp.wall);
      figures.viaMcpCpu.push(viaMcp.cpu);
      figures.added.push(viaMcp.wall - direct.wall);
      figures.readA.push(readA.wall);
      figures.readACpu.push(readA.cpu);
      figures.readAMain.push(readA.main);
      figures.readAClient.push(readA.client);
      figures.readAWait.push(readA.wall - readA.cpu - readA.client);
      figures.readO.push(readO.wall);
      figures.readOCpu.push(readO.cpu);
      figures.readOMain.push(readO.main);
      figures.readOClient.push(readO.client);
      figures.readOWait.push(readO.wall - readO.cpu - readO.client);
      figures.ratio.push(readA.wall / readO.wall);
      figures.cpuRatio.push(readA.cpu / readO.cpu);
      figures.tputList.push(tputList);
      figures.tputReadA.push(tputReadA);
      figures.tputReadO.push(tputReadO);
      process.stdout.write(
        `round ${round + 1}/${ROUNDS}: read ${readA.wall.toFixed(0)} vs ${readO.wall.toFixed(0)} µs = ${(readA.wall / readO.wall).toFixed(2)}x\n`,
      );
    }
  } finally {
    await aintern.client.close();
    await official.client.close();
    await bare.client.close();
    await runtime.close();
    await rm(workspace, { recursive: true, force: true });
  }

  const ratio = median(figures.pairRatios);
  const rows: [string, string][] = [
    ["(a) processCall directly, list-directory", `${spread(figures.direct)} µs/call`],
    ["    its CPU", `${spread(figures.directCpu)} µs/call`],
    ["(b) through aintern mcp over stdio", `${spread(figures.viaMcp)} µs/call`],
    ["    server CPU", `${spread(figures.viaMcpCpu)} µs/call`],
    ["    added by MCP (b - a)", `${spread(figures.added)} µs/call`],
    ["(c) file read, aintern mcp (policy + audit)", `${spread(figures.readA)} µs/call`],
    ["    server CPU", `${spread(figures.readACpu)} µs/call`],
    ["    its main thread", `${spread(figures.readAMain)} µs/call`],
    ["    client CPU (SDK client, this process)", `${spread(figures.readAClient)} µs/call`],
    ["    waiting (wall − server CPU − client CPU)", `${spread(figures.readAWait)} µs/call`],
    ["(c) file read, official filesystem server", `${spread(figures.readO)} µs/call`],
    ["    server CPU", `${spread(figures.readOCpu)} µs/call`],
    ["    its main thread", `${spread(figures.readOMain)} µs/call`],
    ["    client CPU (SDK client, this process)", `${spread(figures.readOClient)} µs/call`],
    ["    waiting (wall − server CPU − client CPU)", `${spread(figures.readOWait)} µs/call`],
    [
      "(c) ratio, wall (target ≤ 1.0x)",
      `${ratio.toFixed(2)}x ${ratio <= 1 ? "✓" : "✗"} (middle half ${quartiles(figures.pairRatios)}, ${figures.pairRatios.length} pairs)`,
    ],
    ["    ratio of the rounds' wall times", `${spread(figures.ratio, 2)}x`],
    ["(c) ratio, server CPU", `${spread(figures.cpuRatio, 2)}x`],
    ["(e) file read, bare SDK server (no guard)", `${spread(figures.readBare)} µs/call`],
    ["    server CPU", `${spread(figures.readBareCpu)} µs/call`],
    ["    its main thread", `${spread(figures.readBareMain)} µs/call`],
    ["    ratio, wall, to the official server", `${spread(figures.bareRatio, 2)}x`],
    [
      "    aintern's guard adds, wall ((c) − (e))",
      `${spread(figures.readA.map((a, i) => a - figures.readBare[i]!))} µs/call`,
    ],
    [`(d) ${IN_FLIGHT} in flight, list-directory, aintern`, `${spread(figures.tputList)} calls/s`],
    [`(d) ${IN_FLIGHT} in flight, file read, aintern`, `${spread(figures.tputReadA)} calls/s`],
    [`(d) ${IN_FLIGHT} in flight, file read, official`, `${spread(figures.tputReadO)} calls/s`],
  ];
  process.stdout.write(
    `\n${ROUNDS} rounds of ${N} calls each after ${WARMUP} warm-up reads; median (min–max) over the rounds\n`,
  );
  for (const [what, figure] of rows) process.stdout.write(`${what.padEnd(46)} ${figure}\n`);
  process.stdout.write("\nstages of (c), each alone in the bench process, CPU:\n");
  for (const [stage, xs] of stages) {
    process.stdout.write(`    ${stage.padEnd(50)} ${spread(xs)} µs/call\n`);
  }
  return ratio <= 1;
}

if (
  process.argv[1] !== undefined &&
  fileURLToPath(import.meta.url) === (await realpath(process.argv[1]))
) {
  const ok = await run();
  process.exitCode = ok ? 0 : 1;
}
