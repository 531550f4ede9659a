import type { AinternGate } from "../shared/index.js";
import { AinternLangChainTool } from "./to-langchain-tools.js";

/** Options of {@link unknownToolMiddleware}. */
export interface UnknownToolMiddlewareOptions {
  /** The conversation the calls belong to; default the processor's `sessionId`. */
  readonly sessionId?: string;
}

/** What `wrapToolCall` reads of LangChain's tool call request. */
interface ToolCallRequestLike {
  readonly toolCall: { readonly name: string };
  readonly tool?: unknown;
}

/** A LangChain agent middleware's hooks, for LangChain's `createMiddleware`. */
export interface UnknownToolMiddleware {
  readonly name: string;
  wrapToolCall<R extends ToolCallRequestLike, T>(request: R, handler: (request: R) => T): T;
}

/**
 * Middleware hooks that send a model's call to a tool name the agent does not have through
 * aintern, so the model gets aintern's "not found, did you mean" message (as a `ToolMessage` with
 * `status: "error"`) and the call is audited with its arguments; calls to the agent's tools pass
 * on unchanged (a name that differs from a tool's id only in case runs that tool, through the
 * same gate, as aintern's lookup is case-insensitive). Without it LangChain's `createAgent`
 * answers such a call itself ("is not a valid tool") and aintern never sees it. Give it to LangChain's `createMiddleware` (this entry does not
 * load the `langchain` package); list it after any middleware that supplies tools of its own
 * for names the agent was not given, which it would otherwise take for unknown.
 *
 * @example
 * ```ts
 * const agent = createAgent({
 *   model,
 *   tools: toLangChainTools(processor),
 *   middleware: [createMiddleware(unknownToolMiddleware(processor))],
 * });
 * ```
 */
export function unknownToolMiddleware(
  processor: AinternGate,
  options: UnknownToolMiddlewareOptions = {},
): UnknownToolMiddleware {
  const sessionId = options.sessionId ?? processor.sessionId;
  return {
    name: "AinternUnknownTools",
    wrapToolCall(request, handler) {
      if (request.tool !== undefined) return handler(request);
      const name = request.toolCall.name;
      const tool = new AinternLangChainTool(
        processor,
        {
          id: name,
          description: `No tool is registered as '${name}'.`,
          inputSchema: { type: "object", properties: {}, required: [], additionalProperties: true },
        },
        sessionId,
      );
      return handler({ ...request, tool });
    },
  };
}
