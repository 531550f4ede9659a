import { AinternError } from "../core/index.js";

/** Codes of the errors the schema folder throws; compare against these, never a bare string. */
export const SchemaErrorCode = {
  /** A schema could not be built or converted (bad builder input, a non-object schema). */
  InvalidSchema: "INVALID_SCHEMA",
  /** A tool id cannot be used as a provider function name. */
  InvalidFunctionName: "INVALID_FUNCTION_NAME",
} as const;

/** One of the {@link SchemaErrorCode} values. */
export type SchemaErrorCode = (typeof SchemaErrorCode)[keyof typeof SchemaErrorCode];

/**
 * Thrown when a schema cannot be built or converted: a duplicate or empty property name in a
 * {@link JsonSchemaBuilder}, a minimum above its maximum, a zod schema that is not an object.
 */
export class InvalidSchemaError extends AinternError {
  /** The property the problem concerns, when there is one. */
  readonly propertyName: string | undefined;

  constructor(message: string, options?: { propertyName?: string; cause?: unknown }) {
    super(
      SchemaErrorCode.InvalidSchema,
      message,
      options?.cause === undefined ? undefined : { cause: options.cause },
    );
    this.name = "InvalidSchemaError";
    this.propertyName = options?.propertyName;
  }
}

/** Thrown when a tool id cannot be a provider function name (`^[a-zA-Z0-9_-]{1,64}$`). */
export class InvalidFunctionNameError extends AinternError {
  /** The tool id that was rejected. */
  readonly toolId: string;

  constructor(toolId: string, message: string) {
    super(SchemaErrorCode.InvalidFunctionName, message);
    this.name = "InvalidFunctionNameError";
    this.toolId = toolId;
  }
}
