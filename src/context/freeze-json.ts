import { AinternError, type JsonObject, type JsonValue } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";

function invalid(where: string, detail: string): AinternError {
  return new AinternError(
    ContextErrorCode.InvalidParameters,
    `Parameters are not plain JSON: ${detail} at ${where}.`,
  );
}

function cloneValue(value: unknown, where: string, seen: Set<object>): JsonValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw invalid(where, `the number ${value} is not JSON`);
    return value;
  }
  if (typeof value !== "object") throw invalid(where, `a ${typeof value} is not JSON`);
  if (seen.has(value)) throw invalid(where, "a circular reference");
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return Object.freeze(
        value.map((item, index) => cloneValue(item, `${where}[${index}]`, seen)),
      ) as JsonValue[];
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw invalid(where, "an object that is not a plain object");
    }
    const out: JsonObject = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      // defineProperty, not assignment: a "__proto__" key must stay an own data property.
      Object.defineProperty(out, key, {
        value: cloneValue(item, `${where}.${key}`, seen),
        enumerable: true,
        writable: false,
        configurable: false,
      });
    }
    return Object.freeze(out);
  } finally {
    seen.delete(value);
  }
}

/**
 * A deep, frozen copy of `value`, checked to be a JSON object (no functions, `undefined`,
 * non-finite numbers, class instances or cycles).
 *
 * @throws {AinternError} with code `INVALID_PARAMETERS` when it is not.
 * @internal
 */
export function freezeJsonObject(value: unknown, what = "parameters"): JsonObject {
  const cloned = cloneValue(value, what, new Set());
  if (cloned === null || typeof cloned !== "object" || Array.isArray(cloned)) {
    throw new AinternError(
      ContextErrorCode.InvalidParameters,
      `The ${what} must be a JSON object, got ${cloned === null ? "null" : Array.isArray(cloned) ? "an array" : `a ${typeof cloned}`}.`,
    );
  }
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
