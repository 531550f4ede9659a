/** The codes a {@link ToolValidationWarning} carries in `warningCode`. */
export const ValidationWarningCode = {
  /** The call uses a parameter the schema marks as deprecated. */
  Deprecated: "deprecated",
  /** A value is large enough to be worth noting (it may be slow or costly). */
  LargeValue: "large_value",
  /** The call is likely to be slow. */
  SlowOperation: "slow_operation",
  /** A scalar value was converted to the type the schema expects ("5" to 5, "true" to true). */
  Coerced: "coerced",
} as const;

/** One of the {@link ValidationWarningCode} values. */
export type ValidationWarningCode =
  (typeof ValidationWarningCode)[keyof typeof ValidationWarningCode];
