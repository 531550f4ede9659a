import type { CallbackManagerForToolRun } from "@langchain/core/callbacks/manager";
import { ToolMessage } from "@langchain/core/messages";
import {
  DynamicStructuredTool,
  type StructuredToolCallInput,
  ToolInputParsingException,
  type ToolRunnableConfig,
  type ToolSchemaBase,
} from "@langchain/core/tools";
import type { Tool as AinternTool } from "../../tools/index.js";
import {
  type AinternGate,
  type CheckedCall,
  type ProcessCallResult,
  type ProgressReport,
  progressReport,
  progressThenResult,
  selectTools,
} from "../shared/index.js";

/**
 * Who asks a person about calls that need approval:
 * - `"inline"`: the processor's `approvalHandler`, inside the tool call (without one, such calls
 *   are denied);
 * - `"interrupt"`: LangGraph's human-in-the-loop: the tool calls `interrupt()` with an
 *   {@link AinternApprovalRequest} (the graph needs a checkpointer), and you resume with
 *   `new Command({ resume: { approved, reason?, rememberForSession?, ... } })`; the answer is
 *   given to aintern as the call's decision (checked, remembered when asked, audited).
 */
export type LangChainApprovalMode = "inline" | "interrupt";

/** What a tool passes to LangGraph's `interrupt()` when a call needs approval. */
export interface AinternApprovalRequest {
  readonly type: "aintern-approval";
  readonly toolId: string;
  readonly toolCallId?: string;
  readonly parameters: unknown;
  /** Why aintern asks, the call's risk, what it will do, and the Critical warning. */
  readonly reason: string;
  readonly riskLevel: number;
  readonly summary: string;
  readonly warning?: string;
}

/** The resume value a person gives for an {@link AinternApprovalRequest}. */
export interface AinternApprovalAnswer {
  readonly approved: boolean;
  readonly reason?: string;
  readonly rememberForSession?: boolean;
  readonly rememberForTool?: boolean;
  readonly rememberPattern?: string;
}

/** Options of {@link toLangChainTools}. */
export interface LangChainToolsOptions {
  /** Default `"inline"`. */
  readonly approval?: LangChainApprovalMode;
  /** The conversation the calls belong to; default the processor's `sessionId`. */
  readonly sessionId?: string;
  /** The tool ids to expose (case-insensitive); default every registered tool. */
  readonly tools?: readonly string[];
}

/** A progress report of a running aintern tool, streamed as a LangChain tool event. */
export type AinternToolEvent = ProgressReport;

/**
 * An aintern tool as a LangChain `DynamicStructuredTool`. It answers every call with a
 * `ToolMessage` whose `status` is `"error"` when the call failed, was refused, denied or had
 * invalid arguments, with aintern's message as the content and the tool's data, if any, as the
 * artifact. LangChain checks arguments against the JSON schema before the tool runs; a call it
 * refuses goes to aintern anyway, so the model gets aintern's field-level message (and the call
 * is audited) rather than LangChain's generic one.
 */
export class AinternLangChainTool extends DynamicStructuredTool<
  ToolSchemaBase,
  unknown,
  unknown,
  ToolMessage,
  AinternToolEvent
> {
  readonly #run: (input: unknown, toolCallId: string | undefined) => Promise<ToolMessage>;

  constructor(
    processor: AinternGate,
    source: Pick<AinternTool, "id" | "description" | "inputSchema">,
    sessionId: string,
    approval: LangChainApprovalMode = "inline",
  ) {
    const answer = (result: ProcessCallResult, toolCallId: string | undefined): ToolMessage =>
      new ToolMessage({
        content: result.content,
        tool_call_id: toolCallId ?? "",
        name: source.id,
        status: result.isError ? "error" : "success",
        ...(result.data === undefined ? {} : { artifact: result.data }),
      });
    const callOf = (input: unknown, toolCallId: string | undefined, signal?: AbortSignal) => ({
      toolId: source.id,
      parameters: input,
      sessionId,
      ...(toolCallId === undefined ? {} : { callId: toolCallId }),
      ...(signal === undefined ? {} : { signal }),
    });
    super({
      name: source.id,
      description: source.description,
      // A plain JSON copy: aintern's schema type has readonly arrays LangChain's type does not.
      schema: JSON.parse(JSON.stringify(source.inputSchema)),
      func: async function* (
        input: unknown,
        _runManager?: CallbackManagerForToolRun,
        config?: ToolRunnableConfig,
      ): AsyncGenerator<AinternToolEvent, ToolMessage> {
        const toolCallId = config?.toolCall?.id;
        const asked =
          approval === "interrupt"
            ? await askByInterrupt(processor, source.id, input, sessionId, toolCallId)
            : undefined;
        const decision = asked?.decision;
        for await (const item of progressThenResult((onProgress) =>
          processor.processCall({
            ...callOf(input, toolCallId, config?.signal),
            onProgress,
            ...(decision === undefined ? {} : { decision }),
            // The check that found no one need be asked: the call is not judged again.
            ...(asked?.checked === undefined ? {} : { checked: asked.checked }),
          }),
        )) {
          if (item.kind === "result") return answer(item.result, toolCallId);
          yield progressReport(item.progress);
        }
        throw new Error("The call ended without a result");
      },
    });
    this.#run = async (input, toolCallId) =>
      answer(await processor.processCall(callOf(input, toolCallId)), toolCallId);
  }

  override async call<
    TArg extends StructuredToolCallInput<ToolSchemaBase, unknown>,
    TConfig extends ToolRunnableConfig | undefined,
  >(arg: TArg, configArg?: TConfig, tags?: string[]): Promise<ToolMessage> {
    try {
      return await super.call(arg, configArg, tags);
    } catch (error) {
      if (!(error instanceof ToolInputParsingException)) throw error;
      // LangChain refused the arguments: aintern validates them and answers (and audits it).
      const toolCall = isToolCall(arg) ? arg : configArg?.toolCall;
      return this.#run(isToolCall(arg) ? arg.args : arg, toolCall?.id);
    }
  }
}

/**
 * Asks through LangGraph's `interrupt()` when aintern's policy wants a person: the first run of
 * the tool stops the graph there; when it is resumed, `interrupt()` returns the person's answer,
 * which becomes the call's decision. No decision when no one needs asking: then the check that
 * found so, for `processCall` to run the call on.
 */
async function askByInterrupt(
  processor: AinternGate,
  toolId: string,
  input: unknown,
  sessionId: string,
  toolCallId: string | undefined,
): Promise<{ decision?: AinternApprovalAnswer; checked?: CheckedCall }> {
  let need: Awaited<ReturnType<AinternGate["needsApproval"]>>;
  if (processor.checkCall === undefined) {
    need = await processor.needsApproval(toolId, input, { sessionId });
    if (need === false) return {};
  } else {
    const checked = await processor.checkCall({
      toolId,
      parameters: input,
      sessionId,
      ...(toolCallId === undefined ? {} : { callId: toolCallId }),
    });
    need = checked.needsApproval;
    if (need === false) return { checked };
  }
  // Loaded only here, so aintern/langchain does not need LangGraph unless this mode is used.
  const { interrupt } = await import("@langchain/langgraph");
  const request: AinternApprovalRequest = {
    type: "aintern-approval",
    toolId,
    ...(toolCallId === undefined ? {} : { toolCallId }),
    parameters: input,
    reason: need.reason,
    riskLevel: need.riskLevel,
    summary: need.summary,
    ...(need.warning === undefined ? {} : { warning: need.warning }),
  };
  return { decision: approvalAnswerOf(interrupt<AinternApprovalRequest, unknown>(request)) };
}

/** The resume value as a decision; anything that is not a clear approval denies. */
function approvalAnswerOf(value: unknown): AinternApprovalAnswer {
  if (typeof value !== "object" || value === null || !("approved" in value)) {
    return { approved: false, reason: "The approval answer was not understood" };
  }
  const get = (key: string): unknown => (key in value ? Reflect.get(value, key) : undefined);
  const text = (key: string): string | undefined => {
    const v = get(key);
    return typeof v === "string" ? v : undefined;
  };
  const reason = text("reason");
  const pattern = text("rememberPattern");
  return {
    approved: get("approved") === true,
    ...(reason === undefined ? {} : { reason }),
    ...(get("rememberForSession") === true ? { rememberForSession: true } : {}),
    ...(get("rememberForTool") === true ? { rememberForTool: true } : {}),
    ...(pattern === undefined ? {} : { rememberPattern: pattern }),
  };
}

function isToolCall(value: unknown): value is { type: "tool_call"; id?: string; args: unknown } {
  return (
    typeof value === "object" &&
    value !== null &&
    "type" in value &&
    value.type === "tool_call" &&
    "args" in value
  );
}

/**
 * The processor's tools as LangChain tools, for `createAgent`, LangGraph's `ToolNode` or
 * `model.bindTools`. Every call goes through `processor.processCall`: aintern validates it, asks
 * the processor's approval handler when its policy says so, runs it, audits it, and answers with
 * a `ToolMessage` (`status: "error"` for failures, refusals, denials and invalid arguments).
 *
 * @example
 * ```ts
 * const agent = createAgent({ model, tools: toLangChainTools(processor) });
 * const { messages } = await agent.invoke({ messages: [{ role: "user", content: "tidy up" }] });
 * ```
 */
export function toLangChainTools(
  processor: AinternGate,
  options: LangChainToolsOptions = {},
): AinternLangChainTool[] {
  const sessionId = options.sessionId ?? processor.sessionId;
  return selectTools(processor, options.tools).map(
    (tool) => new AinternLangChainTool(processor, tool, sessionId, options.approval),
  );
}
