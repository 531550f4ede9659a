/**
 * The `code` of every error the context folder throws at a calling program. Compare against
 * these constants, never against a bare string.
 */
export const ContextErrorCode = {
  /** A path resolves outside the workspace root ({@link PathOutsideWorkspaceError}). */
  PathOutsideWorkspace: "PATH_OUTSIDE_WORKSPACE",
  /** A path is empty, not a string, holds a NUL byte, loops through symlinks or cannot be read. */
  InvalidPath: "INVALID_PATH",
  /** A path helper was called on a context that has no workspace. */
  NoWorkspace: "NO_WORKSPACE",
  /** A required tool parameter is absent. */
  MissingParameter: "MISSING_PARAMETER",
  /** A tool parameter has the wrong JSON type. */
  InvalidParameterType: "INVALID_PARAMETER_TYPE",
  /** Parameters given to the builder are not a JSON object (or not valid JSON at all). */
  InvalidParameters: "INVALID_PARAMETERS",
  /** `build()` was called before `withServices(...)`. */
  ServicesRequired: "SERVICES_REQUIRED",
  /** `getRequiredService(token)` found nothing registered for the token. */
  ServiceNotRegistered: "SERVICE_NOT_REGISTERED",
} as const;

/** One of the {@link ContextErrorCode} values. */
export type ContextErrorCode = (typeof ContextErrorCode)[keyof typeof ContextErrorCode];
