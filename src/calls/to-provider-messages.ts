import type { ToLlmContextOptions } from "../result/index.js";
import type { ToolCallBatch } from "./tool-call-batch.js";
import type { ToolCallFormat } from "./tool-call-format.js";
import { type ToolCallOutcome, toolCallOutcome } from "./tool-call-outcome.js";
import type { ToolCallRequest } from "./tool-call-request.js";

/** An OpenAI Chat Completions tool message. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** An OpenAI Responses API input item answering a `function_call`. */
export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** One Anthropic `tool_result` content block. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error: boolean;
}

/** The Anthropic user message carrying every `tool_result` of a turn. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResultBlock[];
}

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
 * {@link toolCallOutcome} for the text).
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
  format: ToolCallFormat,
  options: ToProviderMessagesOptions = {},
): ProviderMessagesByFormat[ToolCallFormat] {
  const answers = batch.calls.map((call) => ({
    call,
    outcome: toolCallOutcome(batch, call, options),
  }));
  switch (format) {
    case "openai-chat":
      return answers.map(({ call, outcome }) => ({
        role: "tool" as const,
        tool_call_id: callId(call),
        content: outcome.content,
      }));
    case "openai-responses":
      return answers.map(({ call, outcome }) => ({
        type: "function_call_output" as const,
        call_id: callId(call),
        output: outcome.content,
      }));
    case "anthropic":
      if (answers.length === 0) return [];
      return [
        {
          role: "user",
          content: answers.map(({ call, outcome }) => ({
            type: "tool_result",
            tool_use_id: callId(call),
            content: outcome.content,
            is_error: outcome.isError,
          })),
        },
      ];
    case "gemini":
      if (answers.length === 0) return [];
      return [
        { role: "user", parts: answers.map(({ call, outcome }) => geminiPart(call, outcome)) },
      ];
    case "text":
      return answers.map(({ call, outcome }) => textBlock(call, outcome)).join("\n");
    default:
      return format satisfies never;
  }
}

/** The id the provider knows the call by (the request id for a request built by hand). */
function callId(call: ToolCallRequest): string {
  return call.providerCallId ?? call.id;
}

function toolName(call: ToolCallRequest): string {
  return call.toolName !== "" ? call.toolName : call.toolId !== "" ? call.toolId : "unknown";
}

function geminiPart(call: ToolCallRequest, outcome: ToolCallOutcome): GeminiFunctionResponsePart {
  const response = outcome.isError ? { error: outcome.content } : { output: outcome.content };
  const id = call.callIdSynthesized ? undefined : call.providerCallId;
  return {
    functionResponse: {
      ...(id !== undefined && { id }),
      name: toolName(call),
      response,
    },
  };
}

function textBlock(call: ToolCallRequest, outcome: ToolCallOutcome): string {
  const error = outcome.isError ? ' error="true"' : "";
  // A result must not be able to close its own block and forge another.
  const content = outcome.content.replace(/<\/(tool_result)/gi, "<\\/$1");
  return (
    `<tool_result name="${attribute(toolName(call))}" id="${attribute(callId(call))}"${error}>\n` +
    `${content}\n</tool_result>`
  );
}

function attribute(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}
