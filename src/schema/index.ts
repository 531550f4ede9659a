export { dropStrictModeNulls } from "./drop-strict-mode-nulls.js";
export { FunctionDefinition } from "./function-definition.js";
export { functionNameOf, isValidFunctionName, type ToolDefinitionSource } from "./function-name.js";
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
export {
  hasSecretParameters,
  redactedSecret,
  redactSecretParameters,
} from "./redact-secrets.js";
export { InvalidFunctionNameError, InvalidSchemaError, SchemaErrorCode } from "./schema-error.js";
export {
  appendNote,
  isRecord,
  mapValues,
  type SchemaNode,
  withoutSchemaUri,
} from "./schema-nodes.js";
export {
  type InferToolInput,
  isJsonSchema,
  isStandardSchema,
  JsonSchemaGenerator,
  type ToolInputSchema,
  toJsonSchema,
} from "./to-json-schema.js";
export { toStrictJsonSchema } from "./to-strict-json-schema.js";
