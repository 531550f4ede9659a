import type { RunContext, RunToolApprovalItem } from "@openai/agents";
import { type AinternGate, markDecisionRecorded, type RecordedDecision } from "../shared/index.js";
import { agentsToolBinding } from "./agents-tool-registry.js";

/** What {@link applyDecisions} reads of a run's `RunState` (any agent, any context). */
export interface DecidedRunState {
  readonly _context: Pick<RunContext<unknown>, "isToolApproved" | "toJSON" | "getRejectionMessage">;
  getInterruptions(): RunToolApprovalItem[];
}

/** Options of {@link applyDecisions}. */
export interface ApplyDecisionsOptions {
  /** Who decided, recorded with each decision and in the audit. */
  readonly decidedBy?: string;
}

/**
 * Records with aintern what the person decided on a run's interruptions (`state.approve(item)`,
 * `state.reject(item, { message })`): each decision is bound to the call's arguments, audited, and
 * used when the run goes on; a rejection is recorded with its message (the SDK answers a rejected
 * call itself and never calls the tool, so without this a denial is not audited). An
 * `alwaysApprove` is recorded as a permission remembered for the session, which aintern's policy
 * then applies: never to a Critical call, nor to a protected path. Interruptions not decided yet,
 * and tools not made by {@link toAgentsTools} for this processor, are left alone. Call it after
 * approving / rejecting and before running the state again.
 *
 * @example
 * ```ts
 * for (const item of result.interruptions) result.state.reject(item, { message: "Not now" });
 * await applyDecisions(result.state, processor);
 * result = await run(agent, result.state);
 * ```
 */
export async function applyDecisions(
  runState: DecidedRunState,
  processor: AinternGate,
  options: ApplyDecisionsOptions = {},
): Promise<RecordedDecision[]> {
  const recorded: RecordedDecision[] = [];
  const context = runState._context;
  for (const item of runState.getInterruptions()) {
    const raw = item.rawItem;
    const name = item.name;
    if (raw.type !== "function_call" || name === undefined) continue;
    const binding = agentsToolBinding(processor, name);
    if (binding === undefined) continue;
    const approved = context.isToolApproved({ toolName: name, callId: raw.callId });
    if (approved === undefined) continue;
    const always = approved && context.toJSON().approvals[name]?.approved === true;
    const message = approved
      ? undefined
      : context.getRejectionMessage(name, raw.callId, { functionTool: true });
    recorded.push(
      await processor.recordDecision({
        toolId: binding.toolId,
        parameters: binding.parametersOf(parseArguments(raw.arguments)),
        callId: raw.callId,
        sessionId: binding.sessionId,
        decision: {
          approved,
          ...(message === undefined ? {} : { reason: message }),
          ...(always ? { rememberForSession: true } : {}),
        },
        ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
      }),
    );
    markDecisionRecorded(processor, binding.sessionId, raw.callId);
  }
  return recorded;
}

/** The call's arguments; text that is not JSON is passed on for aintern to refuse. */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
