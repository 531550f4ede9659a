export { dropStrictModeNulls } from "./drop-strict-mode-nulls.js";
export { FunctionDefinition } from "./function-definition.js";
export { isValidFunctionName, type ToolDefinitionSource } from "./function-name.js";
export { JsonSchema, type JsonSchemaProperty } from "./json-schema.js";
export {
  type ArrayPropertyOptions,
  type BooleanPropertyOptions,
  type EnumPropertyOptions,
  type IntegerPropertyOptions,
  JsonSchemaBuilder,
  type NumberPropertyOptions,
  type PathPropertyOptions,
  type PropertyOptions,
  type StringArrayPropertyOptions,
  type StringPropertyOptions,
} from "./json-schema-builder.js";
export {
  getOptionalProperties,
  getProperty,
  getRequiredProperties,
  isRequired,
  JsonSchemaExtensions,
} from "./json-schema-extensions.js";
export { InvalidFunctionNameError, InvalidSchemaError, SchemaErrorCode } from "./schema-error.js";
export { type AnthropicTool, toAnthropicTool } from "./to-anthropic-tool.js";
export {
  type GeminiFunctionDeclaration,
  type GeminiSchema,
  toGeminiFunctionDeclaration,
  toGeminiSchema,
} from "./to-gemini-function-declaration.js";
export {
  type InferToolInput,
  isJsonSchema,
  isStandardSchema,
  JsonSchemaGenerator,
  type ToolInputSchema,
  toJsonSchema,
} from "./to-json-schema.js";
export { type OpenAiTool, type OpenAiToolOptions, toOpenAiTool } from "./to-openai-tool.js";
export { toStrictJsonSchema } from "./to-strict-json-schema.js";
