import type { ProviderAnswer } from "./provider-answer.js";

/** One Gemini `functionResponse` part (`id` only when the provider gave the call one). */
export interface GeminiFunctionResponsePart {
  functionResponse: {
    id?: string;
    name: string;
    response: { output: string } | { error: string };
  };
}

/** The Gemini content carrying every `functionResponse` of a turn. */
export interface GeminiFunctionResponseContent {
  role: "user";
  parts: GeminiFunctionResponsePart[];
}

/**
 * One user content with a `functionResponse` part per call (`{ output }` or `{ error }`; the
 * call id only when Gemini gave one); none for no calls.
 */
export function toGeminiFunctionResponses(
  answers: readonly ProviderAnswer[],
): GeminiFunctionResponseContent[] {
  if (answers.length === 0) return [];
  return [{ role: "user", parts: answers.map(geminiPart) }];
}

function geminiPart(answer: ProviderAnswer): GeminiFunctionResponsePart {
  const response = answer.isError ? { error: answer.content } : { output: answer.content };
  return {
    functionResponse: {
      ...(answer.hasProviderCallId && { id: answer.callId }),
      name: answer.toolName,
      response,
    },
  };
}
