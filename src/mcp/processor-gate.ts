// TEMPORARY (issue 13 until issue 11 lands): an McpGate over ToolCallProcessor.process(batch).
// Deleted when `processor.processCall` is in main; the server only knows the McpGate shape.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { type ApprovalPolicy, RememberedPermissions } from "../approval/index.js";
import {
  type ApprovalHandler,
  ToolCallBatch,
  ToolCallProcessor,
  ToolCallRequest,
  type ToolCallStore,
  toolCallOutcome,
} from "../calls/index.js";
import type { ServiceProvider, ToolProgress } from "../context/index.js";
import {
  isJsonObject,
  isRiskLevel,
  type JsonObject,
  type JsonValue,
  RiskLevel,
} from "../core/index.js";
import type { ToolExecutor } from "../execution/index.js";
import { ToolResult } from "../result/index.js";
import { ToolValidator } from "../validation/index.js";
import type { McpApprovalNeed, McpGate, McpGateCall, McpGateResult } from "./mcp-gate.js";

/** Construction options of {@link ProcessorGate}. */
export interface ProcessorGateConfig {
  readonly executor: ToolExecutor;
  readonly policy?: ApprovalPolicy;
  readonly permissions?: RememberedPermissions;
  readonly store?: ToolCallStore;
  readonly workspacePath?: string;
  readonly services?: ServiceProvider;
  /** Asks a person when a call comes without a decision; without one such calls are denied. */
  readonly approvalHandler?: ApprovalHandler;
  readonly approvalTimeoutMs?: number;
}

interface CallScope {
  readonly onProgress?: (progress: ToolProgress) => void;
}

/** An {@link McpGate} over {@link ToolCallProcessor} (one processor per call, sharing state). */
export class ProcessorGate implements McpGate {
  readonly #config: ProcessorGateConfig;
  readonly #permissions: RememberedPermissions;
  readonly #validator = new ToolValidator();
  readonly #scope = new AsyncLocalStorage<CallScope>();
  /** Executions started by a call with a progress listener, by execution id. */
  readonly #listeners = new Map<string, (progress: ToolProgress) => void>();

  constructor(config: ProcessorGateConfig) {
    this.#config = config;
    this.#permissions = config.permissions ?? new RememberedPermissions();
    const events = config.executor.events;
    // The executor starts a call's execution inside the call's async context: that is where an
    // execution id is tied to the call's progress listener.
    events.on("executionStarted", (event) => {
      const onProgress = this.#scope.getStore()?.onProgress;
      if (onProgress !== undefined) this.#listeners.set(event.executionId, onProgress);
    });
    events.on("executionProgress", (event) =>
      this.#listeners.get(event.executionId)?.(event.progress),
    );
    events.on("executionCompleted", (event) => this.#listeners.delete(event.executionId));
  }

  async processCall(call: McpGateCall): Promise<McpGateResult> {
    const tool = this.#config.executor.registry.getTool(call.toolId);
    const request = new ToolCallRequest({
      toolId: call.toolId,
      toolName: tool?.name ?? call.toolId,
      providerCallId: call.callId ?? randomUUID(),
      parameters: call.parameters,
    });
    const decision = call.decision;
    const processor = new ToolCallProcessor({
      executor: this.#config.executor,
      ...(this.#config.policy === undefined ? {} : { policy: this.#config.policy }),
      permissions: this.#permissions,
      ...(this.#config.store === undefined ? {} : { store: this.#config.store }),
      ...(call.sessionId === undefined ? {} : { sessionId: call.sessionId }),
      ...(this.#config.workspacePath === undefined
        ? {}
        : { workspacePath: this.#config.workspacePath }),
      ...(this.#config.services === undefined ? {} : { services: this.#config.services }),
      ...(this.#config.approvalTimeoutMs === undefined
        ? {}
        : { approvalTimeoutMs: this.#config.approvalTimeoutMs }),
      validator: this.#validator,
      maxApprovalRounds: 1,
      ...(decision !== undefined
        ? { approvalHandler: { requestApproval: (r) => decision.bindTo(r) } }
        : this.#config.approvalHandler === undefined
          ? {}
          : { approvalHandler: this.#config.approvalHandler }),
    });
    const batch = ToolCallBatch.single(request, 0);
    await this.#scope.run(
      call.onProgress === undefined ? {} : { onProgress: call.onProgress },
      () => processor.process(batch, call.signal),
    );
    const lifecycle = batch.getLifecycle(request)!;
    const outcome = toolCallOutcome(batch, request);
    const result = lifecycle.result ?? ToolResult.failed(outcome.content);
    const data = result.success && result.hasData ? jsonData(result) : undefined;
    return {
      status: lifecycle.status,
      isError: outcome.isError,
      content: outcome.content,
      ...(data === undefined ? {} : { data }),
      result,
      lifecycle,
    };
  }

  async needsApproval(
    toolId: string,
    parameters: JsonObject,
    options: { readonly sessionId?: string },
  ): Promise<false | McpApprovalNeed> {
    const tool = this.#config.executor.registry.getTool(toolId);
    if (tool === undefined || !isJsonObject(parameters)) return false;
    if (!this.#validator.validateAgainstSchema(parameters, tool.inputSchema).isValid) return false;
    try {
      if (!tool.validate(parameters).isValid) return false;
    } catch {
      return false;
    }
    let riskLevel: RiskLevel;
    try {
      const risk: unknown = tool.getEffectiveRiskLevel(parameters);
      riskLevel = isRiskLevel(risk) ? risk : RiskLevel.Medium;
    } catch {
      riskLevel = RiskLevel.Medium;
    }
    let summary: string;
    try {
      summary = tool.getExecutionSummary(parameters);
    } catch {
      summary = `Execute ${tool.name}`;
    }
    const call = {
      toolId: tool.id,
      category: tool.category,
      riskLevel,
      parameters,
      ...(this.#config.workspacePath === undefined
        ? {}
        : { workspacePath: this.#config.workspacePath }),
    };
    const policy = this.#config.policy ?? this.#defaultPolicy();
    const decision = policy.decide(call);
    if (decision.kind !== "ask") return false;
    const remembered =
      decision.protectedPath !== true &&
      decision.possiblyDenied !== true &&
      decision.warning === undefined &&
      options.sessionId !== undefined
        ? await this.#permissions.find(call, options.sessionId)
        : undefined;
    if (remembered !== undefined) return false;
    return {
      reason: decision.reason,
      riskLevel,
      summary,
      ...(decision.warning === undefined ? {} : { warning: decision.warning }),
    };
  }

  async endSession(sessionId: string): Promise<void> {
    await this.#permissions.endSession(sessionId);
  }

  #defaultPolicy(): ApprovalPolicy {
    // The processor's default, made once.
    this.#fallbackPolicy ??= new ToolCallProcessor({ executor: this.#config.executor }).policy;
    return this.#fallbackPolicy;
  }
  #fallbackPolicy: ApprovalPolicy | undefined;
}

function jsonData(result: ToolResult): JsonValue | undefined {
  const json = result.toJSON();
  return json.data;
}
