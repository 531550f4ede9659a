/**
 * What aintern's AI SDK adapter adds to a `generateText` turn, with auditing on.
 *
 *   (a) AI SDK text turn: `generateText` with the mock model answering text (no tool call);
 *   (b) plain AI SDK tool turn: the model calls `file-read` once, a plain AI SDK `tool()` with a
 *       zod schema reads the file, then the model answers text (two steps);
 *   (c) aintern tool turn: the same with `toAiSdkTools(processor)`: the call goes through the
 *       processor (validation, policy, execution, a crash-safe audit row in a SQLite file);
 *   (d) as (c), `streamProgress: false` (execute returns a promise, no async generator);
 *   (e) `processor.processCall` alone, the same call, no AI SDK: how much of the added cost is the
 *       processor (with its audit row) and how much the adapter.
 *
 * Figures: the added cost per tool call, (c) - (b), and its share of the AI SDK's own per-call
 * cost, (b) - (a) (what one tool call costs inside the AI SDK: an extra step, parsing, the
 * tool's execution), and of the whole plain turn (b). CPU time and wall clock; measures are
 * interleaved over several rounds after a warm-up, each figure the median of its rounds, each
 * ratio the median of per-round ratios.
 *
 *   npx tsx bench/adapters.bench.ts          (or `npm run bench -- adapters`)
 *
 * No target from the issue: it reports.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tool as aiTool, generateText, stepCountIs, type ToolSet } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { z } from "zod";
import { toAiSdkTools } from "../src/adapters/ai-sdk/index.js";
import { ToolCallProcessor } from "../src/calls/index.js";
import { RiskLevel, ToolCategory } from "../src/core/index.js";
import { ToolExecutor } from "../src/execution/index.js";
import { ToolRegistry } from "../src/registry/index.js";
import { ToolResult } from "../src/result/index.js";
import { openStore } from "../src/store/index.js";
import { defineTool } from "../src/tools/index.js";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const parameters = { path: "src/app.ts" };

/** Answers with one tool call unless the prompt holds a tool result or asks for text. */
const model = new MockLanguageModelV3({
  doGenerate: async (options) => {
    const answered = options.prompt.some((message) => message.role === "tool");
    const wantsTool =
      !answered && options.prompt.some((m) => m.role === "system" && m.content === "tool");
    return wantsTool
      ? {
          content: [
            {
              type: "tool-call" as const,
              toolCallId: `call-${crypto.randomUUID()}`,
              toolName: "file-read",
              input: JSON.stringify(parameters),
            },
          ],
          finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
          usage,
          warnings: [],
        }
      : {
          content: [{ type: "text" as const, text: "done" }],
          finishReason: { unified: "stop" as const, raw: "stop" },
          usage,
          warnings: [],
        };
  },
});

interface Sample {
  readonly wallUs: number;
  readonly cpuUs: number;
}

async function turns(tools: ToolSet, calls: number, withTool: boolean): Promise<Sample> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = await generateText({
      model,
      tools,
      system: withTool ? "tool" : "text",
      prompt: "Read src/app.ts",
      stopWhen: stepCountIs(2),
    });
    if (result.steps.length !== (withTool ? 2 : 1)) throw new Error("unexpected AI SDK steps");
  }
  const wall = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  model.doGenerateCalls.length = 0;
  return { wallUs: (wall * 1000) / calls, cpuUs: (cpu.user + cpu.system) / calls };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const round = (value: number, places = 2): number =>
  Math.round(value * 10 ** places) / 10 ** places;

export async function run(calls = 300, rounds = 7) {
  const folder = mkdtempSync(join(tmpdir(), "aintern-adapters-bench-"));
  const workspace = join(folder, "workspace");
  mkdirSync(join(workspace, "src"), { recursive: true });
  writeFileSync(join(workspace, "src", "app.ts"), "export const answer = 42;\n");
  const store = await openStore(`sqlite:${join(folder, "aintern.db")}`);
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
    const aintern = toAiSdkTools(processor);
    const ainternNoStream = toAiSdkTools(processor, { streamProgress: false });

    const direct = async (): Promise<Sample> => {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      for (let i = 0; i < calls; i++) {
        const result = await processor.processCall({
          toolId: "file-read",
          parameters,
          callId: `direct-${crypto.randomUUID()}`,
        });
        if (result.isError) throw new Error(result.content);
      }
      const cpu = process.cpuUsage(cpu0);
      return {
        wallUs: ((performance.now() - t0) * 1000) / calls,
        cpuUs: (cpu.user + cpu.system) / calls,
      };
    };
    const measures = {
      direct,
      text: () => turns(plain, calls, false),
      plain: () => turns(plain, calls, true),
      aintern: () => turns(aintern, calls, true),
      ainternNoStream: () => turns(ainternNoStream, calls, true),
    } as const;
    type Name = keyof typeof measures;
    const names = Object.keys(measures) as Name[];
    for (const name of names) await measures[name]();
    const cpu = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<Name, number[]>;
    const wall = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<
      Name,
      number[]
    >;
    for (let r = 0; r < rounds; r++) {
      const order = names.map((_, i) => names[(i + r) % names.length]!);
      for (const name of order) {
        const sample = await measures[name]();
        cpu[name].push(sample.cpuUs);
        wall[name].push(sample.wallUs);
      }
    }
    const figures = (t: Record<Name, number[]>, variant: "aintern" | "ainternNoStream") => {
      const added = median(t[variant].map((v, i) => v - t.plain[i]!));
      return {
        textTurnUs: round(median(t.text)),
        plainToolTurnUs: round(median(t.plain)),
        ainternToolTurnUs: round(median(t[variant])),
        aiSdkPerCallUs: round(median(t.plain.map((v, i) => v - t.text[i]!))),
        addedPerCallUs: round(added),
        shareOfAiSdkPerCall: round(
          median(t[variant].map((v, i) => (v - t.plain[i]!) / (t.plain[i]! - t.text[i]!))),
        ),
        shareOfPlainTurn: round(median(t[variant].map((v, i) => (v - t.plain[i]!) / t.plain[i]!))),
        processCallAloneUs: round(median(t.direct)),
      };
    };
    return {
      cpu: figures(cpu, "aintern"),
      wall: figures(wall, "aintern"),
      cpuNoStream: figures(cpu, "ainternNoStream"),
      wallNoStream: figures(wall, "ainternNoStream"),
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
    ["(a) AI SDK text turn", "textTurnUs"],
    ["(b) plain AI SDK tool turn", "plainToolTurnUs"],
    ["(c) aintern tool turn (audited)", "ainternToolTurnUs"],
    ["AI SDK's own per-call cost, (b) - (a)", "aiSdkPerCallUs"],
    ["added by aintern per call, (c) - (b)", "addedPerCallUs"],
    ["added / AI SDK's per-call cost", "shareOfAiSdkPerCall"],
    ["added / plain tool turn", "shareOfPlainTurn"],
    ["(e) processor.processCall alone", "processCallAloneUs"],
  ] as const;
  process.stdout.write(
    `AI SDK generateText, one tool call per turn, ${figures.calls} turns x ${figures.rounds} rounds (µs per turn)\n\n`,
  );
  process.stdout.write(
    "| measure | CPU | wall | CPU, streamProgress off | wall, streamProgress off |\n|---|---|---|---|---|\n",
  );
  for (const [label, key] of rows) {
    process.stdout.write(
      `| ${label} | ${figures.cpu[key]} | ${figures.wall[key]} | ${figures.cpuNoStream[key]} | ${figures.wallNoStream[key]} |\n`,
    );
  }
}
