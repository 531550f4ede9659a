import type { JsonValue } from "../core/index.js";

/**
 * A property definition within a {@link JsonSchema} (spec 001 `JsonSchemaProperty`).
 *
 * It is plain JSON Schema (draft-07) data: the spec's members under their JSON names (the spec's
 * `ObjectProperties` / `ObjectRequired` are `properties` / `required`), and any other draft-07 or
 * 2020-12 keyword (`anyOf`, `$ref`, `format`, `const`, ...) is allowed and honoured by validation.
 */
export interface JsonSchemaProperty {
  /** "string", "integer", "number", "boolean", "array", "object" or "null"; a list for unions. */
  type?: string | readonly string[];
  description?: string;
  enum?: readonly JsonValue[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  default?: JsonValue;
  items?: JsonSchemaProperty;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  /** Nested object properties (the spec's `ObjectProperties`). */
  properties?: Record<string, JsonSchemaProperty>;
  /** Required nested properties (the spec's `ObjectRequired`). */
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchemaProperty;
  examples?: readonly JsonValue[];
  /** Any other JSON Schema keyword. */
  [keyword: string]: unknown;
}

/**
 * JSON Schema of a tool's parameters (spec 001 `JsonSchema`): always an object schema, directly
 * usable as an OpenAI / Anthropic / Gemini parameter schema and by Ajv.
 */
export interface JsonSchema {
  type: "object";
  description?: string;
  properties: Record<string, JsonSchemaProperty>;
  required: readonly string[];
  /** Whether properties beyond `properties` are allowed; the spec's default is false. */
  additionalProperties?: boolean | JsonSchemaProperty;
  /** Set to a 2020-12 URI to validate with the 2020-12 dialect; draft-07 otherwise. */
  $schema?: string;
  /** Any other JSON Schema keyword (`$defs`, `definitions`, `allOf`, ...). */
  [keyword: string]: unknown;
}

/** Factories and serialization for {@link JsonSchema} values. */
export const JsonSchema = {
  /** A schema with no parameters. */
  empty(): JsonSchema {
    return { type: "object", properties: {}, required: [] };
  },
  /** Compact JSON for LLM function calling; `additionalProperties: false` is left out (default). */
  toJson(schema: JsonSchema): string {
    const { additionalProperties, ...rest } = schema;
    return JSON.stringify(
      additionalProperties === false || additionalProperties === undefined
        ? rest
        : { ...rest, additionalProperties },
    );
  },
} as const;
