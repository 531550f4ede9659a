// In this repository `ai` is AI SDK 6 and AI SDK 7 is installed as `ai7`. The adapter's types
// name `ai`, which in an application that installs AI SDK 7 are AI SDK 7's own (tsconfig.ai7.json
// typechecks the adapter against them, see ai-sdk-v7.test.ts). These two functions give the
// AI SDK 7 tests AI SDK 7's names for the very same values; nothing is converted at run time.
import type { ModelMessage, ToolSet } from "ai";
import type { ModelMessage as Ai7ModelMessage, ToolSet as Ai7ToolSet } from "ai7";
import {
  type RecordApprovalResponsesOptions,
  recordApprovalResponses,
  toAiSdkTools,
} from "../../src/adapters/ai-sdk/index.js";
import type { AinternGate } from "../../src/adapters/shared/index.js";

export function toAi7Tools(...args: Parameters<typeof toAiSdkTools>): Ai7ToolSet {
  const tools: ToolSet = toAiSdkTools(...args);
  return tools as unknown as Ai7ToolSet;
}

export function recordAi7ApprovalResponses(
  processor: AinternGate,
  messages: readonly Ai7ModelMessage[],
  options?: RecordApprovalResponsesOptions,
) {
  return recordApprovalResponses(
    processor,
    messages as unknown as readonly ModelMessage[],
    options,
  );
}
