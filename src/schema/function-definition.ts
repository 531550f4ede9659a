import { functionNameOf, type ToolDefinitionSource } from "./function-name.js";
import type { JsonSchema } from "./json-schema.js";
import { withoutSchemaUri } from "./schema-nodes.js";

/**
 * OpenAI-compatible function definition of a tool (spec 001 `FunctionDefinition`): the tool id as
 * `name`, its description, and its input schema as `parameters`.
 */
export interface FunctionDefinition {
  /** The function name: the tool id. */
  readonly name: string;
  /** What the function does, for the model. */
  readonly description: string;
  /** The parameters schema (a copy of the tool's input schema, without `$schema`). */
  readonly parameters: JsonSchema;
}

/** Factories and serialization for {@link FunctionDefinition} values. */
export const FunctionDefinition = {
  /**
   * The definition of `tool`, frozen.
   *
   * @throws InvalidFunctionNameError when the tool id does not match `^[a-zA-Z0-9_-]{1,64}$`.
   */
  fromTool(tool: ToolDefinitionSource): FunctionDefinition {
    return Object.freeze({
      name: functionNameOf(tool, "OpenAI"),
      description: tool.description,
      parameters: withoutSchemaUri(tool.inputSchema),
    });
  },
  /** Compact JSON for API calls. */
  toJson(definition: FunctionDefinition): string {
    return JSON.stringify(definition);
  },
} as const;
