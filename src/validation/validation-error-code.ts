/**
 * The codes a {@link ToolValidationError} carries in `errorCode`. Compare against these constants,
 * never against a bare string. The values are the spec's snake_case strings.
 */
export const ValidationErrorCode = {
  /** A required parameter is missing. */
  Required: "required",
  /** A value has the wrong JSON type (a string where an integer belongs). */
  TypeMismatch: "type_mismatch",
  /** A number, a length, a count of items or properties is outside its bounds. */
  OutOfRange: "out_of_range",
  /** A string does not match the schema's `pattern`. */
  PatternMismatch: "pattern_mismatch",
  /** A value is not one of the schema's `enum` values (or not its `const`). */
  InvalidEnum: "invalid_enum",
  /** Any other rule failed: a format, an unexpected property, `anyOf` / `oneOf`, a non-JSON value. */
  InvalidValue: "invalid_value",
  /** A path parameter names something that does not exist. */
  PathNotFound: "path_not_found",
  /** A path parameter resolves outside the workspace. */
  PathOutsideWorkspace: "path_outside_workspace",
  /** The parameters nest deeper than the validator's `maxDepth`. */
  TooDeep: "too_deep",
  /** A string, a property name, the count of values or the total text is over the validator's limits. */
  TooLarge: "too_large",
  /** The schema itself is not a valid (or not a supported) JSON Schema. */
  InvalidSchema: "invalid_schema",
} as const;

/** One of the {@link ValidationErrorCode} values. */
export type ValidationErrorCode = (typeof ValidationErrorCode)[keyof typeof ValidationErrorCode];
