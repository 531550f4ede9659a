import { functionNameOf, type ToolDefinitionSource } from "../schema/index.js";
import { type ProviderInputSchema, toProviderInputSchema } from "./provider-schema.js";

/**
 * A tool definition in the shape of Anthropic's Messages API `tools` entries, assignable to the
 * SDK's `Anthropic.Tool`.
 */
export interface AnthropicTool {
  name: string;
  description: string;
  /** The tool's input schema, without `$schema`. */
  input_schema: ProviderInputSchema;
}

/**
 * The Anthropic definition of `tool`: `{ name, description, input_schema }`, named by the tool id.
 *
 * @throws InvalidFunctionNameError when the tool id does not match `^[a-zA-Z0-9_-]{1,64}$`.
 */
export function toAnthropicTool(tool: ToolDefinitionSource): AnthropicTool {
  return {
    name: functionNameOf(tool, "Anthropic"),
    description: tool.description,
    input_schema: toProviderInputSchema(tool.inputSchema),
  };
}
