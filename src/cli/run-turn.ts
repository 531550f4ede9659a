import { readFile } from "node:fs/promises";
import { RememberedPermissions } from "../approval/index.js";
import { builtinTools } from "../builtin/index.js";
import {
  type ApprovalHandler,
  parseToolCalls,
  ToolCallProcessor,
  toProviderMessages,
} from "../calls/index.js";
import { type AuditEntry, LicenseTier, staticLicense, ToolExecutor } from "../execution/index.js";
import { detectToolCallFormat, type ToolCallFormat } from "../providers/index.js";
import { ToolRegistry } from "../registry/index.js";
import { openStore } from "../store/index.js";
import { loadGrantKey } from "./grant-key.js";

/** What {@link runTurn} takes. */
export interface RunTurnOptions {
  /** A recorded model response (JSON text or an already parsed value). */
  readonly response: unknown;
  /** The provider format; detected when absent. */
  readonly format?: ToolCallFormat;
  readonly workspacePath: string;
  /** A store URL (`sqlite:<file>`, `sqlite::memory:` or `postgres://...`). */
  readonly storeUrl: string;
  readonly approvalHandler: ApprovalHandler;
  /** Session id for remembered approvals and stored calls. */
  readonly sessionId?: string;
}

/** What one agent turn produced. */
export interface RunTurnResult {
  /** The messages to send back to the model, one per call. */
  readonly messages: readonly unknown[];
  /** The audit rows this turn wrote, oldest first. */
  readonly auditRows: readonly AuditEntry[];
  /** Each call's final lifecycle status, in the model's order. */
  readonly statuses: readonly { toolId: string; callId: string; status: string }[];
}

/**
 * One agent turn end to end: parse a model's response into tool calls, decide and ask about
 * approvals, run the approved calls with the built-in tools against a workspace, record every
 * execution in the store, and build the answer messages for the model.
 */
export async function runTurn(options: RunTurnOptions): Promise<RunTurnResult> {
  const response =
    typeof options.response === "string"
      ? (JSON.parse(options.response) as unknown)
      : options.response;
  const store = await openStore(options.storeUrl);
  try {
    const registry = new ToolRegistry({ tools: builtinTools() });
    const executor = new ToolExecutor({
      registry,
      audit: store.audit,
      license: staticLicense(LicenseTier.Teams),
      workspacePath: options.workspacePath,
    });
    const processor = new ToolCallProcessor({
      executor,
      approvalHandler: options.approvalHandler,
      workspacePath: options.workspacePath,
      store: store.calls,
      permissions: new RememberedPermissions({
        store: store.permissions,
        grantKey: await loadGrantKey(),
      }),
      ...(options.sessionId === undefined ? {} : { sessionId: options.sessionId }),
    });
    const startedAt = new Date(Date.now() - 1);
    const batch = parseToolCalls(response, {
      ...(options.format === undefined ? {} : { format: options.format }),
      toolIds: registry.tools.map((t) => t.id),
    });
    const format = options.format ?? detectToolCallFormat(response) ?? "openai-chat";
    await processor.process(batch);
    await executor.close();
    const page = await store.audit.query({ from: startedAt, limit: 1000 });
    return {
      messages: toProviderMessages(batch, format) as readonly unknown[],
      auditRows: [...page.entries].reverse(),
      statuses: batch.calls.map((call) => ({
        toolId: call.toolId,
        callId: call.providerCallId ?? call.id,
        status: batch.getLifecycle(call.id)?.status ?? "Parsed",
      })),
    };
  } finally {
    await store.close();
  }
}

/** Reads a recorded response file. */
export async function readRecordedResponse(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, "utf8")) as unknown;
}
