import type {
  ApprovalAnswer,
  ApprovalHandler,
  ApprovalPolicy,
  ApprovalPromptDetails,
  ApprovalRequest,
} from "../approval/index.js";
import { type JsonObject, RiskLevel, riskLevelName, ToolErrorCode } from "../core/index.js";
import { ToolResult } from "../result/index.js";
import type { Tool } from "../tools/index.js";
import type { AuditCallDecision } from "./audit-log.js";
import type { Execution, ExecutionPlan } from "./execution.js";
import { errorText, type Outcome, stoppedOutcome } from "./execution-outcome.js";
import type { ExecutorRuntime } from "./executor-runtime.js";
import { ToolExecutionEventType } from "./tool-execution-event.js";
import type { ToolExecutionOptions } from "./tool-execution-options.js";
import { ToolExecutionStatus } from "./tool-execution-status.js";
import type { ToolInput } from "./tool-input.js";

/**
 * The executor's approval gate (`ToolExecutorConfig.approval`): the policy that decides which
 * calls run, are refused or need a person, and the handler that asks the person.
 *
 * - `{ policy, handler }`: every call not already approved goes through `policy.decide`; a
 *   denial refuses it (status `denied`, code `Denied`); an "ask", or a tool that requires
 *   confirmation, asks `handler` (or the call's own `confirmationCallback`, which wins). The
 *   handler has `timeoutMs` (default 300,000) to answer; no answer, an error or a "no" refuses
 *   the call (status `denied`, code `ConfirmationDenied`). Edited arguments are validated and
 *   checked by the policy again; an edit that makes the call riskier is refused.
 * - `"none"`: no gate, for trusted batch jobs: only a tool that requires confirmation (or a call
 *   with `requireConfirmation`) asks, through the call's `confirmationCallback` (spec 003).
 * - absent: a call whose effective risk is High or Critical, or whose tool requires confirmation,
 *   asks the call's `confirmationCallback`, and without one is refused with status
 *   `requiresConfirmation`, code `ConfirmationRequired`, and a message that says how to configure
 *   approvals. Safe, Low and Medium calls run.
 *
 * A call already approved by its sender skips the gate: a per-call `approvedBy`, or (AIntern
 * path) a context built with `isApproved: true`, as the `ToolCallProcessor` sends.
 */
export type ExecutorApproval =
  | {
      readonly policy: ApprovalPolicy;
      readonly handler: ApprovalHandler;
      /** How long the handler may take to answer (default 300,000 ms); then the call is refused. */
      readonly timeoutMs?: number;
    }
  | "none";

/** What the approval step must do for one call; `undefined` when the call runs unasked. */
type ApprovalNeed =
  | { readonly kind: "deny"; readonly reason: string }
  | {
      readonly kind: "ask";
      readonly riskLevel: RiskLevel;
      readonly reason: string;
      readonly warning?: string;
      /** No gate is configured: only the call's own confirmation callback can approve. */
      readonly unconfigured: boolean;
    };

/** Whether the sender of the call already approved it. */
export function isPreApproved(plan: ExecutionPlan): boolean {
  return plan.options.approvedBy !== undefined || plan.context?.isApproved === true;
}

/** What the gate requires of a call that was not approved by its sender (synchronous, cheap). */
export function approvalNeed(
  runtime: ExecutorRuntime,
  plan: ExecutionPlan,
  tool: Tool,
  parameters: JsonObject,
): ApprovalNeed | undefined {
  const confirm = plan.options.requireConfirmation === true || tool.requiresConfirmation;
  const gate = runtime.approval;
  if (gate === "none") {
    return confirm
      ? {
          kind: "ask",
          riskLevel: tool.defaultRiskLevel,
          reason: "The tool requires confirmation",
          unconfigured: true,
        }
      : undefined;
  }
  const riskLevel = tool.getEffectiveRiskLevel(parameters);
  if (gate === undefined) {
    if (!confirm && riskLevel < RiskLevel.High) return undefined;
    return {
      kind: "ask",
      riskLevel,
      reason: confirm
        ? "The tool requires confirmation"
        : `${riskLevelName(riskLevel)} risk calls need approval`,
      unconfigured: true,
    };
  }
  const decision = gate.policy.decide({
    toolId: tool.id,
    category: tool.category,
    riskLevel,
    parameters,
    ...workspaceOf(runtime, plan),
  });
  if (decision.kind === "deny") return { kind: "deny", reason: decision.reason };
  if (decision.kind === "allow" && !confirm) return undefined;
  return {
    kind: "ask",
    riskLevel,
    reason: decision.kind === "ask" ? decision.reason : "The tool requires confirmation",
    ...(decision.kind === "ask" && decision.warning !== undefined
      ? { warning: decision.warning }
      : {}),
    unconfigured: false,
  };
}

/**
 * Step 4: asks for approval as `need` says. Resolves the outcome that ends the execution, or
 * `undefined` to run it (with `execution.editedParameters` when the approver edited them).
 */
export async function askApproval(
  runtime: ExecutorRuntime,
  execution: Execution,
  tool: Tool,
  parameters: JsonObject,
  need: ApprovalNeed,
): Promise<Outcome | undefined> {
  if (need.kind === "deny") {
    execution.gateDecision = { decision: "denied", decidedBy: "rule" };
    return {
      tool,
      status: ToolExecutionStatus.Denied,
      result: ToolResult.failed(`Denied by policy: ${need.reason}`, ToolErrorCode.Denied),
      wasApproved: false,
      denialReason: need.reason,
    };
  }
  const { plan, cancellation } = execution;
  execution.emit(
    ToolExecutionEventType.ConfirmationRequested,
    "Confirmation required",
    execution.elapsed(),
  );
  const callback = plan.options.confirmationCallback;
  const gate = runtime.approval;
  let answer: ApprovalAnswer | { error: unknown };
  if (callback !== undefined) {
    const confirmed = await confirm(callback, plan.input, cancellation.signal);
    answer = confirmed === true || confirmed === false ? { approved: confirmed } : confirmed;
  } else if (gate !== undefined && gate !== "none") {
    answer = await ask(gate, approvalRequest(execution, tool, parameters, need), need, execution);
  } else {
    execution.gateDecision = { decision: "denied", decidedBy: "no-handler" };
    return {
      tool,
      status: ToolExecutionStatus.RequiresConfirmation,
      result: ToolResult.failed(
        gate === "none"
          ? `'${tool.id}' needs confirmation before it runs, and no confirmation callback was given`
          : `'${tool.id}' needs confirmation before it runs, and no confirmation callback was given: ${need.reason}, and this executor has no approval gate. Configure one (new ToolExecutor({ registry, approval: { policy: new ApprovalPolicy(), handler } })), send the call through a ToolCallProcessor, pass a confirmationCallback for this call, or set approval: "none" for trusted batch jobs.`,
        ToolErrorCode.ConfirmationRequired,
      ),
      wasApproved: false,
    };
  }
  if (cancellation.aborted) {
    execution.gateDecision = { decision: "cancelled", decidedBy: "caller" };
    return stoppedOutcome(tool, cancellation, false, undefined, false);
  }
  execution.gateDecision = gateDecisionOf(answer, callback !== undefined);
  if ("error" in answer || answer.approved !== true) {
    const reason =
      "error" in answer
        ? `Confirmation failed: ${errorText(answer.error)}`
        : callback !== undefined
          ? "Confirmation denied by user"
          : `Denied: ${answer.reason ?? "the approver said no"}`;
    return {
      tool,
      status: ToolExecutionStatus.Denied,
      result: ToolResult.failed(reason, ToolErrorCode.ConfirmationDenied),
      wasApproved: false,
    };
  }
  const edited = answer.modifiedParameters;
  if (edited !== undefined && gate !== undefined && gate !== "none") {
    const refused = checkEdit(runtime, execution, tool, edited, need.riskLevel, gate.policy);
    if (refused !== undefined) {
      execution.gateDecision = { ...execution.gateDecision, decision: "denied", decidedBy: "rule" };
      return refused;
    }
    execution.editedParameters = edited;
  }
  execution.emit(
    ToolExecutionEventType.ConfirmationReceived,
    "Confirmation received",
    execution.elapsed(),
  );
  return undefined;
}

/** The audit's decision columns for an answer of the gate's handler or confirmation callback. */
function gateDecisionOf(
  answer: ApprovalAnswer | { error: unknown },
  fromCallback: boolean,
): AuditCallDecision {
  if ("error" in answer) return { decision: "denied", decidedBy: "handler-error" };
  // A person's decision is recorded under the name the handler gave, as the processor does.
  const named = typeof answer.decidedBy === "string" ? answer.decidedBy : undefined;
  const decidedBy = fromCallback
    ? "callback"
    : answer === timedOutAnswer
      ? "timeout"
      : (named ?? "person");
  return answer.approved === true
    ? { decision: "approved", decidedBy, approvalScope: "once" }
    : { decision: "denied", decidedBy };
}

/** Refuses edited arguments that fail validation, that the policy denies, or that raise the risk. */
function checkEdit(
  runtime: ExecutorRuntime,
  execution: Execution,
  tool: Tool,
  edited: JsonObject,
  approvedRisk: RiskLevel,
  policy: ApprovalPolicy,
): Outcome | undefined {
  const validation = tool.validate(edited);
  if (!validation.isValid) {
    return {
      tool,
      status: ToolExecutionStatus.ValidationError,
      result: ToolResult.validationFailed(validation),
      wasApproved: false,
      redactedError: runtime.options.logParameters
        ? validation.getErrorMessage()
        : "the edited parameters failed validation",
    };
  }
  const riskLevel = tool.getEffectiveRiskLevel(edited);
  const decision = policy.decide({
    toolId: tool.id,
    category: tool.category,
    riskLevel,
    parameters: edited,
    ...workspaceOf(runtime, execution.plan),
  });
  const problem =
    decision.kind === "deny"
      ? `the edited call is denied by policy: ${decision.reason}`
      : riskLevel > approvedRisk
        ? `the edited call is ${riskLevelName(riskLevel)} risk, more than the ${riskLevelName(approvedRisk)} risk call that was approved; send it again to be asked about it`
        : undefined;
  if (problem === undefined) return undefined;
  return {
    tool,
    status: ToolExecutionStatus.Denied,
    result: ToolResult.failed(`Denied: ${problem}`, ToolErrorCode.Denied),
    wasApproved: false,
    denialReason: problem,
  };
}

function workspaceOf(runtime: ExecutorRuntime, plan: ExecutionPlan): { workspacePath?: string } {
  const workspace = plan.context?.workspacePath ?? runtime.workspacePath;
  return workspace === undefined || workspace === "" ? {} : { workspacePath: workspace };
}

/** The request the handler is shown: the call's id (or the execution's), the tool and arguments. */
function approvalRequest(
  execution: Execution,
  tool: Tool,
  parameters: JsonObject,
  need: { readonly riskLevel: RiskLevel },
): ApprovalRequest {
  return {
    id: execution.tracker.callId ?? execution.plan.executionId,
    toolId: tool.id,
    toolName: tool.name,
    parameters,
    riskLevel: need.riskLevel,
    executionSummary: tool.getExecutionSummary(parameters),
  };
}

/** What the gate's handler is taken to have said when it did not answer in time. */
const timedOutAnswer: ApprovalAnswer = Object.freeze({
  approved: false,
  reason: "Approval request timed out",
});

/** One prompt through the gate's handler, bounded by its timeout and the execution's signal. */
function ask(
  gate: Exclude<ExecutorApproval, "none">,
  request: ApprovalRequest,
  need: { readonly reason: string; readonly warning?: string; readonly riskLevel: RiskLevel },
  execution: Execution,
): Promise<ApprovalAnswer | { error: unknown }> {
  const details: ApprovalPromptDetails = {
    reason: need.reason,
    riskLevel: need.riskLevel,
    round: 1,
    ...(need.warning === undefined ? {} : { warning: need.warning }),
  };
  const controller = new AbortController();
  const stop = execution.cancellation.onAbort(() => controller.abort());
  if (execution.cancellation.aborted) controller.abort();
  const timeoutMs = gate.timeoutMs ?? 300_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise<ApprovalAnswer | { error: unknown }>((resolve) => {
    timer = setTimeout(() => resolve(timedOutAnswer), timeoutMs);
    controller.signal.addEventListener(
      "abort",
      () => resolve({ approved: false, reason: "Request was cancelled" }),
      { once: true },
    );
    Promise.resolve()
      .then(() => gate.handler.requestApproval(request, controller.signal, details))
      .then(
        (answer) =>
          resolve(
            typeof answer === "object" && answer !== null
              ? answer
              : { approved: false, reason: "The approval handler returned no decision" },
          ),
        (error: unknown) => resolve({ error }),
      );
  }).finally(() => {
    clearTimeout(timer);
    stop();
    controller.abort(); // tells a handler still prompting that the answer is no longer needed
  });
}

/** Asks the confirmation callback; resolves `{ error }` if it throws, false if aborted first. */
function confirm(
  callback: NonNullable<ToolExecutionOptions["confirmationCallback"]>,
  input: ToolInput,
  signal: AbortSignal,
): Promise<boolean | { error: unknown }> {
  return new Promise((resolve) => {
    const onAbort = (): void => resolve(false);
    signal.addEventListener("abort", onAbort, { once: true });
    Promise.resolve()
      .then(() => callback(input, signal))
      .then(
        (answer) => resolve(answer === true),
        (error: unknown) => resolve({ error }),
      )
      .finally(() => signal.removeEventListener("abort", onAbort));
  });
}
