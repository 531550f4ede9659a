import type { ApprovalDecision, ToolCallLifecycle, ToolCallStatus } from "../calls/index.js";
import type { ToolProgress } from "../context/index.js";
import type { JsonObject, JsonValue, RiskLevel } from "../core/index.js";
import type { ToolResult } from "../result/index.js";

/**
 * One call through the gate, as the MCP server makes it. The shape of `processCall` of the
 * one-gate issue (calls folder), which every front end uses.
 */
export interface McpGateCall {
  readonly toolId: string;
  readonly parameters: JsonObject;
  /** A unique id of this call (the idempotency key of stored calls). */
  readonly callId?: string;
  /** The MCP session or connection: session-scoped remembered approvals belong to it. */
  readonly sessionId?: string;
  /** Aborts the call (notifications/cancelled, a client that went away). */
  readonly signal?: AbortSignal;
  /** Receives the tool's progress reports. */
  readonly onProgress?: (progress: ToolProgress) => void;
  /** The person's answer, when the front end asked itself (elicitation). */
  readonly decision?: ApprovalDecision;
}

/** What became of one call. */
export interface McpGateResult {
  readonly status: ToolCallStatus;
  /** True for a validation failure, a denial, a failure, a timeout or a cancellation. */
  readonly isError: boolean;
  /** The text for the model. */
  readonly content: string;
  /** The tool's data (JSON-safe), when it returned any. */
  readonly data?: JsonValue;
  readonly result: ToolResult;
  readonly lifecycle: ToolCallLifecycle;
}

/** Why a call needs a person's approval, as a prompt shows it. */
export interface McpApprovalNeed {
  readonly reason: string;
  readonly riskLevel: RiskLevel;
  /** What the call will do ("Write 120 bytes to src/a.ts"). */
  readonly summary: string;
  /** Shown with Critical calls. */
  readonly warning?: string;
}

/**
 * The gate the MCP server sends every call through: validation, the approval policy, remembered
 * permissions, execution under the executor's timeouts and isolation, and the audit log.
 */
export interface McpGate {
  processCall(call: McpGateCall): Promise<McpGateResult>;
  /**
   * Whether a call would need a person's approval now (false when it runs, is refused, or is
   * invalid: `processCall` answers those).
   */
  needsApproval(
    toolId: string,
    parameters: JsonObject,
    options: { readonly sessionId?: string },
  ): false | McpApprovalNeed | Promise<false | McpApprovalNeed>;
  /** Forgets the session-scoped approvals of a session that ended. */
  endSession?(sessionId: string): Promise<void>;
}
