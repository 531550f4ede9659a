import type {
  ApprovalDecision,
  ApprovalDecisionInit,
  ToolCallLifecycle,
} from "../../calls/index.js";
import type { ToolProgress } from "../../context/index.js";
import type { RiskLevel } from "../../core/index.js";
import type { ToolResult } from "../../result/index.js";
import type { Tool } from "../../tools/index.js";

// TEMPORARY: these mirror the one-gate issue's `processCall` / `needsApproval` /
// `recordDecision` types (src/calls/process-call.ts on branch `gate`) until it lands on main;
// they are then imported from calls/index.ts and this block goes.

/** One call for {@link AinternGate.processCall}. */
export interface ProcessCallInput {
  readonly toolId: string;
  readonly parameters: unknown;
  readonly callId?: string;
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ToolProgress) => void;
  readonly decision?: ApprovalDecision | ApprovalDecisionInit;
}

/** What {@link AinternGate.processCall} resolves with. */
export interface ProcessCallResult {
  readonly status: string;
  readonly isError: boolean;
  readonly content: string;
  readonly data?: unknown;
  readonly result: ToolResult;
  readonly lifecycle: ToolCallLifecycle;
}

/** Options of {@link AinternGate.needsApproval}. */
export interface NeedsApprovalOptions {
  readonly sessionId?: string;
}

/** Why a call needs a person's approval. */
export interface ApprovalRequirementDetails {
  readonly reason: string;
  readonly riskLevel: RiskLevel;
  readonly summary: string;
  readonly warning?: string;
  readonly argumentsHash?: string;
}

/** A decision made in a host framework's own approval flow. */
export interface RecordDecisionInput {
  readonly toolId: string;
  readonly parameters: unknown;
  readonly callId?: string;
  readonly sessionId?: string;
  readonly decision: ApprovalDecision | ApprovalDecisionInit;
  readonly decidedBy?: string;
}

/** What {@link AinternGate.recordDecision} resolves with. */
export interface RecordedDecision {
  readonly approved: boolean;
  readonly decision: ApprovalDecision;
  readonly reason?: string;
  readonly lifecycle: ToolCallLifecycle;
}

/**
 * What the adapters need of a `ToolCallProcessor`: its tools, its session, and the one gate
 * every call passes (validation, policy, remembered permissions, a person's decision, execution,
 * audit). A structural type, so the adapters hold no dependency on the processor's class.
 */
export interface AinternGate {
  /** The session calls belong to when the adapter is given none. */
  readonly sessionId: string;
  /** Where the advertised tools come from. */
  readonly executor: { readonly registry: { readonly tools: readonly Tool[] } };
  /** Runs one call end to end and says what the model should be told. */
  processCall(input: ProcessCallInput): Promise<ProcessCallResult>;
  /** `false` when the call may run unasked (or will be refused anyway), else why to ask. */
  needsApproval(
    toolId: string,
    parameters: unknown,
    options?: NeedsApprovalOptions,
  ): ApprovalRequirementDetails | false | Promise<ApprovalRequirementDetails | false>;
  /** Records a decision made in the framework's own approval flow (audited, remembered). */
  recordDecision(input: RecordDecisionInput): Promise<RecordedDecision>;
}
