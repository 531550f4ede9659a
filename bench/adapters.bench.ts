/**
 * What aintern's AI SDK adapter adds to a `generateText` turn, with auditing on.
 *
 *   (a) AI SDK text turn: `generateText` with the mock model answering text (no tool call);
 *   (b) plain AI SDK tool turn: the model calls `file-read` once, a plain AI SDK `tool()` with a
 *       zod schema reads the file, then the model answers text (two steps);
 *   (c) aintern tool turn: the same with `toAiSdkTools(processor)`: the call goes through the
 *       processor's `processCall` (validation, policy, execution, an audit row in a SQLite file);
 *   (d) as (c), `streamProgress: false` (execute returns a promise, no async generator), and as
 *       (c) with `approval: "framework"` (the AI SDK asks `needsApproval` first, which checks the
 *       call with the processor's `checkCall`; a Safe call needs no approval, so the turn still
 *       has two steps, and `execute` runs the call on that check), and that framework turn over
 *       a gate without `checkCall` (the adapter then asks `needsApproval` and `processCall`
 *       judges the call again: the framework flow before the check was reused);
 *   (e) `processor.processCall` alone, the same call, no AI SDK;
 *   (f) the adapter over a gate that reads the file and answers at once (no processor): the
 *       adapter layer's own cost, apart from the processor's.
 *
 * Figures: the added cost per tool call, (c) - (b), and its share of the AI SDK's own per-call
 * cost, (b) - (a) (what one tool call costs inside the AI SDK: an extra step, parsing, the
 * tool's execution), and of the whole plain turn (b); the adapter layer's part, (f) - (b), and
 * the processor's, (c) - (f). CPU time and wall clock, measured side by side in one process
 * (bench/measure.ts): each figure is the median of its rounds with their range, each ratio the
 * median of per-round ratios.
 *
 *   npx tsx bench/adapters.bench.ts          (or `npm run bench -- adapters`)
 *
 * No target from the issue: it reports.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { tool as aiTool, generateText, stepCountIs, type ToolSet } from "ai";
import { z } from "zod";
import { toAiSdkTools } from "../src/adapters/ai-sdk/index.js";
import type { AinternGate } from "../src/adapters/shared/index.js";
import { ToolCallProcessor } from "../src/calls/index.js";
import { RiskLevel, ToolCategory } from "../src/core/index.js";
import { ToolExecutor } from "../src/execution/index.js";
import { ToolRegistry } from "../src/registry/index.js";
import { ToolResult } from "../src/result/index.js";
import { openStore } from "../src/store/index.js";
import { defineTool } from "../src/tools/index.js";
import {
  block,
  formatSpread,
  interleavedRounds,
  type Sample,
  type Spread,
  spread,
} from "./measure.js";
import { toolCallingModel } from "./tool-calling-model.js";

const parameters = { path: "src/app.ts" };

/** Answers with one tool call unless the prompt holds a tool result or asks for text. */
const model = toolCallingModel("file-read", parameters, () => `call-${crypto.randomUUID()}`);

async function turns(tools: ToolSet, calls: number, withTool: boolean): Promise<Sample> {
  const end = block();
  for (let i = 0; i < calls; i++) {
    const result = await generateText({
      model,
      tools,
      system: withTool ? "tool" : "text",
      prompt: "Read src/app.ts",
      stopWhen: stepCountIs(2),
    });
    if (result.steps.length !== (withTool ? 2 : 1)) throw new Error("unexpected AI SDK steps");
    const output = result.steps[0]?.toolResults[0]?.output;
    if (withTool && !JSON.stringify(output).includes("answer = 42")) {
      throw new Error(`unexpected tool output: ${JSON.stringify(output)}`);
    }
  }
  // The model's calls are recorded; forget them so memory stays flat.
  model.doGenerateCalls.length = 0;
  return end(calls);
}

/** The figures of one variant of the aintern turn against the plain one, over the rounds. */
export interface AdapterFigures {
  readonly textTurnUs: Spread;
  readonly plainToolTurnUs: Spread;
  readonly ainternToolTurnUs: Spread;
  readonly aiSdkPerCallUs: Spread;
  readonly addedPerCallUs: Spread;
  readonly shareOfAiSdkPerCall: Spread;
  readonly shareOfPlainTurn: Spread;
  readonly processCallAloneUs: Spread;
  readonly adapterLayerUs: Spread;
  readonly processorInTurnUs: Spread;
}

export async function run(calls = 300, rounds = 9) {
  const folder = mkdtempSync(join(tmpdir(), "aintern-adapters-bench-"));
  const workspace = join(folder, "workspace");
  mkdirSync(join(workspace, "src"), { recursive: true });
  writeFileSync(join(workspace, "src", "app.ts"), "export const answer = 42;\n");
  const store = await openStore(`sqlite:${join(folder, "aintern.db")}`);
  const load = [loadavg()[0]!];
  try {
    const fileRead = defineTool({
      id: "file-read",
      name: "Read File",
      description: "Reads a text file of the workspace.",
      category: ToolCategory.FileSystem,
      riskLevel: RiskLevel.Safe,
      inputSchema: z.object({ path: z.string().max(4096) }),
      execute: ({ path }, context) =>
        ToolResult.succeeded(readFileSync(context.resolvePath(path), "utf8")),
    });
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [fileRead] }),
      audit: store.audit,
      workspacePath: workspace,
    });
    const processor = new ToolCallProcessor({ executor, workspacePath: workspace });
    const plain: ToolSet = {
      "file-read": aiTool({
        description: "Reads a text file of the workspace.",
        inputSchema: z.object({ path: z.string().max(4096) }),
        execute: ({ path }) => readFileSync(join(workspace, path), "utf8"),
      }),
    };
    // The processor's tools and session, but a processCall that only reads the file and answers
    // with a real result's shape.
    const template = await processor.processCall({ toolId: "file-read", parameters });
    const answering: AinternGate = {
      sessionId: processor.sessionId,
      executor: processor.executor,
      needsApproval: async () => false,
      recordDecision: (input) => processor.recordDecision(input),
      processCall: async (input) => {
        const { path } = input.parameters as { path: string };
        return { ...template, content: readFileSync(join(workspace, path), "utf8") };
      },
    };

    const direct = async (): Promise<Sample> => {
      const end = block();
      for (let i = 0; i < calls; i++) {
        const result = await processor.processCall({
          toolId: "file-read",
          parameters,
          callId: `direct-${crypto.randomUUID()}`,
        });
        if (result.isError) throw new Error(result.content);
      }
      return end(calls);
    };
    const aintern = toAiSdkTools(processor);
    const ainternNoStream = toAiSdkTools(processor, { streamProgress: false });
    const ainternFramework = toAiSdkTools(processor, { approval: "framework" });
    // The processor without `checkCall`: the adapter falls back to `needsApproval`, and the call
    // is judged twice, as before the check was reused.
    const judgedTwice: AinternGate = {
      sessionId: processor.sessionId,
      executor: processor.executor,
      needsApproval: (toolId, input, options) => processor.needsApproval(toolId, input, options),
      recordDecision: (input) => processor.recordDecision(input),
      processCall: (input) => processor.processCall(input),
    };
    const ainternFrameworkTwice = toAiSdkTools(judgedTwice, { approval: "framework" });
    const adapterOnly = toAiSdkTools(answering);
    const { cpu, wall } = await interleavedRounds(
      {
        direct,
        text: () => turns(plain, calls, false),
        plain: () => turns(plain, calls, true),
        aintern: () => turns(aintern, calls, true),
        ainternNoStream: () => turns(ainternNoStream, calls, true),
        ainternFramework: () => turns(ainternFramework, calls, true),
        ainternFrameworkTwice: () => turns(ainternFrameworkTwice, calls, true),
        adapterOnly: () => turns(adapterOnly, calls, true),
      },
      rounds,
    );
    load.push(loadavg()[0]!);
    type Rounds = typeof cpu;
    const perRound = (t: Rounds, f: (i: number) => number) => spread(t.plain.map((_, i) => f(i)));
    type Variant = "aintern" | "ainternNoStream" | "ainternFramework" | "ainternFrameworkTwice";
    const figures = (t: Rounds, variant: Variant): AdapterFigures => ({
      textTurnUs: spread(t.text),
      plainToolTurnUs: spread(t.plain),
      ainternToolTurnUs: spread(t[variant]),
      aiSdkPerCallUs: perRound(t, (i) => t.plain[i]! - t.text[i]!),
      addedPerCallUs: perRound(t, (i) => t[variant][i]! - t.plain[i]!),
      shareOfAiSdkPerCall: perRound(
        t,
        (i) => (t[variant][i]! - t.plain[i]!) / (t.plain[i]! - t.text[i]!),
      ),
      shareOfPlainTurn: perRound(t, (i) => (t[variant][i]! - t.plain[i]!) / t.plain[i]!),
      processCallAloneUs: spread(t.direct),
      adapterLayerUs: perRound(t, (i) => t.adapterOnly[i]! - t.plain[i]!),
      processorInTurnUs: perRound(t, (i) => t[variant][i]! - t.adapterOnly[i]!),
    });
    return {
      node: process.version,
      cpus: availableParallelism(),
      date: new Date()
        .toISOString()
        .replace(/:\d\d\.\d+Z$/, " UTC")
        .replace("T", " "),
      loadAverage: { start: load[0]!, end: load[1]! },
      cpu: figures(cpu, "aintern"),
      wall: figures(wall, "aintern"),
      cpuNoStream: figures(cpu, "ainternNoStream"),
      cpuFramework: figures(cpu, "ainternFramework"),
      cpuFrameworkTwice: figures(cpu, "ainternFrameworkTwice"),
      frameworkCheckSavesUs: spread(
        cpu.ainternFramework.map(
          (_, i) => cpu.ainternFrameworkTwice[i]! - cpu.ainternFramework[i]!,
        ),
      ),
      calls,
      rounds,
    };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await run();
  const rows = [
    ["(a) AI SDK text turn", "textTurnUs", 0],
    ["(b) plain AI SDK tool turn", "plainToolTurnUs", 0],
    ["(c) aintern tool turn (audited)", "ainternToolTurnUs", 0],
    ["AI SDK's own per-call cost, (b) − (a)", "aiSdkPerCallUs", 0],
    ["added by aintern per call, (c) − (b)", "addedPerCallUs", 0],
    ["added / AI SDK's per-call cost", "shareOfAiSdkPerCall", 2],
    ["added / plain tool turn", "shareOfPlainTurn", 2],
    ["(e) processor.processCall alone", "processCallAloneUs", 0],
    ["adapter layer alone, (f) − (b)", "adapterLayerUs", 0],
    ["the processor inside the turn, (c) − (f)", "processorInTurnUs", 0],
  ] as const;
  process.stdout.write(
    `AI SDK generateText, one tool call per turn, node ${figures.node}, ${figures.cpus} CPUs, ${figures.date}, load average ${figures.loadAverage.start.toFixed(1)} -> ${figures.loadAverage.end.toFixed(1)}, ${figures.rounds} rounds of ${figures.calls} turns: µs per turn, median (range of rounds)\n\n`,
  );
  process.stdout.write(
    "| measure | CPU | wall | CPU, streamProgress off | CPU, approval framework | CPU, framework judged twice |\n|---|---|---|---|---|---|\n",
  );
  for (const [label, key, digits] of rows) {
    const cells = [
      figures.cpu,
      figures.wall,
      figures.cpuNoStream,
      figures.cpuFramework,
      figures.cpuFrameworkTwice,
    ].map((f) => formatSpread(f[key], digits));
    process.stdout.write(`| ${label} | ${cells.join(" | ")} |\n`);
  }
  process.stdout.write(
    `\nframework judged twice − framework on the check, per round: ${formatSpread(figures.frameworkCheckSavesUs, 0)} µs CPU per turn\n`,
  );
}
