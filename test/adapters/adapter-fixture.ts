import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { AinternGate } from "../../src/adapters/shared/index.js";
import {
  ApprovalPolicy,
  type PolicyCall,
  type PolicyDecision,
  RememberedPermissions,
} from "../../src/approval/index.js";
import {
  ApprovalDecision,
  type ApprovalHandler,
  type ApproveOptions,
  ToolCallProcessor,
} from "../../src/calls/index.js";
import { RiskLevel, ToolCategory } from "../../src/core/index.js";
import type { AuditEntry } from "../../src/execution/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { defineTool, type Tool } from "../../src/tools/index.js";

/**
 * A workspace on disk, a real SQLite store (audit, calls, permissions) and a processor over three
 * tools of different risk:
 * - `file-read` (Safe): reads a workspace file for real; a path outside the workspace is refused;
 * - `file-write` (Medium): writes a workspace file for real;
 * - `terminal-execute` (Medium; Critical for `shutdown`): records the command, runs nothing;
 *   reports one progress step.
 */
export interface AdapterFixture {
  readonly root: string;
  readonly store: Store;
  readonly processor: AinternGate;
  readonly commands: string[];
  read(path: string): string;
  /** Every audit row, oldest first. */
  audit(): Promise<readonly AuditEntry[]>;
  close(): Promise<void>;
}

export async function makeAdapterFixture(
  options: {
    approvalHandler?: ApprovalHandler;
    sessionId?: string;
    extraTools?: Tool[];
    policy?: ApprovalPolicy;
  } = {},
): Promise<AdapterFixture> {
  const root = mkdtempSync(join(tmpdir(), "aintern-adapter-"));
  const workspace = join(root, "workspace");
  mkdirSync(join(workspace, "src"), { recursive: true });
  writeFileSync(join(workspace, "src", "app.ts"), "export const answer = 42;\n");
  const store = await openStore(`sqlite:${join(root, "aintern.db")}`);
  const commands: string[] = [];
  const tools = [
    defineTool({
      id: "file-read",
      name: "Read File",
      description: "Reads a text file of the workspace.",
      category: ToolCategory.FileSystem,
      riskLevel: RiskLevel.Safe,
      inputSchema: z.object({ path: z.string().describe("Workspace-relative path") }),
      execute: ({ path }, context) =>
        ToolResult.succeeded(readFileSync(context.resolvePath(path), "utf8")),
    }),
    defineTool({
      id: "file-write",
      name: "Write File",
      description: "Writes a text file of the workspace.",
      category: ToolCategory.FileSystem,
      riskLevel: RiskLevel.Medium,
      inputSchema: z.object({ path: z.string(), content: z.string() }),
      getExecutionSummary: (p) => `Write ${String(p.path)}`,
      execute: ({ path, content }, context) => {
        writeFileSync(context.resolvePath(path), content);
        return ToolResult.succeeded({ written: path });
      },
    }),
    defineTool({
      id: "terminal-execute",
      name: "Run Command",
      description: "Runs a shell command.",
      category: ToolCategory.Terminal,
      riskLevel: RiskLevel.Medium,
      inputSchema: z.object({ command: z.string().min(1) }),
      getEffectiveRiskLevel: (p) =>
        /\bshutdown\b/.test(String(p.command)) ? RiskLevel.Critical : RiskLevel.Medium,
      execute: ({ command }, context) => {
        context.reportProgress(`running ${command}`, 50);
        commands.push(command);
        return `ran ${command}`;
      },
    }),
  ];
  const executor = new ToolExecutor({
    registry: new ToolRegistry({ tools: [...tools, ...(options.extraTools ?? [])] }),
    audit: store.audit,
    workspacePath: workspace,
  });
  const processor = new ToolCallProcessor({
    executor,
    audit: store.audit,
    store: store.calls,
    permissions: new RememberedPermissions({ store: store.permissions }),
    workspacePath: workspace,
    ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    ...(options.approvalHandler === undefined ? {} : { approvalHandler: options.approvalHandler }),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
  });
  return {
    root: workspace,
    store,
    processor,
    commands,
    read: (path) => readFileSync(join(workspace, path), "utf8"),
    audit: async () => [...(await store.audit.query({ limit: 1000 })).entries].reverse(),
    async close() {
      await store.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The calls of the mixed-risk turn every adapter test makes, as [call id, tool, arguments]. */
export const mixedTurn = [
  ["call-safe", "file-read", { path: "src/app.ts" }],
  ["call-medium", "file-write", { path: "notes.txt", content: "hello" }],
  ["call-critical", "terminal-execute", { command: "shutdown -h now" }],
  ["call-bad", "file-write", { path: "notes.txt", content: 42 }],
  ["call-escape", "file-read", { path: "../../etc/passwd" }],
] as const;

/** Audit rows as "tool status" strings, sorted, to compare as a multiset. */
export async function auditSummary(fixture: AdapterFixture): Promise<string[]> {
  return (await fixture.audit()).map((row) => `${row.toolName} ${row.status}`).sort();
}

/**
 * A person at aintern's approval handler: notes each tool asked about in `asked` (with
 * " (warning)" when aintern gave the Critical warning), denies `terminal-execute` ("Never on this
 * host") and approves the rest with `approve`.
 */
export function personAtHandler(asked: string[], approve: ApproveOptions = {}): ApprovalHandler {
  return {
    requestApproval(request, _signal, details) {
      asked.push(`${request.toolId}${details?.warning === undefined ? "" : " (warning)"}`);
      return request.toolId === "terminal-execute"
        ? ApprovalDecision.deny("Never on this host").bindTo(request)
        : ApprovalDecision.approve(approve).bindTo(request);
    },
  };
}

/** The default policy, counting how often it decides (a call judged twice counts twice). */
export class CountingPolicy extends ApprovalPolicy {
  decisions = 0;
  override decide(call: PolicyCall): PolicyDecision {
    this.decisions++;
    return super.decide(call);
  }
}
