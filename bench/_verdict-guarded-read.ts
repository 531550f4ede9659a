// Scratch (verdict, session 5): a guarded read as `aintern mcp` judges and runs it, on the MCP
// runtime's own processor (built-in file-read, default policy guarding the workspace, SQLite audit):
// the pre-check + run today (needsApproval, processCall) against checkCall + processCall({ checked }).
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openMcpRuntime } from "../src/cli/mcp-runtime.js";
import { formatSpread, spread } from "./measure.js";

const workspace = await realpath(await mkdtemp(join(tmpdir(), "aintern-verdict-bench-")));
await writeFile(join(workspace, "notes.md"), "# Notes\n".repeat(512));
const runtime = await openMcpRuntime({ workspace, db: `sqlite:${join(workspace, ".audit.db")}` });
const processor = runtime.processor;
const toolId = "file-read";
const parameters = { path: "notes.md" };
const sessionId = "bench";
let id = 0;
const cases: Record<string, () => Promise<unknown>> = {
  "needsApproval alone": () => processor.needsApproval(toolId, parameters, { sessionId }),
  "checkCall alone": () =>
    processor.checkCall({ toolId, parameters, callId: `c${id++}`, sessionId }),
  "processCall alone (no pre-check)": () =>
    processor.processCall({ toolId, parameters, callId: `p${id++}`, sessionId }),
  "(d) needsApproval + processCall (today)": async () => {
    if ((await processor.needsApproval(toolId, parameters, { sessionId })) !== false)
      throw new Error("asks");
    return processor.processCall({ toolId, parameters, callId: `d${id++}`, sessionId });
  },
  "(e) checkCall + processCall({ checked })": async () => {
    const callId = `e${id++}`;
    const checked = await processor.checkCall({ toolId, parameters, callId, sessionId });
    if (checked.needsApproval !== false) throw new Error("asks");
    return processor.processCall({ toolId, parameters, callId, sessionId, checked });
  },
};
async function cpu(calls: number, f: () => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}
const rounds = Number(process.env.ROUNDS ?? 9);
const calls = Number(process.env.CALLS ?? 500);
for (let i = 0; i < 1_500; i++) for (const f of Object.values(cases)) await f();
const figures = new Map<string, number[]>(Object.keys(cases).map((k) => [k, []]));
const saved: number[] = [];
for (let r = 0; r < rounds; r++) {
  const round = new Map<string, number>();
  for (const [name, f] of Object.entries(cases)) round.set(name, await cpu(calls, f));
  for (const [name, v] of round) figures.get(name)!.push(v);
  saved.push(
    round.get("(d) needsApproval + processCall (today)")! -
      round.get("(e) checkCall + processCall({ checked })")!,
  );
}
const first = (await processor.processCall({ toolId, parameters, sessionId })).content.slice(0, 40);
process.stdout.write(
  `${new Date().toISOString()}, node ${process.version}, load ${loadavg()
    .map((n) => n.toFixed(1))
    .join(" ")}; ${rounds} rounds x ${calls}; CPU us/call, median (range)\n`,
);
for (const [name, xs] of figures)
  process.stdout.write(`| ${name} | ${formatSpread(spread(xs), 1)} |\n`);
process.stdout.write(`| (d) - (e), per round | ${formatSpread(spread(saved), 1)} |\n`);
process.stdout.write(`(answer starts: ${JSON.stringify(first)})\n`);
await runtime.close();
await rm(workspace, { recursive: true, force: true });
