import type { Tool } from "../tools/index.js";
import { FileDeleteTool, fileDeleteTool } from "./file-delete-tool.js";
import { fileReadTool } from "./file-read-tool.js";
import { fileWriteTool } from "./file-write-tool.js";
import { ListDirectoryTool, listDirectoryTool } from "./list-directory-tool.js";
import type { PathGuardConfig } from "./path-guard.js";
import { SearchTool, searchTool } from "./search-tool.js";
import { terminalExecuteTool } from "./terminal-execute-tool.js";

/** The ids of the built-in tools. */
export const BuiltinToolId = {
  FileRead: "file-read",
  ListDirectory: "list-directory",
  Search: "search",
  FileWrite: "file-write",
  FileDelete: "file-delete",
  TerminalExecute: "terminal-execute",
} as const;

/** One of the {@link BuiltinToolId} values. */
export type BuiltinToolId = (typeof BuiltinToolId)[keyof typeof BuiltinToolId];

/**
 * Options of {@link builtinTools}. `protectedPaths` and `deniedPaths` say what `search` must not
 * read and walks must not enter beyond the path a call names, `protectedPaths` and
 * `changeDeniedPaths` what a recursive `file-delete` must not remove (default: the default
 * protected paths); pass your policy's, `policy.guardedPaths()`, as `aintern mcp` does.
 */
export interface BuiltinToolsOptions extends PathGuardConfig {
  /** Only these tools (default all six). */
  readonly include?: readonly BuiltinToolId[];
  /** Leave these out (applied after `include`). */
  readonly exclude?: readonly BuiltinToolId[];
  /** Only the tools that change nothing (`file-read`, `list-directory`, `search`). */
  readonly readOnly?: boolean;
}

/**
 * The built-in tools, as the shared (stateless) instances (new `search`, `list-directory` and
 * `file-delete` instances when a guard option is given), in the order: file-read,
 * list-directory, search, file-write, file-delete, terminal-execute.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry();
 * for (const tool of builtinTools({ exclude: ["terminal-execute"] })) registry.registerTool(tool);
 * ```
 */
export function builtinTools(options: BuiltinToolsOptions = {}): Tool[] {
  const guard: PathGuardConfig | undefined =
    options.protectedPaths === undefined &&
    options.deniedPaths === undefined &&
    options.changeDeniedPaths === undefined
      ? undefined
      : {
          ...(options.protectedPaths === undefined
            ? {}
            : { protectedPaths: options.protectedPaths }),
          ...(options.deniedPaths === undefined ? {} : { deniedPaths: options.deniedPaths }),
          ...(options.changeDeniedPaths === undefined
            ? {}
            : { changeDeniedPaths: options.changeDeniedPaths }),
        };
  const all: Tool[] = [
    fileReadTool,
    guard === undefined ? listDirectoryTool : new ListDirectoryTool(guard),
    guard === undefined ? searchTool : new SearchTool(guard),
    fileWriteTool,
    guard === undefined ? fileDeleteTool : new FileDeleteTool(guard),
    terminalExecuteTool,
  ];
  const readOnlyIds: readonly string[] = [
    BuiltinToolId.FileRead,
    BuiltinToolId.ListDirectory,
    BuiltinToolId.Search,
  ];
  return all.filter(
    (tool) =>
      (options.include === undefined || (options.include as readonly string[]).includes(tool.id)) &&
      !(options.exclude as readonly string[] | undefined)?.includes(tool.id) &&
      (options.readOnly !== true || readOnlyIds.includes(tool.id)),
  );
}
