import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import {
  type ApprovalDecision,
  type ApprovalHandler,
  type ApprovalPromptDetails,
  parseToolCalls,
  type ToolCallBatch,
  ToolCallProcessor,
  type ToolCallProcessorConfig,
  type ToolCallRequest,
  type ToolCallTransition,
} from "../../src/calls/index.js";
import { type JsonObject, RiskLevel, ToolCategory } from "../../src/core/index.js";
import { type LicenseContext, ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { defineTool, type Tool } from "../../src/tools/index.js";

/** A temporary workspace with a few real files; `cleanup` removes it. */
export interface Workspace {
  readonly root: string;
  read(path: string): string;
  cleanup(): void;
}

export function makeWorkspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), "aintern-processor-"));
  mkdirSync(join(root, "src"));
  writeFileSync(join(root, "src", "app.ts"), "export const answer = 42;\n");
  writeFileSync(join(root, "README.md"), "# sample\n");
  mkdirSync(join(root, ".git", "hooks"), { recursive: true });
  return {
    root,
    read: (path) => readFileSync(join(root, path), "utf8"),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Counts of what the real tools did. */
export interface ToolLog {
  reads: string[];
  writes: { path: string; content: string }[];
  commands: string[];
}

/**
 * The sample tools, working on the workspace for real:
 * - `file-read` (Safe): reads a file;
 * - `file-write` (Medium): writes a file;
 * - `terminal-execute` (Medium; High when the command contains `rm`, Critical with `shutdown`):
 *   records the command (it does not run it);
 * - `counter` (a MockTool, Safe) and `risky-counter` (a MockTool, Medium), counting executions;
 * - `slow` (Safe, 40 ms timeout): waits for its signal, so it always times out.
 */
export function makeTools() {
  const log: ToolLog = { reads: [], writes: [], commands: [] };
  const fileRead = defineTool({
    id: "file-read",
    name: "Read File",
    description: "Reads a text file of the workspace.",
    category: ToolCategory.FileSystem,
    riskLevel: RiskLevel.Safe,
    inputSchema: z.object({ path: z.string() }),
    execute: ({ path }, context) => {
      log.reads.push(path);
      return ToolResult.succeeded(readFileSync(context.resolvePath(path), "utf8"));
    },
  });
  const fileWrite = defineTool({
    id: "file-write",
    name: "Write File",
    description: "Writes a text file of the workspace.",
    category: ToolCategory.FileSystem,
    riskLevel: RiskLevel.Medium,
    inputSchema: z.object({ path: z.string(), content: z.string() }),
    getExecutionSummary: (p) => `Write ${String(p.path)}`,
    execute: ({ path, content }, context) => {
      log.writes.push({ path, content });
      writeFileSync(context.resolvePath(path), content);
      return ToolResult.succeeded({ written: path });
    },
  });
  const terminal = defineTool({
    id: "terminal-execute",
    name: "Run Command",
    description: "Runs a shell command.",
    category: ToolCategory.Terminal,
    riskLevel: RiskLevel.Medium,
    inputSchema: z.object({ command: z.string().min(1) }),
    getEffectiveRiskLevel: (p) => {
      const command = String(p.command);
      if (/\bshutdown\b/.test(command)) return RiskLevel.Critical;
      return /\brm\b/.test(command) ? RiskLevel.High : RiskLevel.Medium;
    },
    execute: ({ command }) => {
      log.commands.push(command);
      return `ran ${command}`;
    },
  });
  const counter = new MockTool({ id: "counter", riskLevel: RiskLevel.Safe });
  const riskyCounter = new MockTool({ id: "risky-counter", riskLevel: RiskLevel.Medium });
  const slow = new MockTool({
    id: "slow",
    riskLevel: RiskLevel.Safe,
    constraints: { maxExecutionTimeMs: 40 },
    executeFunc: (_context, signal) =>
      new Promise<ToolResult>((_resolve, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      }),
  });
  const failing = MockTool.failing("failing", "The disk is full");
  const throwing = MockTool.throwing("throwing", new Error("Boom"));
  return {
    log,
    fileRead,
    fileWrite,
    terminal,
    counter,
    riskyCounter,
    slow,
    failing,
    throwing,
    all: [fileRead, fileWrite, terminal, counter, riskyCounter, slow, failing, throwing],
  };
}

export type Tools = ReturnType<typeof makeTools>;

/** An executor over the sample tools. */
export function makeExecutor(tools: Tools, license?: LicenseContext): ToolExecutor {
  return new ToolExecutor({
    registry: new ToolRegistry({ tools: tools.all }),
    ...(license === undefined ? {} : { license }),
  });
}

/** One call of a recorded response: provider id, tool name, arguments (object or raw text). */
export type CallSpec = readonly [id: string, name: string, args: JsonObject | string];

/** An OpenAI Chat Completions response with these tool calls. */
export function openAIResponse(calls: readonly CallSpec[]): JsonObject {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    choices: [
      {
        index: 0,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          tool_calls: calls.map(([id, name, args]) => ({
            id,
            type: "function",
            function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args) },
          })),
        },
      },
    ],
  };
}

/** An Anthropic Messages response with these tool calls (arguments must be objects). */
export function anthropicResponse(calls: readonly CallSpec[]): JsonObject {
  return {
    id: "msg_test",
    type: "message",
    role: "assistant",
    stop_reason: "tool_use",
    content: [
      { type: "text", text: "Working on it." },
      ...calls.map(([id, name, args]) => ({
        type: "tool_use",
        id,
        name,
        input: typeof args === "string" ? {} : args,
      })),
    ],
  };
}

/** Parses an OpenAI response of these calls. */
export function openAIBatch(calls: readonly CallSpec[]): ToolCallBatch {
  return parseToolCalls(openAIResponse(calls), { format: "openai-chat" });
}

/** One prompt the handler received. */
export interface Prompt {
  readonly request: ToolCallRequest;
  readonly details: ApprovalPromptDetails | undefined;
  readonly signal: AbortSignal;
}

/** A handler answering with `answer`, recording every prompt. */
export function recordingHandler(
  answer: (
    request: ToolCallRequest,
    details: ApprovalPromptDetails | undefined,
    signal: AbortSignal,
  ) => ApprovalDecision | Promise<ApprovalDecision>,
): ApprovalHandler & { readonly prompts: Prompt[] } {
  const prompts: Prompt[] = [];
  return {
    prompts,
    requestApproval(request, signal, details) {
      prompts.push({ request, details, signal });
      return answer(request, details, signal);
    },
  };
}

/** A handler that never answers (until its signal aborts, which it ignores too). */
export function silentHandler(): ApprovalHandler & { readonly prompts: Prompt[] } {
  return recordingHandler(() => new Promise<ApprovalDecision>(() => undefined));
}

/** A processor with its transitions recorded. */
export function makeProcessor(config: ToolCallProcessorConfig): {
  processor: ToolCallProcessor;
  transitions: ToolCallTransition[];
} {
  const processor = new ToolCallProcessor(config);
  const transitions: ToolCallTransition[] = [];
  processor.events.on("transition", (t) => transitions.push(t));
  return { processor, transitions };
}

/** A processor running `tools` (see {@link makeExecutor}) that asks `approvalHandler`. */
export function makeToolsProcessor(
  tools: Tools,
  approvalHandler: ApprovalHandler,
  config: Omit<ToolCallProcessorConfig, "executor" | "approvalHandler"> = {},
): ReturnType<typeof makeProcessor> {
  return makeProcessor({ executor: makeExecutor(tools), approvalHandler, ...config });
}

/** A processor over a bare executor of `tools` (no audit, no store unless `config` gives one). */
export function processorOf(
  tools: readonly Tool[],
  config: Omit<ToolCallProcessorConfig, "executor"> = {},
): ReturnType<typeof makeProcessor> {
  return makeProcessor({
    executor: new ToolExecutor({ registry: new ToolRegistry({ tools }) }),
    ...config,
  });
}

/** Waits until `check` holds (polling), or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5_000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeoutMs) throw new Error("waitFor timed out");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
