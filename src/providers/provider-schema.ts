import { type JsonSchema, withoutSchemaUri } from "../schema/index.js";

/**
 * A tool's parameter schema as the provider SDKs type it: a plain, mutable object schema (the
 * OpenAI and Anthropic SDKs declare `required` as `string[]`, which a readonly array does not
 * satisfy). Always a fresh copy, without `$schema`.
 */
export interface ProviderInputSchema {
  type: "object";
  properties: Record<string, unknown>;
  required: string[];
  [keyword: string]: unknown;
}

/** A fresh, mutable copy of `schema` without `$schema`, for a provider definition. */
export function toProviderInputSchema(schema: JsonSchema): ProviderInputSchema {
  const copy = withoutSchemaUri(schema);
  return { ...copy, properties: { ...copy.properties }, required: [...copy.required] };
}
