import { AinternError, type JsonObject, type JsonValue } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";

function invalid(where: string, detail: string): AinternError {
  return new AinternError(
    ContextErrorCode.InvalidParameters,
    `Parameters are not plain JSON: ${detail} at ${where}.`,
  );
}

/** The objects {@link freezeJsonObject} returned: deep, frozen, checked JSON copies. */
const frozenByUs = new WeakSet<object>();

/** Deeper JSON is refused rather than risk overflowing the stack while copying it. */
const maxDepth = 1_000;

/** Thrown by a clone run without paths: the caller runs it again with them for the message. */
const notJson = Symbol("notJson");

/**
 * A deep, frozen copy of a JSON value. `where` is the path of `value` for error messages, or
 * `undefined` to skip building paths (the common, valid case): a problem then throws `notJson`.
 */
function cloneValue(
  value: unknown,
  where: string | undefined,
  seen: Set<object>,
  depth = 0,
): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) fail(where, `the number ${value} is not JSON`);
    return value;
  }
  if (typeof value !== "object") fail(where, `a ${typeof value} is not JSON`);
  if (seen.has(value)) fail(where, "a circular reference");
  if (depth >= maxDepth) fail(where, `nesting deeper than ${maxDepth} levels`);
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return Object.freeze(
        value.map((item, index) =>
          cloneValue(item, where === undefined ? undefined : `${where}[${index}]`, seen, depth + 1),
        ),
      ) as JsonValue[];
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      fail(where, "an object that is not a plain object");
    }
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(value)) {
      const item = cloneValue(
        (value as Record<string, unknown>)[key],
        where === undefined ? undefined : `${where}.${key}`,
        seen,
        depth + 1,
      );
      // Assigning "__proto__" would set the prototype: that key must be defined as own data.
      if (key === "__proto__") {
        Object.defineProperty(out, key, { value: item, enumerable: true, writable: true });
      } else {
        out[key] = item;
      }
    }
    return Object.freeze(out);
  } finally {
    seen.delete(value);
  }
}

function fail(where: string | undefined, detail: string): never {
  if (where === undefined) throw notJson;
  throw invalid(where, detail);
}

/**
 * Notes that `value` is a deep, frozen copy of strictly valid JSON (plain objects and arrays,
 * strings, finite numbers, booleans, null) made by its caller, so that {@link freezeJsonObject}
 * takes it as its own copy instead of copying it again.
 *
 * @internal
 */
export function noteFrozenJson(value: object): void {
  frozenByUs.add(value);
}

/**
 * A deep, frozen copy of `value`, checked to be a JSON object (no functions, `undefined`,
 * non-finite numbers, class instances or cycles).
 *
 * @throws {AinternError} with code `INVALID_PARAMETERS` when it is not.
 * @internal
 */
export function freezeJsonObject(value: unknown, what = "parameters"): JsonObject {
  // Already made here: deeply frozen JSON, so it is its own copy.
  if (typeof value === "object" && value !== null && frozenByUs.has(value)) {
    return value as JsonObject;
  }
  let cloned: JsonValue;
  try {
    cloned = cloneValue(value, undefined, new Set());
  } catch (error) {
    if (error !== notJson) throw error;
    cloned = cloneValue(value, what, new Set()); // throws again, naming where
  }
  if (cloned === null || typeof cloned !== "object" || Array.isArray(cloned)) {
    throw new AinternError(
      ContextErrorCode.InvalidParameters,
      `The ${what} must be a JSON object, got ${cloned === null ? "null" : Array.isArray(cloned) ? "an array" : `a ${typeof cloned}`}.`,
    );
  }
  frozenByUs.add(cloned);
  return cloned;
}

/**
 * Serializes `value` as `JSON.stringify` does (dates become strings, `undefined` members are
 * dropped, `toJSON` is honoured) and returns the result as a frozen JSON object.
 *
 * @throws {AinternError} with code `INVALID_PARAMETERS` when it does not serialize to an object.
 * @internal
 */
export function serializeToJsonObject(value: unknown, what = "parameters"): JsonObject {
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch (error) {
    throw new AinternError(
      ContextErrorCode.InvalidParameters,
      `The ${what} cannot be serialized to JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (json === undefined) {
    throw new AinternError(
      ContextErrorCode.InvalidParameters,
      `The ${what} cannot be serialized to JSON (got ${typeof value}).`,
    );
  }
  return parseJsonObject(json, what);
}

/**
 * Parses `json` and returns it as a frozen JSON object.
 *
 * @throws {AinternError} with code `INVALID_PARAMETERS` when it is not valid JSON or not an object.
 * @internal
 */
export function parseJsonObject(json: string, what = "parameters"): JsonObject {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (error) {
    throw new AinternError(
      ContextErrorCode.InvalidParameters,
      `The ${what} are not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return freezeJsonObject(parsed, what);
}
