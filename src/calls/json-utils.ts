import type { JsonObject, JsonValue } from "../core/index.js";

/**
 * JSON text with object keys sorted (by UTF-16 code units) and no whitespace, so equal values
 * always give equal text. Builds the text directly rather than a sorted copy, so a
 * `"__proto__"` key stays an ordinary key.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(",")}]`;
  const keys = Object.keys(value).sort();
  const members = keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`);
  return `{${members.join(",")}}`;
}

/** The values {@link deepFreezeJson} froze, all the way down. */
const deepFrozen = new WeakSet<object>();

/**
 * Freezes a JSON value and everything in it. Iterative, so a deeply nested value the model sent
 * cannot overflow the stack.
 */
export function deepFreezeJson<T extends JsonValue>(value: T): T {
  const stack: JsonValue[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== "object" || deepFrozen.has(current)) continue;
    if (seen.has(current)) continue; // a cycle (structuredClone keeps them) or a shared object
    seen.add(current);
    Object.freeze(current);
    for (const child of Object.values(current)) {
      if (child !== null && typeof child === "object") stack.push(child);
    }
  }
  if (value !== null && typeof value === "object") deepFrozen.add(value);
  return value;
}

/**
 * A frozen copy of a JSON object. One that {@link deepFreezeJson} froze is taken as is; any other
 * is copied first, even when frozen: `Object.freeze` is shallow, and a caller holding a nested
 * object could otherwise change parameters after they were checked or approved.
 */
export function frozenJsonObject(value: JsonObject): JsonObject {
  if (deepFrozen.has(value)) return value;
  return deepFreezeJson(structuredClone(value));
}

/** A JSON-safe copy of `value` (what `JSON.stringify` keeps), or undefined if it has none. */
export function toJsonValue(value: unknown): JsonValue | undefined {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
}
