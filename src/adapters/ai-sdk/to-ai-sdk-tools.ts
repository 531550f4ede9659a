import { dynamicTool, jsonSchema, type ModelMessage, type ToolSet } from "ai";
import type { Tool as AinternTool } from "../../tools/index.js";
import {
  type AinternGate,
  PendingChecks,
  progressReport,
  progressThenResult,
  selectTools,
  takeDecisionRecorded,
} from "../shared/index.js";
import { type AinternToolOutput, toModelOutputOf, toolResultOutput } from "./ai-sdk-tool-output.js";
import { approvalAnswers, wasApprovalRequested } from "./find-approval-response.js";

/**
 * Who asks a person about calls that need approval:
 * - `"inline"`: aintern's approval handler, inside the tool's `execute` (the processor's
 *   `approvalHandler`; without one such calls are denied);
 * - `"framework"`: the AI SDK's own flow: `needsApproval` follows aintern's policy and remembered
 *   permissions, `generateText` stops with `tool-approval-request` parts, and the
 *   `tool-approval-response`s you add are recorded with aintern (see
 *   {@link recordApprovalResponses}).
 */
export type AiSdkApprovalMode = "inline" | "framework";

/** Options of {@link toAiSdkTools}. */
export interface AiSdkToolsOptions {
  /** Default `"inline"`. */
  readonly approval?: AiSdkApprovalMode;
  /** The conversation the calls belong to; default the processor's `sessionId`. */
  readonly sessionId?: string;
  /** The tool ids to expose (case-insensitive); default every registered tool. */
  readonly tools?: readonly string[];
  /**
   * Stream the tools' progress reports as AI SDK preliminary tool results (`streamText`). Default
   * true; false makes `execute` return a promise, a little cheaper per call.
   */
  readonly streamProgress?: boolean;
}

/**
 * The processor's tools as an AI SDK `ToolSet` for `generateText` / `streamText` (AI SDK 6 and 7).
 * Every call goes through `processor.processCall`: aintern validates it (the AI SDK does not:
 * the model gets aintern's field-level messages), decides on it with its policy and remembered
 * permissions, runs it and audits it. Failures, refusals and denials reach the model as
 * aintern's messages through `toModelOutput` (as error text), never as thrown errors.
 *
 * A call to a tool name the set does not hold (a typo, another case) also reaches aintern, which
 * answers with its "not found, did you mean" message or runs the tool its case-insensitive lookup
 * finds; the set lists only the real tools (`Object.keys`), so only they are advertised. The AI
 * SDK's `activeTools` copies the set and loses this.
 *
 * @example
 * ```ts
 * const tools = toAiSdkTools(processor, { approval: "framework", sessionId });
 * const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
 * ```
 */
export function toAiSdkTools(processor: AinternGate, options: AiSdkToolsOptions = {}): ToolSet {
  const sessionId = options.sessionId ?? processor.sessionId;
  const mode = options.approval ?? "inline";
  const streamProgress = options.streamProgress ?? true;
  const set: ToolSet = Object.create(null);
  const flow: Flow = { processor, mode, sessionId, streamProgress, checks: new PendingChecks() };
  for (const tool of selectTools(processor, options.tools)) {
    set[tool.id] = aiSdkTool(flow, tool.id, describe(tool));
  }
  return withUnknownToolFallback(set, (name) => aiSdkTool(flow, name, unknownToolSource(name)));
}

/** What the adapter reads of the AI SDK's per-call options (the same in AI SDK 6 and 7). */
interface CallOptions {
  readonly toolCallId: string;
  readonly messages: readonly ModelMessage[];
  readonly abortSignal?: AbortSignal | undefined;
}

/** What every tool of one set shares. */
interface Flow {
  readonly processor: AinternGate;
  readonly mode: AiSdkApprovalMode;
  readonly sessionId: string;
  readonly streamProgress: boolean;
  /** `needsApproval`'s checks of calls it let run, for their `execute` (framework mode). */
  readonly checks: PendingChecks;
}

interface ToolSource {
  readonly description: string;
  readonly inputSchema: AinternTool["inputSchema"];
}

function describe(tool: AinternTool): ToolSource {
  return { description: tool.description, inputSchema: tool.inputSchema };
}

function unknownToolSource(name: string): ToolSource {
  return {
    description: `No tool is registered as '${name}'.`,
    inputSchema: { type: "object", properties: {}, required: [], additionalProperties: true },
  };
}

function aiSdkTool(flow: Flow, toolId: string, source: ToolSource): ToolSet[string] {
  const { processor, mode, sessionId, streamProgress, checks } = flow;
  const run = (input: unknown, options: CallOptions) => {
    // The check `needsApproval` made of this very call: the call is not judged again.
    const checked = mode === "framework" ? checks.take(options.toolCallId, input) : undefined;
    const base = {
      toolId,
      parameters: input,
      callId: options.toolCallId,
      sessionId,
      ...(options.abortSignal === undefined ? {} : { signal: options.abortSignal }),
      ...(mode === "framework" ? frameworkDecision(processor, sessionId, options) : {}),
      ...(checked === undefined ? {} : { checked: checked.checked }),
    };
    if (!streamProgress) {
      return processor.processCall(base).then(toolResultOutput);
    }
    return (async function* (): AsyncGenerator<AinternToolOutput> {
      for await (const item of progressThenResult((onProgress) =>
        processor.processCall({ ...base, onProgress }),
      )) {
        yield item.kind === "progress"
          ? progressReport(item.progress)
          : toolResultOutput(item.result);
      }
    })();
  };
  return dynamicTool({
    description: source.description,
    // No `validate`: the AI SDK passes the arguments through and aintern validates them, so the
    // model gets aintern's field-level messages rather than the SDK's schema error.
    // A plain JSON copy: aintern's schema type has readonly arrays the AI SDK's type does not.
    inputSchema: jsonSchema(() => JSON.parse(JSON.stringify(source.inputSchema))),
    execute: run,
    toModelOutput: ({ output }) => toModelOutputOf(output),
    ...(mode === "framework"
      ? {
          needsApproval: async (input: unknown, options: CallOptions) => {
            // A call the AI SDK already asked about keeps needing approval when it checks again on
            // resuming; otherwise a permission remembered meanwhile would turn the approval into
            // a denial.
            if (wasApprovalRequested(options.messages, options.toolCallId)) return true;
            if (processor.checkCall === undefined) {
              return (await processor.needsApproval(toolId, input, { sessionId })) !== false;
            }
            const callId = options.toolCallId;
            const checked = await processor.checkCall({
              toolId,
              parameters: input,
              callId,
              sessionId,
            });
            if (checked.needsApproval !== false) return true;
            checks.keep(callId, input, { checked, parameters: input });
            return false;
          },
        }
      : {}),
  });
}

/**
 * The decision the AI SDK's flow made for this call, for `processCall`: none when
 * `recordApprovalResponses` recorded it already (the processor uses the recorded one) or when
 * the call was never asked about.
 */
function frameworkDecision(
  processor: AinternGate,
  sessionId: string,
  options: CallOptions,
): { decision?: { approved: boolean; reason?: string } } {
  if (takeDecisionRecorded(processor, sessionId, options.toolCallId)) return {};
  const answer = approvalAnswers(options.messages).find((a) => a.toolCallId === options.toolCallId);
  if (answer === undefined) return {};
  return {
    decision: {
      approved: answer.approved,
      ...(answer.reason === undefined ? {} : { reason: answer.reason }),
    },
  };
}

/**
 * `set` answering any other string key with a tool made by `fallback` (made once per name), so a
 * call to an unknown or differently-cased tool name reaches aintern. Own keys, enumeration and
 * spreading see only the real tools.
 */
function withUnknownToolFallback(
  set: ToolSet,
  fallback: (name: string) => ToolSet[string],
): ToolSet {
  const made = new Map<string, ToolSet[string]>();
  const unknown = (name: string): ToolSet[string] => {
    let tool = made.get(name);
    if (tool === undefined) {
      tool = fallback(name);
      made.set(name, tool);
    }
    return tool;
  };
  const isFallbackKey = (key: string | symbol): key is string =>
    typeof key === "string" && !Object.hasOwn(set, key);
  return new Proxy(set, {
    get(target, key, receiver) {
      return isFallbackKey(key) ? unknown(key) : Reflect.get(target, key, receiver);
    },
    has(target, key) {
      return isFallbackKey(key) ? true : Reflect.has(target, key);
    },
    getOwnPropertyDescriptor(target, key) {
      if (!isFallbackKey(key)) return Reflect.getOwnPropertyDescriptor(target, key);
      // Present when asked for by name (the AI SDK 7 looks tools up with `Object.hasOwn`), but
      // not enumerable, and not among the own keys, so it is never advertised or copied.
      return { value: unknown(key), writable: false, enumerable: false, configurable: true };
    },
  });
}
