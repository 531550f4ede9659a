import { AinternError } from "../core/index.js";
import type { RawToolCall, ToolCallFormat } from "../providers/index.js";
import {
  detectToolCallFormat,
  extractAnthropicToolCalls,
  extractGeminiToolCalls,
  extractOpenAIChatToolCalls,
  extractOpenAIResponsesToolCalls,
  extractTextToolCalls,
  TooManyToolCallsError,
} from "../providers/index.js";
import { buildToolCallRequest, toolDirectory } from "./build-tool-call-request.js";
import type { Clock } from "./clock.js";
import { ToolCallBatch } from "./tool-call-batch.js";
import type { ToolCallLifecycleConfig } from "./tool-call-lifecycle.js";

/** Options of {@link parseToolCalls}. */
export interface ParseToolCallsOptions {
  /** The response format; detected from the response's shape when left out. */
  format?: ToolCallFormat;
  /** The agent-loop iteration, stamped on every request and the batch (default 0). */
  iterationNumber?: number;
  /**
   * The ids of the tools the model may call. When given, a call to any other tool (matched
   * case-insensitively) gets a failed validation result with "Did you mean ...?" suggestions.
   */
  toolIds?: Iterable<string>;
  /** The most calls one response may hold (default 128); more throws {@link TooManyToolCallsError}. */
  maxCalls?: number;
  /** The most bytes of JSON text one call's arguments may have (default 1 MiB). */
  maxArgumentsBytes?: number;
  /** Where `requestedAt` and the lifecycles' timestamps come from (default: the system clock). */
  clock?: Clock;
  /** Passed to every lifecycle the batch creates (e.g. an `onTransition` listener). */
  lifecycle?: Omit<ToolCallLifecycleConfig, "clock">;
}

/** The default of {@link ParseToolCallsOptions.maxCalls}. */
export const defaultMaxToolCalls = 128;
/** The default of {@link ParseToolCallsOptions.maxArgumentsBytes}: 1 MiB. */
export const defaultMaxArgumentsBytes = 1024 * 1024;

type Extractor = (response: unknown, maxCalls: number) => RawToolCall[];

const extractors: ReadonlyMap<ToolCallFormat, Extractor> = new Map<ToolCallFormat, Extractor>([
  ["openai-chat", extractOpenAIChatToolCalls],
  ["openai-responses", extractOpenAIResponsesToolCalls],
  ["anthropic", extractAnthropicToolCalls],
  ["gemini", extractGeminiToolCalls],
  [
    "text",
    (response, maxCalls) =>
      typeof response === "string" ? extractTextToolCalls(response, maxCalls) : [],
  ],
]);

/**
 * Reads the tool calls of one model response into a {@link ToolCallBatch}, with a lifecycle (in
 * Parsed) per call.
 *
 * Nothing the model asked for is dropped: every call becomes a request, in order, keeping the
 * provider's call id (synthesized, and marked `callIdSynthesized`, where the provider gives none).
 * A call that cannot be used as sent (no tool name, an unknown tool, arguments that are not a
 * JSON object, arguments over the size limit) still becomes a request, whose `validationResult`
 * is a failure with a message the model can act on; {@link toProviderMessages} sends it back.
 * Broken argument JSON is repaired where that is safe, keeping the original in `rawJson` and a
 * warning on the request.
 *
 * A response whose shape matches no format (or not the given one) has no calls: an empty batch.
 * The batch is parallel when the provider returned more than one call at once.
 *
 * Reads complete responses; accumulate a stream into its final message first.
 *
 * @throws TooManyToolCallsError when the response holds more than `maxCalls` calls (checked
 *   before any request is built).
 * @throws AinternError `"INVALID_OPTIONS"` for a `maxCalls` or `maxArgumentsBytes` that is not a
 *   positive integer, or an unknown `format`.
 *
 * @example
 * ```ts
 * const batch = parseToolCalls(completion, { toolIds: registry.ids(), iterationNumber: 3 });
 * for (const call of batch.calls) {
 *   if (!call.isValid) continue; // its error goes back to the model with the results
 *   ...
 * }
 * messages.push(...toProviderMessages(batch)); // in the format the calls came in
 * ```
 */
export function parseToolCalls(
  response: unknown,
  options: ParseToolCallsOptions = {},
): ToolCallBatch {
  const maxCalls = positiveInteger(options.maxCalls, defaultMaxToolCalls, "maxCalls");
  const maxArgumentsBytes = positiveInteger(
    options.maxArgumentsBytes,
    defaultMaxArgumentsBytes,
    "maxArgumentsBytes",
  );
  const format = options.format ?? detectToolCallFormat(response);
  let raws: RawToolCall[] = [];
  if (format !== undefined) {
    const extract = extractors.get(format);
    if (extract === undefined) {
      throw new AinternError("INVALID_OPTIONS", `Unknown tool call format '${String(format)}'.`);
    }
    raws = extract(response, maxCalls);
  }
  if (raws.length > maxCalls) throw new TooManyToolCallsError(raws.length, maxCalls);

  const clock = options.clock;
  const iterationNumber = options.iterationNumber ?? 0;
  const requestedAt = clock === undefined ? new Date() : clock();
  const settings = {
    iterationNumber,
    maxArgumentsBytes,
    requestedAt,
    tools: options.toolIds === undefined ? undefined : toolDirectory(options.toolIds),
  };
  const calls = raws.map((raw) => buildToolCallRequest(raw, settings));
  const batch = new ToolCallBatch({
    calls,
    iterationNumber,
    isParallel: calls.length > 1,
    format,
    createdAt: requestedAt,
    clock,
  });
  batch.initializeLifecycles({ ...options.lifecycle, clock });
  return batch;
}

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) {
    throw new AinternError("INVALID_OPTIONS", `${name} must be a positive integer, got ${value}.`);
  }
  return value;
}
