import {
  getWorkspaceRelativePath,
  InvalidPathError,
  PathOutsideWorkspaceError,
} from "../context/index.js";

/**
 * `path` relative to the (real) workspace root with `/` separators, resolved as the policy
 * resolves every path (`..` applied, symlinks followed); undefined when it leads outside the
 * workspace or cannot be resolved.
 *
 * @internal
 */
export function workspaceRelative(workspace: string, path: string): string | undefined {
  if (path.includes("\0") || workspace.includes("\0")) return undefined;
  let relative: string;
  try {
    relative = getWorkspaceRelativePath(workspace, path);
  } catch (error) {
    if (error instanceof PathOutsideWorkspaceError || error instanceof InvalidPathError) {
      return undefined;
    }
    throw error;
  }
  return process.platform === "win32" ? relative.replaceAll("\\", "/") : relative;
}
