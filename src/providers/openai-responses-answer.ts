import type { ProviderAnswer } from "./provider-answer.js";

/** An OpenAI Responses API input item answering a `function_call`. */
export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** One `{ type: "function_call_output", call_id, output }` item per call. */
export function toOpenAIResponsesOutputs(
  answers: readonly ProviderAnswer[],
): OpenAIResponsesFunctionCallOutput[] {
  return answers.map((answer) => ({
    type: "function_call_output",
    call_id: answer.callId,
    output: answer.content,
  }));
}
