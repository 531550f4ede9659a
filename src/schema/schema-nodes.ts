// Internal helpers for walking plain JSON Schema data; not exported from the folder's index.
import type { JsonSchema } from "./json-schema.js";

/** A JSON Schema node (or any JSON object) as an untyped record. */
export type SchemaNode = Record<string, unknown>;

/** True for a non-null, non-array object. */
export function isRecord(value: unknown): value is SchemaNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A copy of `record` with `fn` applied to each own value; keys like `__proto__` stay own keys. */
export function mapValues(record: SchemaNode, fn: (value: unknown, key: string) => unknown) {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value, key)]));
}

/** Whether the node accepts `null`: a `"null"` type, or a union with a branch that does. */
export function acceptsNull(node: unknown): boolean {
  if (!isRecord(node)) return node === true;
  const { type } = node;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (node.nullable === true) return true;
  return ["anyOf", "oneOf"].some((keyword) => {
    const branches = node[keyword];
    return Array.isArray(branches) && branches.some(acceptsNull);
  });
}

/** `description` with `note` appended (or `note` alone when there is no description). */
export function appendNote(description: unknown, note: string): string {
  return typeof description === "string" && description !== "" ? `${description} ${note}` : note;
}

/** A deep copy of a tool schema without `$schema`, which providers do not need (Gemini rejects it). */
export function withoutSchemaUri(schema: JsonSchema): JsonSchema {
  const { $schema: _ignored, ...rest } = schema;
  return structuredClone(rest) as JsonSchema;
}
