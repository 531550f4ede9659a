import { ToolValidationError } from "./tool-validation-error.js";
import type { ToolValidationWarning } from "./tool-validation-warning.js";

const noErrors: readonly ToolValidationError[] = Object.freeze([]);
const noWarnings: readonly ToolValidationWarning[] = Object.freeze([]);

/**
 * The result of validating a tool call's parameters (spec 001 `ToolValidationResult`).
 * Immutable: the instance and its lists are frozen. `errors` is empty when `isValid`; warnings
 * never block execution.
 *
 * @example
 * const result = validator.validateAgainstSchema(call.arguments, tool.inputSchema);
 * if (!result.isValid) return result.getErrorMessage(); // give this to the model
 */
export class ToolValidationResult {
  /** Whether all parameters are valid. */
  readonly isValid: boolean;
  /** What is wrong (empty when valid). */
  readonly errors: readonly ToolValidationError[];
  /** Non-blocking issues. */
  readonly warnings: readonly ToolValidationWarning[];

  private constructor(
    isValid: boolean,
    errors: readonly ToolValidationError[],
    warnings: readonly ToolValidationWarning[],
  ) {
    this.isValid = isValid;
    this.errors = errors.length === 0 ? noErrors : Object.freeze([...errors]);
    this.warnings = warnings.length === 0 ? noWarnings : Object.freeze([...warnings]);
    Object.freeze(this);
  }

  static readonly #valid = new ToolValidationResult(true, noErrors, noWarnings);

  /** A valid result with no warnings; always the same frozen instance. */
  static valid(): ToolValidationResult {
    return ToolValidationResult.#valid;
  }

  /** A valid result that carries warnings. */
  static validWithWarnings(...warnings: ToolValidationWarning[]): ToolValidationResult {
    return warnings.length === 0
      ? ToolValidationResult.#valid
      : new ToolValidationResult(true, noErrors, warnings);
  }

  /** An invalid result with these errors. */
  static invalid(...errors: ToolValidationError[]): ToolValidationResult {
    return new ToolValidationResult(false, errors, noWarnings);
  }

  /** An invalid result with these errors and warnings. */
  static invalidWithWarnings(
    errors: readonly ToolValidationError[],
    warnings: readonly ToolValidationWarning[],
  ): ToolValidationResult {
    return new ToolValidationResult(false, errors, warnings);
  }

  /** An invalid result for one missing required parameter. */
  static missingRequired(parameterName: string): ToolValidationResult {
    return ToolValidationResult.invalid(ToolValidationError.required(parameterName));
  }

  /** An invalid result for one invalid parameter value. */
  static invalidValue(parameterName: string, message: string): ToolValidationResult {
    return ToolValidationResult.invalid(ToolValidationError.invalidValue(parameterName, message));
  }

  /** All errors and warnings of `results` in one result; valid when none of them has an error. */
  static combine(...results: ToolValidationResult[]): ToolValidationResult {
    const errors = results.flatMap((result) => result.errors);
    const warnings = results.flatMap((result) => result.warnings);
    if (errors.length === 0 && warnings.length === 0) return ToolValidationResult.#valid;
    return new ToolValidationResult(errors.length === 0, errors, warnings);
  }

  /**
   * The errors as one message for the model, one `- parameter: message` line each; `""` when
   * valid. Errors about the parameters as a whole (empty `parameterName`) are `- message`.
   */
  getErrorMessage(): string {
    if (this.isValid) return "";
    return this.errors
      .map((error) =>
        error.parameterName === ""
          ? `- ${error.message}`
          : `- ${error.parameterName}: ${error.message}`,
      )
      .join("\n");
  }
}
