/**
 * One field-level validation error, in the shape `ToolValidationError` has (structural, so this
 * folder does not depend on the validation folder).
 */
export interface ValidationErrorLike {
  /** The parameter the error concerns; absent for errors about the whole input. */
  readonly parameterName?: string | undefined;
  readonly message: string;
  readonly errorCode?: string | undefined;
}

/** Anything with a list of validation errors, such as a `ToolValidationResult`. */
export interface ValidationResultLike {
  readonly errors: readonly ValidationErrorLike[];
}

/**
 * What `ToolResult.validationFailed(...)` accepts: a validation result, one message, or a list
 * of messages.
 */
export type ValidationFailureSource = ValidationResultLike | string | readonly string[];

/** One entry of a validation failure's data, as the model sees it (spec 004). */
export interface ValidationFailureEntry {
  readonly parameterName?: string;
  readonly message: string;
}

/** The data of a validation failure: `{ errors: [{ parameterName, message }] }`. */
export interface ValidationFailureData {
  readonly errors: readonly ValidationFailureEntry[];
}

/** Normalizes any {@link ValidationFailureSource} to the data a validation failure carries. */
export function validationFailureData(source: ValidationFailureSource): ValidationFailureData {
  const entries: ValidationFailureEntry[] =
    typeof source === "string"
      ? [{ message: source }]
      : isMessageList(source)
        ? source.map((message) => ({ message }))
        : source.errors.map(({ parameterName, message }) =>
            parameterName === undefined ? { message } : { parameterName, message },
          );
  return Object.freeze({ errors: Object.freeze(entries.map((entry) => Object.freeze(entry))) });
}

function isMessageList(source: ValidationFailureSource): source is readonly string[] {
  return Array.isArray(source);
}
