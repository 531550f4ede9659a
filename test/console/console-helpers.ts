import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";
import { ToolCallRequest } from "../../src/calls/index.js";
import type { PendingApprovalStore } from "../../src/console/index.js";
import {
  type ConsoleApp,
  ConsoleApprovalHandler,
  type PendingApproval,
} from "../../src/console/index.js";
import type { JsonObject } from "../../src/core/index.js";
import type { ToolRegistry } from "../../src/registry/index.js";

const tsxPreflight = fileURLToPath(
  new URL("../../node_modules/tsx/dist/preflight.cjs", import.meta.url),
);
const tsxLoader = new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url).href;
const agentScript = fileURLToPath(new URL("./fixtures/agent.ts", import.meta.url));

/** What the agent process answered for one call. */
export interface AgentAnswer {
  readonly callId: string;
  readonly status: string;
  readonly content: string;
}

/** An agent process (test/console/fixtures/agent.ts) whose approvals go to the console. */
export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly #answers = new Map<string, AgentAnswer>();
  readonly #waiters = new Map<string, (answer: AgentAnswer) => void>();
  readonly ready: Promise<void>;
  stderr = "";

  constructor(storeUrl: string, workspace: string, sessionId: string, schema?: string) {
    // One node process with tsx's hooks (what the tsx command starts), so kill -9 reaches it.
    const args = [
      "--require",
      tsxPreflight,
      "--import",
      tsxLoader,
      agentScript,
      storeUrl,
      workspace,
      sessionId,
      ...(schema === undefined ? [] : [schema]),
    ];
    this.child = spawn(process.execPath, args, {
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
    let markReady: () => void = () => undefined;
    this.ready = new Promise((resolve, reject) => {
      markReady = resolve;
      this.child.once("exit", (code) => reject(new Error(`agent exited ${code}: ${this.stderr}`)));
    });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const value = JSON.parse(line) as AgentAnswer & { ready?: boolean };
      if (value.ready === true) return markReady();
      this.#answers.set(value.callId, value);
      this.#waiters.get(value.callId)?.(value);
    });
  }

  /** Sends a call; the returned promise resolves with its answer. */
  call(callId: string, toolId: string, parameters: unknown): Promise<AgentAnswer> {
    const answer = new Promise<AgentAnswer>((resolve) => {
      const known = this.#answers.get(callId);
      if (known !== undefined) resolve(known);
      else this.#waiters.set(callId, resolve);
    });
    this.child.stdin.write(`${JSON.stringify({ callId, toolId, parameters })}\n`);
    return answer;
  }

  /** Ends it gracefully (stdin closed) and waits for the exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }

  /** kill -9. */
  async kill(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGKILL");
    await exited;
  }
}

/** Polls `probe` until it returns a value other than undefined (at most `timeoutMs`). */
export async function eventually<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether process `pid` exists. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One approval's card, as the console serves it at `/approvals/<id>` to its operator. */
export async function approvalCard(app: ConsoleApp, id: string): Promise<string> {
  const response = await app.app.request(`/approvals/${id}`, {
    headers: { authorization: `Bearer ${app.token}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

/**
 * A call of `toolId` waiting for approval in the console, as the processor's handler opens it
 * (with a file write's preview read from `workspacePath`, when given).
 */
export function waitingApproval(
  where: {
    readonly approvals: PendingApprovalStore;
    readonly registry: ToolRegistry;
    readonly workspacePath?: string;
  },
  toolId: string,
  parameters: JsonObject,
  callId = `call-${Math.random()}`,
): Promise<PendingApproval> {
  const request = callRequest(where.registry, toolId, parameters, callId);
  const handler = new ConsoleApprovalHandler({
    approvals: where.approvals,
    getTool: (id) => where.registry.getTool(id),
    ...(where.workspacePath === undefined ? {} : { workspacePath: where.workspacePath }),
  });
  return handler.open(request, { reason: "asks", riskLevel: request.riskLevel, round: 1 });
}

/** A call of `toolId` that needs approval, as the processor hands it to an approval handler. */
export function callRequest(
  registry: ToolRegistry,
  toolId: string,
  parameters: JsonObject,
  callId = `call-${Math.random()}`,
): ToolCallRequest {
  const tool = registry.getTool(toolId)!;
  return new ToolCallRequest({
    toolId: tool.id,
    toolName: tool.name,
    parameters,
    providerCallId: callId,
    riskLevel: tool.getEffectiveRiskLevel(parameters),
    executionSummary: tool.getExecutionSummary(parameters),
    requiresApproval: true,
  });
}
