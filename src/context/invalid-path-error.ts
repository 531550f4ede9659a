import { AinternError } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";

/** Why a path (or a workspace root) could not be resolved. */
export type InvalidPathReason =
  /** Not a string at all. */
  | "not-a-string"
  /** The empty string. */
  | "empty"
  /** Contains a NUL byte, which the operating system would cut the path at. */
  | "nul-byte"
  /** Symlinks refer to each other in a cycle (or nest deeper than the system allows). */
  | "symlink-loop"
  /** The workspace root does not exist or is not a directory. */
  | "invalid-workspace"
  /** The file system refused to resolve it (for example, a directory without permission). */
  | "unresolvable";

/**
 * Thrown when a path cannot be resolved at all: empty, not a string, a NUL byte, a symlink loop,
 * a missing workspace root, or a file system error. {@link InvalidPathError.reason} says which.
 */
export class InvalidPathError extends AinternError {
  /** The path as it was given (converted to a string for display when it was not one). */
  readonly path: string;
  /** The workspace root as it was given. */
  readonly workspaceRoot: string;
  /** Why the path was refused. */
  readonly reason: InvalidPathReason;

  constructor(
    path: string,
    workspaceRoot: string,
    reason: InvalidPathReason,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      ContextErrorCode.InvalidPath,
      `Invalid path '${path}' in workspace '${workspaceRoot}': ${detail}`,
      options,
    );
    this.name = "InvalidPathError";
    this.path = path;
    this.workspaceRoot = workspaceRoot;
    this.reason = reason;
  }
}
