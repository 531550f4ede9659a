import { functionNameOf, type ToolDefinitionSource, toStrictJsonSchema } from "../schema/index.js";
import { type ProviderInputSchema, toProviderInputSchema } from "./provider-schema.js";

/** Per-call options of {@link toOpenAiTool}. */
export interface OpenAiToolOptions {
  /**
   * OpenAI strict mode (Structured Outputs): the schema is rewritten by `toStrictJsonSchema`
   * and `strict: true` is sent. When left out, no `strict` field is written.
   */
  strict?: boolean;
}

/**
 * A tool definition in the shape of OpenAI Chat Completions `tools` entries, assignable to the
 * SDK's `ChatCompletionTool`.
 */
export interface OpenAiTool {
  type: "function";
  function: {
    name: string;
    description: string;
    parameters: ProviderInputSchema;
    strict?: boolean;
  };
}

/**
 * The OpenAI definition of `tool`: `{ type: "function", function: { name, description,
 * parameters, strict? } }`, named by the tool id.
 *
 * @example
 * ```ts
 * const tools = registry.getAll().map((tool) => toOpenAiTool(tool, { strict: true }));
 * ```
 * @throws InvalidFunctionNameError when the tool id does not match `^[a-zA-Z0-9_-]{1,64}$`.
 * @throws InvalidSchemaError in strict mode, when an object allows additional properties.
 */
export function toOpenAiTool(
  tool: ToolDefinitionSource,
  options: OpenAiToolOptions = {},
): OpenAiTool {
  const { strict } = options;
  return {
    type: "function",
    function: {
      name: functionNameOf(tool, "OpenAI"),
      description: tool.description,
      parameters: toProviderInputSchema(
        strict === true ? toStrictJsonSchema(tool.inputSchema) : tool.inputSchema,
      ),
      ...(strict === undefined ? {} : { strict }),
    },
  };
}
