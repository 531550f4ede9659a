// TEMPORARY (issue 15, until the one-gate issue's processCall / needsApproval / recordDecision
// land on main): the adapters' gate over the existing ToolCallProcessor, so their tests run. It
// audits calls that never reach the executor itself, as the gate will.

import type {
  AinternGate,
  ApprovalRequirementDetails,
  ProcessCallInput,
  ProcessCallResult,
  RecordDecisionInput,
  RecordedDecision,
} from "../../src/adapters/shared/index.js";
import {
  ApprovalPolicy,
  type PolicyCall,
  RememberedPermissions,
} from "../../src/approval/index.js";
import {
  ApprovalDecision,
  type ApprovalDecisionInit,
  ToolCallBatch,
  ToolCallLifecycle,
  ToolCallProcessor,
  type ToolCallProcessorConfig,
  ToolCallRequest,
  ToolCallStatus,
  toolCallOutcome,
} from "../../src/calls/index.js";
import { isJsonObject } from "../../src/core/index.js";
import type { AuditLog, AuditStatus } from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";

export interface GateShimConfig extends ToolCallProcessorConfig {
  readonly audit?: AuditLog;
}

export class GateShim implements AinternGate {
  readonly sessionId: string;
  readonly executor: ToolCallProcessorConfig["executor"];
  readonly policy: ApprovalPolicy;
  readonly permissions: RememberedPermissions;
  readonly #config: GateShimConfig;
  readonly #decisions = new Map<string, ApprovalDecision | ApprovalDecisionInit>();
  readonly #pending = new Map<string, ApprovalDecision | ApprovalDecisionInit>();
  readonly #processors = new Map<string, ToolCallProcessor>();

  #processorFor(sessionId: string): ToolCallProcessor {
    let processor = this.#processors.get(sessionId);
    if (processor === undefined) {
      const handler = this.#config.approvalHandler;
      processor = new ToolCallProcessor({
        ...this.#config,
        policy: this.policy,
        permissions: this.permissions,
        sessionId,
        approvalHandler: {
          requestApproval: (request, signal, details) => {
            const decision = this.#pending.get(request.id);
            if (decision !== undefined) {
              return (
                decision instanceof ApprovalDecision ? decision : new ApprovalDecision(decision)
              ).bindTo(request);
            }
            if (handler === undefined) {
              return ApprovalDecision.deny(
                "No approval handler is configured, so calls that need approval are denied",
              ).bindTo(request);
            }
            return handler.requestApproval(request, signal, details);
          },
        },
      });
      this.#processors.set(sessionId, processor);
    }
    return processor;
  }

  constructor(config: GateShimConfig) {
    this.#config = config;
    this.executor = config.executor;
    this.sessionId = config.sessionId ?? crypto.randomUUID();
    this.policy = config.policy ?? new ApprovalPolicy();
    this.permissions = config.permissions ?? new RememberedPermissions();
  }

  async needsApproval(
    toolId: string,
    parameters: unknown,
    options: { sessionId?: string } = {},
  ): Promise<ApprovalRequirementDetails | false> {
    const tool = this.executor.registry.getTool(toolId);
    if (tool === undefined || !isJsonObject(parameters)) return false;
    if (!this.executor.validate(tool.id, parameters).isValid) return false;
    const riskLevel = tool.getEffectiveRiskLevel(parameters);
    const call: PolicyCall = {
      toolId: tool.id,
      category: tool.category,
      riskLevel,
      parameters,
      ...(this.#config.workspacePath === undefined
        ? {}
        : { workspacePath: this.#config.workspacePath }),
    };
    const decision = this.policy.decide(call);
    if (decision.kind !== "ask") return false;
    if (
      decision.warning === undefined &&
      decision.protectedPath !== true &&
      decision.possiblyDenied !== true &&
      (await this.permissions.find(call, options.sessionId ?? this.sessionId)) !== undefined
    ) {
      return false;
    }
    return {
      reason: decision.reason,
      riskLevel,
      summary: tool.getExecutionSummary(parameters),
      ...(decision.warning === undefined ? {} : { warning: decision.warning }),
    };
  }

  async processCall(input: ProcessCallInput): Promise<ProcessCallResult> {
    const sessionId = input.sessionId ?? this.sessionId;
    const key = `${sessionId}:${input.callId}`;
    const decision =
      input.decision ?? (input.callId === undefined ? undefined : this.#decisions.get(key));
    if (input.callId !== undefined) this.#decisions.delete(key);
    const processor = this.#processorFor(sessionId);
    const request = new ToolCallRequest({
      toolId: input.toolId,
      toolName: input.toolId,
      ...(input.callId === undefined ? {} : { providerCallId: input.callId }),
      parameters: isJsonObject(input.parameters) ? input.parameters : {},
    });
    if (decision !== undefined) this.#pending.set(request.id, decision);
    const batch = new ToolCallBatch({ calls: [request] });
    const startedAt = new Date();
    try {
      await processor.process(batch, input.signal);
    } finally {
      this.#pending.delete(request.id);
    }
    const lifecycle = batch.getLifecycle(request)!;
    const outcome = toolCallOutcome(batch, request);
    const result = lifecycle.result ?? ToolResult.failed(outcome.content);
    if (lifecycle.executionStarted === undefined) {
      await this.#config.audit?.complete({
        executionId: crypto.randomUUID(),
        toolName: input.toolId.slice(0, 64),
        status: auditStatusOf(lifecycle.status),
        parameters: request.parameters,
        errorMessage: outcome.content,
        startedAt,
        completedAt: new Date(),
        conversationId: sessionId,
        wasApproved: false,
      });
    }
    return {
      status: lifecycle.status,
      isError: outcome.isError,
      content: outcome.content,
      ...(result.success && result.data !== undefined ? { data: result.data } : {}),
      result,
      lifecycle,
    };
  }

  async recordDecision(input: RecordDecisionInput): Promise<RecordedDecision> {
    const sessionId = input.sessionId ?? this.sessionId;
    const decision =
      input.decision instanceof ApprovalDecision
        ? input.decision
        : new ApprovalDecision(input.decision);
    if (decision.approved) {
      this.#decisions.set(`${sessionId}:${input.callId}`, decision);
      const request = new ToolCallRequest({
        toolId: input.toolId,
        parameters: isJsonObject(input.parameters) ? input.parameters : {},
      });
      return { approved: true, decision, lifecycle: ToolCallLifecycle.forRequest(request) };
    }
    const result = await this.processCall({
      toolId: input.toolId,
      parameters: input.parameters,
      ...(input.callId === undefined ? {} : { callId: input.callId }),
      sessionId,
      decision,
    });
    return { approved: false, decision, lifecycle: result.lifecycle };
  }
}

function auditStatusOf(status: ToolCallStatus): AuditStatus {
  switch (status) {
    case ToolCallStatus.Denied:
      return "denied";
    case ToolCallStatus.ValidationFailed:
      return "validationError";
    case ToolCallStatus.Cancelled:
      return "cancelled";
    default:
      return "failed";
  }
}
