// The README's AI SDK example (typechecked with the project; `aintern/ai-sdk` is
// src/adapters/ai-sdk here). Works the same with AI SDK 6 and 7.
import { generateText, type LanguageModel, type ModelMessage, stepCountIs } from "ai";
import { recordApprovalResponses, toAiSdkTools } from "../../src/adapters/ai-sdk/index.js";

type Processor = Parameters<typeof toAiSdkTools>[0];

/** One turn with the AI SDK's approval flow; `ask` is your approval UI. */
export async function aiSdkTurn(
  model: LanguageModel,
  processor: Processor,
  messages: ModelMessage[],
  ask: (toolName: string, input: unknown) => Promise<{ approved: boolean; reason?: string }>,
): Promise<string> {
  const sessionId = "conversation-42";
  const tools = toAiSdkTools(processor, { approval: "framework", sessionId });
  let result = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
  messages.push(...result.response.messages);
  const requests = result.content.filter((part) => part.type === "tool-approval-request");
  if (requests.length > 0) {
    const answers = [];
    for (const request of requests) {
      // processor.needsApproval(...) gives aintern's reason, risk, summary and Critical warning.
      const answer = await ask(request.toolCall.toolName, request.toolCall.input);
      answers.push({
        type: "tool-approval-response" as const,
        approvalId: request.approvalId,
        ...answer,
      });
    }
    messages.push({ role: "tool", content: answers });
    await recordApprovalResponses(processor, messages, {
      sessionId,
      remember: () => ({ rememberForSession: true }), // from a checkbox of your UI
    });
    result = await generateText({ model, tools, messages, stopWhen: stepCountIs(10) });
    messages.push(...result.response.messages);
  }
  return result.text;
}
