import type { JsonSchema, JsonSchemaProperty } from "../schema/index.js";
import type { ToolValidationError } from "./tool-validation-error.js";
import type { ToolValidationResult } from "./tool-validation-result.js";

/**
 * A service that validates tool parameters against JSON Schemas (spec 001 `IToolValidator`).
 * {@link ToolValidator} is the implementation; accept this type to allow test doubles.
 */
export interface ToolValidatorLike {
  /** Validates a call's parameters against a tool's schema. Never throws for bad input. */
  validateAgainstSchema(parameters: unknown, schema: JsonSchema): ToolValidationResult;
  /** Validates one parameter's value; the errors are empty when it is valid. */
  validateParameter(
    parameterName: string,
    value: unknown,
    property: JsonSchemaProperty,
  ): readonly ToolValidationError[];
}
