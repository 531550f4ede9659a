import { functionNameOf, type ToolDefinitionSource } from "./function-name.js";
import type { JsonSchema } from "./json-schema.js";
import { withoutSchemaUri } from "./schema-nodes.js";

/** A tool definition in the shape of Anthropic's Messages API `tools` entries. */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  /** The tool's input schema, without `$schema`. */
  readonly input_schema: JsonSchema;
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
    input_schema: withoutSchemaUri(tool.inputSchema),
  };
}
