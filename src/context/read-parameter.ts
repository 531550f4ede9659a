import type { JsonObject, JsonValue } from "../core/index.js";
import { type ExpectedParameterType, ToolParameterError } from "./tool-parameter-error.js";

/**
 * The own property `name` of `parameters`, or `undefined` when absent. Never consults the
 * prototype, so model-supplied names such as `"constructor"` or `"__proto__"` are safe.
 *
 * @internal
 */
export function readParameter(parameters: JsonObject, name: string): JsonValue | undefined {
  return Object.getOwnPropertyDescriptor(parameters, name)?.value as JsonValue | undefined;
}

type Check<T> = (value: JsonValue) => value is JsonValue & T;

const checks = {
  string: ((value) => typeof value === "string") as Check<string>,
  integer: ((value) => typeof value === "number" && Number.isSafeInteger(value)) as Check<number>,
  number: ((value) => typeof value === "number" && Number.isFinite(value)) as Check<number>,
  boolean: ((value) => typeof value === "boolean") as Check<boolean>,
  "string array": ((value) =>
    Array.isArray(value) && value.every((item) => typeof item === "string")) as Check<
    readonly string[]
  >,
} satisfies Record<ExpectedParameterType, Check<unknown>>;

/** The checked type each {@link ExpectedParameterType} reads as. */
export interface ParameterTypes {
  string: string;
  integer: number;
  number: number;
  boolean: boolean;
  "string array": readonly string[];
}

/**
 * Reads a required parameter of the given type.
 *
 * @throws {ToolParameterError} missing, null or of another type.
 * @internal
 */
export function readRequired<K extends ExpectedParameterType>(
  parameters: JsonObject,
  name: string,
  type: K,
): ParameterTypes[K] {
  const value = readParameter(parameters, name);
  if (value === undefined) throw ToolParameterError.missing(name, type);
  if (!checks[type](value)) throw ToolParameterError.wrongType(name, type, value);
  return value as ParameterTypes[K];
}

/**
 * Reads an optional parameter of the given type: `undefined` when absent or null.
 *
 * @throws {ToolParameterError} present with another type.
 * @internal
 */
export function readOptional<K extends ExpectedParameterType>(
  parameters: JsonObject,
  name: string,
  type: K,
): ParameterTypes[K] | undefined {
  const value = readParameter(parameters, name);
  if (value === undefined || value === null) return undefined;
  if (!checks[type](value)) throw ToolParameterError.wrongType(name, type, value);
  return value as ParameterTypes[K];
}
