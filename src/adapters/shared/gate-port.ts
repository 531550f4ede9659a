import type {
  ApprovalRequirementDetails,
  CheckCallInput,
  CheckedCall,
  NeedsApprovalOptions,
  ProcessCallInput,
  ProcessCallResult,
  RecordDecisionInput,
  RecordedDecision,
} from "../../calls/index.js";
import type { Tool } from "../../tools/index.js";

export type {
  ApprovalRequirementDetails,
  CheckCallInput,
  CheckedCall,
  NeedsApprovalOptions,
  ProcessCallInput,
  ProcessCallResult,
  RecordDecisionInput,
  RecordedDecision,
};

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
  ): Promise<ApprovalRequirementDetails | false>;
  /**
   * `needsApproval` whose verdict `processCall` can reuse (`checked`), so a call the framework
   * lets run is judged once. Optional: without it the adapters ask `needsApproval`.
   */
  checkCall?(input: CheckCallInput): Promise<CheckedCall>;
  /** Records a decision made in the framework's own approval flow (audited, remembered). */
  recordDecision(input: RecordDecisionInput): Promise<RecordedDecision>;
}
