// Deep import on purpose: marking a value as checked, frozen JSON must not be public API.
import { noteFrozenJson } from "../context/freeze-json.js";
import type { JsonObject, JsonValue } from "../core/index.js";

/**
 * JSON text with object keys sorted (by UTF-16 code units) and no whitespace, so equal values
 * always give equal text. Builds the text directly rather than a sorted copy, so a
 * `"__proto__"` key stays an ordinary key.
 */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  // Concatenation rather than map / join: this runs on every call's arguments (their hash).
  if (Array.isArray(value)) {
    let text = "[";
    for (let index = 0; index < value.length; index++) {
      if (index > 0) text += ",";
      // A hole or `undefined` is empty, as `join` left it.
      text += canonicalJson(value[index]!) ?? "";
    }
    return `${text}]`;
  }
  const keys = sortedKeys(value);
  let text = "{";
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (index > 0) text += ",";
    text += `${JSON.stringify(key)}:${canonicalJson(value[key]!)}`;
  }
  return `${text}}`;
}

/**
 * The object's keys in `sort()` order (UTF-16 code units). A few keys are sorted by insertion in
 * place: `Array.prototype.sort` allocates a work area even for two keys.
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  if (keys.length > 16) return keys.sort();
  for (let index = 1; index < keys.length; index++) {
    const key = keys[index]!;
    let at = index;
    while (at > 0 && keys[at - 1]! > key) {
      keys[at] = keys[at - 1]!;
      at--;
    }
    keys[at] = key;
  }
  return keys;
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
  const copy = frozenPlainCopy(value, 0);
  if (copy === undefined) return deepFreezeJson(structuredClone(value));
  deepFrozen.add(copy as JsonObject);
  // Strict JSON, deep and frozen: the execution context takes it as is rather than copying it.
  noteFrozenJson(copy as JsonObject);
  return copy as JsonObject;
}

/** Past this depth a value is left to `structuredClone` (and the iterative freeze). */
const maxPlainDepth = 64;

/**
 * A frozen copy of plain JSON (plain objects, dense arrays, strings, numbers, booleans, null),
 * made and frozen in one pass: what `structuredClone` plus {@link deepFreezeJson} give for such
 * a value, at a fraction of the cost. Undefined for anything else (a class instance, `undefined`,
 * a cycle, deep nesting), which the caller copies the general way.
 */
function frozenPlainCopy(value: unknown, depth: number): JsonValue | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case "number":
      // NaN and the infinities are not JSON: such a value is copied the general way.
      return Number.isFinite(value) ? value : undefined;
    case "string":
    case "boolean":
      return value;
    case "object":
      break;
    default:
      return undefined;
  }
  if (depth >= maxPlainDepth) return undefined;
  if (Array.isArray(value)) {
    const items: JsonValue[] = new Array(value.length);
    for (let index = 0; index < value.length; index++) {
      const item = frozenPlainCopy(value[index], depth + 1);
      if (item === undefined) return undefined;
      items[index] = item;
    }
    return Object.freeze(items) as JsonValue[];
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const out: Record<string, JsonValue> = {};
  for (const key of Object.keys(value)) {
    const item = frozenPlainCopy((value as Record<string, unknown>)[key], depth + 1);
    if (item === undefined) return undefined;
    // Assigning "__proto__" would set the prototype: that key must be defined as own data.
    if (key === "__proto__") {
      Object.defineProperty(out, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[key] = item;
    }
  }
  return Object.freeze(out);
}

/** A JSON-safe copy of `value` (what `JSON.stringify` keeps), or undefined if it has none. */
export function toJsonValue(value: unknown): JsonValue | undefined {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
}
