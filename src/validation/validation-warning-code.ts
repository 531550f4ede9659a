/** The codes a {@link ToolValidationWarning} carries in `warningCode`. */
export const ValidationWarningCode = {
  /** The call uses a parameter the schema marks as deprecated. */
  Deprecated: "deprecated",
  /** A value is large enough to be worth noting (it may be slow or costly). */
  LargeValue: "large_value",
  /** The call is likely to be slow. */
  SlowOperation: "slow_operation",
} as const;

/** One of the {@link ValidationWarningCode} values. */
export type ValidationWarningCode =
  (typeof ValidationWarningCode)[keyof typeof ValidationWarningCode];
