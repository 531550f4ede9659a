import { functionNameOf, type ToolDefinitionSource, toStrictJsonSchema } from "../schema/index.js";
import type { OpenAiToolOptions } from "./openai-chat-tool.js";
import { type ProviderInputSchema, toProviderInputSchema } from "./provider-schema.js";

/**
 * A tool definition in the shape of the OpenAI Responses API `tools` entries (a flat function
 * tool), assignable to the SDK's `FunctionTool`.
 */
export interface OpenAiResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: ProviderInputSchema;
  /** The Responses API requires the field; `false` unless strict mode is asked for. */
  strict: boolean;
}

/**
 * The OpenAI Responses API definition of `tool`: `{ type: "function", name, description,
 * parameters, strict }`, named by the tool id.
 *
 * @example
 * ```ts
 * const tools = registry.getAll().map((tool) => toOpenAiResponsesTool(tool, { strict: true }));
 * ```
 * @throws InvalidFunctionNameError when the tool id does not match `^[a-zA-Z0-9_-]{1,64}$`.
 * @throws InvalidSchemaError in strict mode, when an object allows additional properties.
 */
export function toOpenAiResponsesTool(
  tool: ToolDefinitionSource,
  options: OpenAiToolOptions = {},
): OpenAiResponsesTool {
  const strict = options.strict === true;
  return {
    type: "function",
    name: functionNameOf(tool, "OpenAI"),
    description: tool.description,
    parameters: toProviderInputSchema(
      strict ? toStrictJsonSchema(tool.inputSchema) : tool.inputSchema,
    ),
    strict,
  };
}
