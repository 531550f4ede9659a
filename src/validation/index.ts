export { type CoercedParameters, coerceScalarParameters } from "./coerce-scalars.js";
export {
  type RangeBoundsOptions,
  type RequiredParameterDetails,
  ToolValidationError,
  type ToolValidationErrorInit,
} from "./tool-validation-error.js";
export { ToolValidationResult } from "./tool-validation-result.js";
export {
  ToolValidationWarning,
  type ToolValidationWarningInit,
} from "./tool-validation-warning.js";
export {
  ToolValidator,
  type ToolValidatorConfig,
  type ValidatableSchema,
} from "./tool-validator.js";
export type { ToolValidatorLike } from "./tool-validator-like.js";
export { ValidationErrorCode } from "./validation-error-code.js";
export { ValidationWarningCode } from "./validation-warning-code.js";
export type { ValueLimits } from "./value-limits.js";
