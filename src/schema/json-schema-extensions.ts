import type { JsonSchema, JsonSchemaProperty } from "./json-schema.js";

/**
 * The property called `name`, or undefined. Only the schema's own properties count, so names
 * such as `"constructor"` or `"__proto__"` are looked up safely.
 */
export function getProperty(schema: JsonSchema, name: string): JsonSchemaProperty | undefined {
  const { properties } = schema;
  return properties !== undefined && Object.hasOwn(properties, name) ? properties[name] : undefined;
}

/** Whether `propertyName` is listed in the schema's `required`. */
export function isRequired(schema: JsonSchema, propertyName: string): boolean {
  return (schema.required ?? []).includes(propertyName);
}

/** The names of the required properties, in schema order. */
export function getRequiredProperties(schema: JsonSchema): readonly string[] {
  return [...(schema.required ?? [])];
}

/** The names of the properties that are not required, in schema order. */
export function getOptionalProperties(schema: JsonSchema): readonly string[] {
  const required = new Set(schema.required ?? []);
  return Object.keys(schema.properties ?? {}).filter((name) => !required.has(name));
}

/**
 * The spec's `JsonSchemaExtensions` (C# extension methods) as one object; each member is also
 * exported as a function. For the spec's `FromType<T>()`, use `toJsonSchema(zodSchema)`.
 */
export const JsonSchemaExtensions = {
  getProperty,
  isRequired,
  getRequiredProperties,
  getOptionalProperties,
} as const;
