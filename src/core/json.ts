/** Any JSON value, as a model sends it and as results carry it. */
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

/** A JSON object: the shape of a tool call's parameters. */
export interface JsonObject {
  [key: string]: JsonValue;
}

/** True when `value` is a plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
