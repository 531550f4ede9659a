import type { JsonValue } from "../core/index.js";

/** What stands in for a reference back to an object that contains it. */
export const circularMarker = "[Circular]";

/**
 * Converts any value to JSON data without throwing, following `JSON.stringify` semantics
 * (`toJSON` is honoured; `undefined`, functions and symbols are dropped from objects and become
 * `null` in arrays; non-finite numbers become `null`) and saying so where JSON has no answer:
 *
 * - a reference back to an ancestor becomes `"[Circular]"` (a shared, non-cyclic reference is
 *   written twice, as `JSON.stringify` would);
 * - a `bigint` becomes its digits with an `n`: `"12345678901234567890n"`;
 * - a top-level function or symbol becomes `"[Function name]"` / `"[Symbol(description)]"`;
 * - a `Map` becomes an object (keys stringified), a `Set` an array, an `Error` `{ name, message, ...own fields }`;
 * - when conversion still fails (a throwing getter, data nested too deep), the whole value becomes
 *   `"[Unserializable data: <reason>]"`.
 *
 * @returns `undefined` only for `undefined` input.
 */
export function toJsonSafe(value: unknown): JsonValue | undefined {
  try {
    return convert(value, "", new Set(), true);
  } catch (error) {
    return `[Unserializable data: ${reasonOf(error)}]`;
  }
}

/**
 * Compact JSON text of any value, never throwing (see {@link toJsonSafe} for the stand-ins used
 * for cycles, bigints and functions). `undefined` gives `""`.
 *
 * @example
 * ```ts
 * const a: Record<string, unknown> = { n: 1n };
 * a.self = a;
 * safeJsonStringify(a); // '{"n":"1n","self":"[Circular]"}'
 * ```
 */
export function safeJsonStringify(value: unknown): string {
  // Most tool data is plain JSON already: then `JSON.stringify` gives the very same text, without
  // the converted copy (this runs on every result sent to a model).
  try {
    if (isPlainJson(value, 0)) return JSON.stringify(value) ?? "";
  } catch {
    // A getter that throws, or data too deep for the stack: the careful way says so.
  }
  const safe = toJsonSafe(value);
  return safe === undefined ? "" : JSON.stringify(safe);
}

/** Past this depth data takes the careful way (it also stops at cycles). */
const maxPlainDepth = 32;

/**
 * Whether `JSON.stringify` and {@link toJsonSafe} agree on `value`: only strings, numbers,
 * booleans, null, undefined, arrays and plain objects without `toJSON`, not nested too deep (a
 * cycle counts as too deep). Anything else (a Map, a Date, a bigint, a class instance, a
 * function) takes the careful way.
 */
function isPlainJson(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
    case "number":
    case "boolean":
    case "undefined":
      return true;
    case "object":
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= maxPlainDepth) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      // A function or symbol in an array becomes null both ways.
      if (typeof item === "function" || typeof item === "symbol") continue;
      if (!isPlainJson(item, depth + 1)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  if (hasToJson(value)) return false;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const item = record[key];
    // Dropped both ways.
    if (typeof item === "function" || typeof item === "symbol") continue;
    if (!isPlainJson(item, depth + 1)) return false;
  }
  return true;
}

function convert(
  input: unknown,
  key: string,
  ancestors: Set<object>,
  topLevel: boolean,
): JsonValue | undefined {
  let value = input;
  if (typeof value === "object" && value !== null && hasToJson(value)) {
    value = value.toJSON(key);
  }
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) ? value : null;
    case "bigint":
      return `${value}n`;
    case "undefined":
      return undefined;
    case "function":
      return topLevel ? `[Function ${value.name === "" ? "(anonymous)" : value.name}]` : undefined;
    case "symbol":
      return topLevel ? `[${value.toString()}]` : undefined;
  }
  if (typeof value !== "object" || value === null) return null;
  if (ancestors.has(value)) return circularMarker;
  ancestors.add(value);
  try {
    return convertObject(value, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function convertObject(value: object, ancestors: Set<object>): JsonValue {
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return convert(value.valueOf(), "", ancestors, false) ?? null;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => convert(item, String(index), ancestors, false) ?? null);
  }
  if (value instanceof Set) {
    return [...value].map((item, index) => convert(item, String(index), ancestors, false) ?? null);
  }
  const out: { [key: string]: JsonValue } = {};
  const add = (entryKey: string, entryValue: unknown) => {
    const converted = convert(entryValue, entryKey, ancestors, false);
    if (converted !== undefined) setOwn(out, entryKey, converted);
  };
  if (value instanceof Map) {
    for (const [entryKey, entryValue] of value) add(String(entryKey), entryValue);
  } else if (value instanceof Error) {
    add("name", value.name);
    add("message", value.message);
    for (const ownKey of Object.keys(value)) {
      if (ownKey !== "name" && ownKey !== "message") add(ownKey, Reflect.get(value, ownKey));
    }
  } else {
    // The plain object (most data): no closure per key.
    const record = value as Record<string, unknown>;
    for (const ownKey of Object.keys(record)) {
      const converted = convert(record[ownKey], ownKey, ancestors, false);
      if (converted !== undefined) setOwn(out, ownKey, converted);
    }
  }
  return out;
}

/**
 * Sets `key` as an own data property, as `Object.fromEntries` does: a `"__proto__"` key stays
 * data, not the prototype; a key seen again (a Map's `1` and `"1"`) takes the later value.
 */
function setOwn(out: { [key: string]: JsonValue }, key: string, value: JsonValue): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else {
    out[key] = value;
  }
}

function hasToJson(value: object): value is { toJSON(key: string): unknown } {
  return typeof (value as { toJSON?: unknown }).toJSON === "function";
}

function reasonOf(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return "unknown error";
  }
}
