import type { ModelMessage } from "ai";
import {
  type AinternGate,
  isDecisionRecorded,
  markDecisionRecorded,
  type RecordedDecision,
} from "../shared/index.js";
import { type AiSdkApprovalAnswer, approvalAnswers } from "./find-approval-response.js";

/** What a person chose to remember with an approval (the AI SDK's response has no such field). */
export interface RememberChoice {
  /** Approve similar calls for the rest of the session. */
  readonly rememberForSession?: boolean;
  /** Approve this tool from now on (persisted with a store-backed `RememberedPermissions`). */
  readonly rememberForTool?: boolean;
  /** A glob (`"src/**"`) or command pattern (`"npm *"`) the remembered approval covers. */
  readonly rememberPattern?: string;
}

/** Options of {@link recordApprovalResponses}. */
export interface RecordApprovalResponsesOptions {
  /** The conversation; default the processor's `sessionId` (use the one given to `toAiSdkTools`). */
  readonly sessionId?: string;
  /** Who decided, recorded with each decision and in the audit. */
  readonly decidedBy?: string;
  /** What to remember with an approval, for example from a checkbox of your approval UI. */
  readonly remember?: (answer: AiSdkApprovalAnswer) => RememberChoice | undefined;
}

/**
 * Records the approval responses of the AI SDK's flow (`tool-approval-response` parts in the last
 * `tool` message) with aintern: approvals, with what the person chose to remember, and denials
 * with their reason, each bound to the call's arguments and audited. Call it with the messages
 * you are about to pass to `generateText` / `streamText` when resuming after approvals: the AI SDK
 * answers a denied call itself and never calls the tool, so without this a denial is not audited.
 * An approval recorded here is used by the tool's `execute`; one not recorded is recorded there.
 * Each response is recorded once, however often this is called.
 *
 * @example
 * ```ts
 * messages.push({ role: "tool", content: [{ type: "tool-approval-response", approvalId, approved: false, reason: "Not on prod" }] });
 * await recordApprovalResponses(processor, messages, { sessionId });
 * const result = await generateText({ model, tools, messages });
 * ```
 */
export async function recordApprovalResponses(
  processor: AinternGate,
  messages: readonly ModelMessage[],
  options: RecordApprovalResponsesOptions = {},
): Promise<RecordedDecision[]> {
  const sessionId = options.sessionId ?? processor.sessionId;
  const recorded: RecordedDecision[] = [];
  for (const answer of approvalAnswers(messages)) {
    if (isDecisionRecorded(processor, sessionId, answer.toolCallId)) continue;
    const remember = answer.approved ? options.remember?.(answer) : undefined;
    const decision = await processor.recordDecision({
      toolId: answer.toolName,
      parameters: answer.input,
      callId: answer.toolCallId,
      sessionId,
      decision: {
        approved: answer.approved,
        ...(answer.reason === undefined ? {} : { reason: answer.reason }),
        ...remember,
      },
      ...(options.decidedBy === undefined ? {} : { decidedBy: options.decidedBy }),
    });
    markDecisionRecorded(processor, sessionId, answer.toolCallId);
    recorded.push(decision);
  }
  return recorded;
}
