/**
 * The `errorCode`s of the validation errors {@link parseToolCalls} puts on requests it could not
 * read. Compare against these constants, never against a bare string.
 */
export const ToolCallParseErrorCode = {
  /** The arguments are not JSON and could not be safely repaired. */
  InvalidJson: "invalid_json",
  /** The arguments are JSON but not an object. */
  NotAnObject: "not_an_object",
  /** The arguments are over the size limit; they were not parsed. */
  ArgumentsTooLarge: "too_large",
  /** The call names no tool. */
  MissingToolName: "missing_tool_name",
  /** The call names a tool that is not among the available ones. */
  ToolNotFound: "tool_not_found",
  /** The call itself is malformed (not an object, an unreadable text block). */
  InvalidCall: "invalid_call",
} as const;

/** One of the {@link ToolCallParseErrorCode} values. */
export type ToolCallParseErrorCode =
  (typeof ToolCallParseErrorCode)[keyof typeof ToolCallParseErrorCode];
