import { AinternError } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";

/** The JSON type a typed parameter getter expects. */
export type ExpectedParameterType = "string" | "integer" | "number" | "boolean" | "string array";

/** The JSON type of a value, for error messages: `"string"`, `"array"`, `"null"`, ... */
export function describeJsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isFinite(value) && !Number.isInteger(value)) {
    return "non-integer number";
  }
  return typeof value;
}

function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * Thrown by the context's typed parameter getters: a required parameter is missing
 * (`code` `MISSING_PARAMETER`), or a parameter has the wrong type (`INVALID_PARAMETER_TYPE`).
 * A tool base class turns it into a failed result the model can act on.
 */
export class ToolParameterError extends AinternError {
  /** The parameter's name. */
  readonly parameterName: string;
  /** The type the getter expected. */
  readonly expectedType: ExpectedParameterType;
  /** The JSON type that was found; undefined when the parameter is missing. */
  readonly actualType: string | undefined;

  private constructor(
    code: string,
    message: string,
    parameterName: string,
    expectedType: ExpectedParameterType,
    actualType: string | undefined,
  ) {
    super(code, message);
    this.name = "ToolParameterError";
    this.parameterName = parameterName;
    this.expectedType = expectedType;
    this.actualType = actualType;
  }

  /** A required parameter is absent. */
  static missing(name: string, expectedType: ExpectedParameterType): ToolParameterError {
    return new ToolParameterError(
      ContextErrorCode.MissingParameter,
      `Missing required parameter '${name}' (expected ${withArticle(expectedType)}).`,
      name,
      expectedType,
      undefined,
    );
  }

  /** A parameter has the wrong JSON type. */
  static wrongType(
    name: string,
    expectedType: ExpectedParameterType,
    value: unknown,
  ): ToolParameterError {
    const actual = describeJsonType(value);
    return new ToolParameterError(
      ContextErrorCode.InvalidParameterType,
      `Parameter '${name}' must be ${withArticle(expectedType)}, got ${actual}.`,
      name,
      expectedType,
      actual,
    );
  }
}
