import { AinternError } from "../core/index.js";
import { ContextErrorCode } from "./context-error-code.js";

/**
 * Thrown when a path resolves (after `..`, symlinks and case are taken into account) to a place
 * outside the workspace root. This is the workspace's security boundary: a tool must not read or
 * write the resolved location.
 */
export class PathOutsideWorkspaceError extends AinternError {
  /** The path as it was given. */
  readonly path: string;
  /** The workspace root as it was given. */
  readonly workspaceRoot: string;
  /** Where the path really leads: absolute, symlinks resolved. */
  readonly resolvedPath: string;

  constructor(path: string, workspaceRoot: string, resolvedPath: string) {
    super(
      ContextErrorCode.PathOutsideWorkspace,
      `Path '${path}' resolves to '${resolvedPath}', which is outside the workspace ` +
        `'${workspaceRoot}'. Use a path inside the workspace.`,
    );
    this.name = "PathOutsideWorkspaceError";
    this.path = path;
    this.workspaceRoot = workspaceRoot;
    this.resolvedPath = resolvedPath;
  }
}
