import type { JsonObject, JsonValue } from "../core/index.js";

/** What a secret value is stored as. */
export const redactedSecret = "[redacted]";

/**
 * Whether the schema marks any property, at any depth, as secret (`"x-secret": true`): cheap to
 * ask once per schema before redacting every call.
 */
export function hasSecretParameters(schema: unknown): boolean {
  const stack: unknown[] = [schema];
  let seen = 0;
  while (stack.length > 0 && seen++ < 10_000) {
    const node = stack.pop();
    if (node === null || typeof node !== "object") continue;
    if (!Array.isArray(node) && (node as Record<string, unknown>)["x-secret"] === true) return true;
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  return false;
}

/**
 * `parameters` with the value of every property its schema marks `"x-secret": true` replaced by
 * `"[redacted]"` (nested objects and array items included), for storing: audit rows and stored
 * call records never hold a secret. Returns `parameters` itself when nothing is secret.
 *
 * @example
 * ```ts
 * const schema = { type: "object", properties: { token: { type: "string", "x-secret": true } } };
 * redactSecretParameters(schema, { token: "s3cret", user: "ana" });
 * // { token: "[redacted]", user: "ana" }
 * ```
 */
export function redactSecretParameters<T extends JsonValue>(schema: unknown, parameters: T): T {
  if (!hasSecretParameters(schema)) return parameters;
  return redact(schema, parameters, 0) as T;
}

function redact(schema: unknown, value: JsonValue, depth: number): JsonValue {
  if (depth > 64 || schema === null || typeof schema !== "object") return value;
  const node = schema as Record<string, unknown>;
  if (node["x-secret"] === true) return redactedSecret;
  if (Array.isArray(value)) {
    const items = node.items;
    return items === undefined ? value : value.map((item) => redact(items, item, depth + 1));
  }
  if (value === null || typeof value !== "object") return value;
  const properties = node.properties;
  if (properties === null || typeof properties !== "object") return value;
  let copy: JsonObject | undefined;
  for (const name of Object.keys(value)) {
    if (!Object.hasOwn(properties, name)) continue;
    const redacted = redact((properties as Record<string, unknown>)[name], value[name]!, depth + 1);
    if (redacted !== value[name]) {
      copy ??= { ...value };
      Object.defineProperty(copy, name, {
        value: redacted,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return copy ?? value;
}
