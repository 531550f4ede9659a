import { AinternError } from "../core/index.js";
import {
  type AnthropicToolResultMessage,
  type GeminiFunctionResponseContent,
  type OpenAIChatToolMessage,
  type OpenAIResponsesFunctionCallOutput,
  type ProviderAnswer,
  type ToolCallFormat,
  toAnthropicToolResultMessages,
  toGeminiFunctionResponses,
  toOpenAIChatToolMessages,
  toOpenAIResponsesOutputs,
  toTextToolResults,
} from "../providers/index.js";
import type { ToLlmContextOptions } from "../result/index.js";
import type { ToolCallBatch } from "./tool-call-batch.js";
import { toolCallOutcome } from "./tool-call-outcome.js";
import type { ToolCallRequest } from "./tool-call-request.js";

/** What {@link toProviderMessages} returns for each format. */
export interface ProviderMessagesByFormat {
  "openai-chat": OpenAIChatToolMessage[];
  "openai-responses": OpenAIResponsesFunctionCallOutput[];
  anthropic: AnthropicToolResultMessage[];
  gemini: GeminiFunctionResponseContent[];
  text: string;
}

/** Options of {@link toProviderMessages}. */
export type ToProviderMessagesOptions = ToLlmContextOptions;

/**
 * The messages that answer every call of a batch, in the provider's format, ready to append to
 * the conversation. Each call gets exactly one result, in call order, whatever became of it:
 * completed, failed, timed out, cancelled, denied, invalid, or never executed (see
 * {@link toolCallOutcome} for the text). Without `format`, the batch's own format is used (the
 * one `parseToolCalls` found the calls in).
 *
 * - `"openai-chat"`: one `{ role: "tool", tool_call_id, content }` message per call.
 * - `"openai-responses"`: one `{ type: "function_call_output", call_id, output }` item per call.
 * - `"anthropic"`: one user message with a `tool_result` block per call (`is_error` set).
 * - `"gemini"`: one user content with a `functionResponse` part per call (`{ output }` or
 *   `{ error }`; the call id only when Gemini gave one).
 * - `"text"`: `<tool_result name=".." id="..">...</tool_result>` blocks, one per call.
 *
 * Anthropic and Gemini get an array of one message (none for an empty batch), so every JSON
 * format can be spread into a message list.
 *
 * @throws AinternError `"INVALID_OPTIONS"` when no format is given and the batch has none.
 *
 * @example
 * ```ts
 * messages.push(...toProviderMessages(batch, "anthropic"));
 * ```
 */
export function toProviderMessages<F extends ToolCallFormat>(
  batch: ToolCallBatch,
  format: F,
  options?: ToProviderMessagesOptions,
): ProviderMessagesByFormat[F];
export function toProviderMessages(
  batch: ToolCallBatch,
  format?: ToolCallFormat,
  options?: ToProviderMessagesOptions,
): ProviderMessagesByFormat[ToolCallFormat];
export function toProviderMessages(
  batch: ToolCallBatch,
  format: ToolCallFormat | undefined = batch.format,
  options: ToProviderMessagesOptions = {},
): ProviderMessagesByFormat[ToolCallFormat] {
  if (format === undefined) {
    throw new AinternError(
      "INVALID_OPTIONS",
      'toProviderMessages needs a format: this batch was not parsed from a provider response, so pass one ("openai-chat", "openai-responses", "anthropic", "gemini" or "text").',
    );
  }
  const answers = batch.calls.map((call) => providerAnswer(batch, call, options));
  switch (format) {
    case "openai-chat":
      return toOpenAIChatToolMessages(answers);
    case "openai-responses":
      return toOpenAIResponsesOutputs(answers);
    case "anthropic":
      return toAnthropicToolResultMessages(answers);
    case "gemini":
      return toGeminiFunctionResponses(answers);
    case "text":
      return toTextToolResults(answers);
    default:
      return format satisfies never;
  }
}

function providerAnswer(
  batch: ToolCallBatch,
  call: ToolCallRequest,
  options: ToProviderMessagesOptions,
): ProviderAnswer {
  const outcome = toolCallOutcome(batch, call, options);
  return {
    // The id the provider knows the call by (the request id for a request built by hand).
    callId: call.providerCallId ?? call.id,
    toolName: call.toolName !== "" ? call.toolName : call.toolId !== "" ? call.toolId : "unknown",
    hasProviderCallId: call.providerCallId !== undefined && !call.callIdSynthesized,
    content: outcome.content,
    isError: outcome.isError,
  };
}
