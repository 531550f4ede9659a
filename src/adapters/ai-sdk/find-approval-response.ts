import type { ModelMessage } from "ai";

/** An approval response of the AI SDK's flow, with the call it answers. */
export interface AiSdkApprovalAnswer {
  readonly approvalId: string;
  readonly toolCallId: string;
  readonly toolName: string;
  readonly input: unknown;
  readonly approved: boolean;
  readonly reason?: string;
}

/**
 * The approval responses of the last message (when it is a `tool` message, as the AI SDK reads
 * them), each joined to its request and tool call; responses to calls that already have a
 * result, or whose request or call cannot be found, are left out (the AI SDK rejects those).
 */
export function approvalAnswers(messages: readonly ModelMessage[]): AiSdkApprovalAnswer[] {
  const last = messages.at(-1);
  if (last === undefined || last.role !== "tool") return [];
  const requests = new Map<string, string>();
  const calls = new Map<string, { toolName: string; input: unknown }>();
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-request") requests.set(part.approvalId, part.toolCallId);
      if (part.type === "tool-call") {
        calls.set(part.toolCallId, { toolName: part.toolName, input: part.input });
      }
    }
  }
  const answered = new Set<string>();
  for (const part of last.content) {
    if (part.type === "tool-result") answered.add(part.toolCallId);
  }
  const answers: AiSdkApprovalAnswer[] = [];
  for (const part of last.content) {
    if (part.type !== "tool-approval-response") continue;
    const toolCallId = requests.get(part.approvalId);
    if (toolCallId === undefined || answered.has(toolCallId)) continue;
    const call = calls.get(toolCallId);
    if (call === undefined) continue;
    answered.add(toolCallId);
    answers.push({
      approvalId: part.approvalId,
      toolCallId,
      toolName: call.toolName,
      input: call.input,
      approved: part.approved,
      ...(part.reason === undefined ? {} : { reason: part.reason }),
    });
  }
  return answers;
}

/** Whether the AI SDK asked for approval of this call earlier in `messages`. */
export function wasApprovalRequested(
  messages: readonly ModelMessage[],
  toolCallId: string,
): boolean {
  for (const message of messages) {
    if (message.role !== "assistant" || typeof message.content === "string") continue;
    for (const part of message.content) {
      if (part.type === "tool-approval-request" && part.toolCallId === toolCallId) return true;
    }
  }
  return false;
}
