/**
 * What the one gate costs per call: `processor.processCall` of a Safe in-process tool with a
 * SQLite audit, against the executor's own audited `execute` of the same tool, same run
 * (issue 11; target: at most 1.3x, judged on CPU time).
 *
 *   (a) `executor.execute({ toolName, parameters })`, one call after another, audited to SQLite
 *   (b) `processor.processCall({ toolId, parameters })` over that executor (validation once,
 *       risk, policy, lifecycle, the executor's audited run), one call after another
 *   (c) for reference, not a target: (b) with a call id and the lifecycle store (`store.calls`),
 *       which adds the claim and the final save of each call's record
 *   (d) for reference: a front end that asks first, as `aintern mcp` and the adapters' framework
 *       approval did: `needsApproval` then `processCall` (with a call id), the policy guarding a
 *       workspace (its protected-path check resolves the path), so the call is judged twice
 *   (e) the same with `checkCall` then `processCall({ checked })`: judged once
 *
 * Rounds interleave (a), (b) and (c) after a warm-up; each figure is the median of its rounds,
 * printed with the range of the rounds and the load average (the machine is shared).
 *
 *   npx tsx bench/process-call.bench.ts      (or `npm run bench -- process-call`)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolCallProcessor } from "../src/calls/index.js";
import { ToolExecutor } from "../src/execution/index.js";
import { ToolRegistry } from "../src/registry/index.js";
import { JsonSchemaBuilder } from "../src/schema/index.js";
import { openStore } from "../src/store/index.js";
import { defineTool } from "../src/tools/index.js";
import { formatSpread, spread } from "./measure.js";

export const targets = { processCallRatioMax: 1.3 } as const;

const parameters = { path: "src/app.ts", maxLines: 200 };
const inputSchema = JsonSchemaBuilder.create()
  .addString("path", "File path", { required: true, maxLength: 4096 })
  .addInteger("maxLines", "Most lines to read", { minimum: 1, maximum: 10_000 })
  .build();

async function cpuUsPerCall(calls: number, call: (i: number) => Promise<unknown>): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) await call(i);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / calls;
}

export async function run() {
  const folder = mkdtempSync(join(tmpdir(), "aintern-process-call-bench-"));
  const store = await openStore(`sqlite:${join(folder, "audit.db")}`);
  try {
    const tool = defineTool({
      id: "file-read",
      name: "Read File",
      description: "Reads a file",
      inputSchema,
      execute: async (input) => ({ path: (input as { path: string }).path, lines: 200 }),
    });
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [tool] }),
      audit: store.audit,
    });
    const processor = new ToolCallProcessor({ executor });
    const stored = new ToolCallProcessor({ executor, store: store.calls });
    const workspacePath = join(folder, "workspace");
    mkdirSync(join(workspacePath, "src"), { recursive: true });
    writeFileSync(join(workspacePath, "src", "app.ts"), "export const answer = 42;\n");
    const guarded = new ToolCallProcessor({ executor, workspacePath });
    const calls = 1_000;
    const rounds = 9;
    const a: number[] = [];
    const b: number[] = [];
    const c: number[] = [];
    const d: number[] = [];
    const e: number[] = [];
    const ratios: number[] = [];
    const saved: number[] = [];
    let id = 0;
    const execute = () => executor.execute({ toolName: "file-read", parameters });
    const processCall = () => processor.processCall({ toolId: "file-read", parameters });
    const processStored = () =>
      stored.processCall({ toolId: "file-read", parameters, callId: `call-${id++}` });
    const askFirst = async () => {
      const callId = `ask-${id++}`;
      if ((await guarded.needsApproval("file-read", parameters)) !== false) throw new Error("asks");
      await guarded.processCall({ toolId: "file-read", parameters, callId });
    };
    const checkFirst = async () => {
      const callId = `check-${id++}`;
      const checked = await guarded.checkCall({ toolId: "file-read", parameters, callId });
      if (checked.needsApproval !== false) throw new Error("asks");
      await guarded.processCall({ toolId: "file-read", parameters, callId, checked });
    };
    // Long enough for both sides' code to be optimized: shorter, the first rounds measure the JIT.
    for (let i = 0; i < 1_500; i++) {
      await execute();
      await processCall();
      await processStored();
      await askFirst();
      await checkFirst();
    }
    for (let round = 0; round < rounds; round++) {
      const ae = await cpuUsPerCall(calls, execute);
      const bp = await cpuUsPerCall(calls, processCall);
      const cs = await cpuUsPerCall(calls / 4, processStored);
      const da = await cpuUsPerCall(calls, askFirst);
      const ec = await cpuUsPerCall(calls, checkFirst);
      a.push(ae);
      b.push(bp);
      c.push(cs);
      d.push(da);
      e.push(ec);
      ratios.push(bp / ae);
      saved.push(da - ec);
    }
    const figures = {
      node: process.version,
      date: new Date().toISOString(),
      loadAverage: loadavg()
        .map((n) => n.toFixed(1))
        .join(" "),
      execute: spread(a),
      processCall: spread(b),
      processCallStored: spread(c),
      askFirst: spread(d),
      checkFirst: spread(e),
      checkSaves: spread(saved),
      ratios: spread(ratios),
      executeCpuUs: spread(a).median,
      processCallCpuUs: spread(b).median,
      processCallStoredCpuUs: spread(c).median,
      ratio: spread(ratios).median,
    };
    const passed = figures.ratio <= targets.processCallRatioMax;
    return { ...figures, passed };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await run();
  process.stdout.write(
    [
      `${figures.date}, node ${figures.node}, load average ${figures.loadAverage}; medians of the rounds (range)`,
      `| measure | CPU µs/call |`,
      `| --- | --- |`,
      `| (a) executor.execute, audited | ${formatSpread(figures.execute, 1)} |`,
      `| (b) processor.processCall, audited | ${formatSpread(figures.processCall, 1)} |`,
      `| (b) / (a), per round | ${formatSpread(figures.ratios, 2)} (target ≤ ${targets.processCallRatioMax}) ${figures.passed ? "✓" : "✗"} |`,
      `| (c) processCall with call id and store.calls | ${formatSpread(figures.processCallStored, 1)} |`,
      `| (d) needsApproval, then processCall (workspace policy; judged twice) | ${formatSpread(figures.askFirst, 1)} |`,
      `| (e) checkCall, then processCall({ checked }) (judged once) | ${formatSpread(figures.checkFirst, 1)} |`,
      `| (d) − (e), per round | ${formatSpread(figures.checkSaves, 1)} |`,
      "",
    ].join("\n"),
  );
  if (!figures.passed) process.exitCode = 1;
}
