/**
 * The one set of error codes a {@link ToolResult} or an execution result carries in `errorCode`.
 * Compare against these constants, never against a bare string.
 *
 * The AIntern specs spell result codes in PascalCase ("Timeout", "Denied") and the Lexichord spec
 * in SCREAMING_CASE ("TIMEOUT", "PERMISSION_DENIED"); aintern uses the PascalCase spelling for
 * both families (the spec 001 tests assert `"ToolNotFound"`).
 */
export const ToolErrorCode = {
  /** The call was cancelled by its caller (an abort signal) before it finished. */
  Cancelled: "Cancelled",
  /** A person or a policy denied the call. */
  Denied: "Denied",
  /** The call ran past its timeout. */
  Timeout: "Timeout",
  /** The parameters failed validation. */
  ValidationFailed: "ValidationFailed",
  /** The tool is not available in this context (for example, no workspace is open). */
  NotAvailable: "NotAvailable",
  /** No tool is registered under the requested id. */
  ToolNotFound: "ToolNotFound",
  /** The caller lacks a permission the tool requires. */
  PermissionDenied: "PermissionDenied",
  /** The tool needs confirmation and no confirmation callback was given. */
  ConfirmationRequired: "ConfirmationRequired",
  /** The person asked to confirm said no. */
  ConfirmationDenied: "ConfirmationDenied",
  /** The tool threw or failed without a more specific code. */
  ExecutionError: "ExecutionError",
  /** A path parameter resolved outside the workspace. */
  PathOutsideWorkspace: "PathOutsideWorkspace",
  /** A path parameter names something that does not exist. */
  PathNotFound: "PathNotFound",
  /** The execution was running when its process died; found on the next start. */
  Interrupted: "Interrupted",
  /** A batch item that never ran: an earlier item failed, or the batch was cancelled. */
  NotRun: "NotRun",
  /** The executor's concurrency limit and its queue were both full. */
  ConcurrencyLimit: "ConcurrencyLimit",
} as const;

/** One of the {@link ToolErrorCode} values. */
export type ToolErrorCode = (typeof ToolErrorCode)[keyof typeof ToolErrorCode];
