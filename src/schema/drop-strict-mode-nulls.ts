import type { JsonObject, JsonValue } from "../core/index.js";
import type { JsonSchema } from "./json-schema.js";
import { acceptsNull, isRecord } from "./schema-nodes.js";

/**
 * Undoes what OpenAI strict mode does to optional properties: removes each `null` the model sent
 * for a property that `schema` (the tool's original, non-strict schema) makes optional and that
 * does not itself accept `null`, recursively through nested objects and array items. Returns a
 * copy; `arguments_` is not changed. `$ref`s are not followed.
 *
 * @example
 * ```ts
 * dropStrictModeNulls(tool.inputSchema, { path: "a.txt", limit: null }); // { path: "a.txt" }
 * ```
 */
export function dropStrictModeNulls(schema: JsonSchema, arguments_: JsonObject): JsonObject {
  return dropNulls(schema, arguments_) as JsonObject;
}

function dropNulls(node: unknown, value: JsonValue): JsonValue {
  if (!isRecord(node)) return value;
  const { properties, items } = node;
  if (isRecord(value) && isRecord(properties)) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    return Object.fromEntries(
      Object.entries(value).flatMap(([name, child]): [string, JsonValue][] => {
        const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
        if (property === undefined) return [[name, child]];
        if (child === null && !required.has(name) && !acceptsNull(property)) return [];
        return [[name, dropNulls(property, child)]];
      }),
    );
  }
  if (Array.isArray(value) && isRecord(items)) {
    return value.map((item) => dropNulls(items, item));
  }
  return value;
}
