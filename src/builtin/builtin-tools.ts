import type { Tool } from "../tools/index.js";
import { fileDeleteTool } from "./file-delete-tool.js";
import { fileReadTool } from "./file-read-tool.js";
import { fileWriteTool } from "./file-write-tool.js";
import { listDirectoryTool } from "./list-directory-tool.js";
import { searchTool } from "./search-tool.js";
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

/** Options of {@link builtinTools}. */
export interface BuiltinToolsOptions {
  /** Only these tools (default all six). */
  readonly include?: readonly BuiltinToolId[];
  /** Leave these out (applied after `include`). */
  readonly exclude?: readonly BuiltinToolId[];
  /** Only the tools that change nothing (`file-read`, `list-directory`, `search`). */
  readonly readOnly?: boolean;
}

/**
 * The built-in tools, as the shared (stateless) instances, in the order: file-read,
 * list-directory, search, file-write, file-delete, terminal-execute.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry();
 * for (const tool of builtinTools({ exclude: ["terminal-execute"] })) registry.registerTool(tool);
 * ```
 */
export function builtinTools(options: BuiltinToolsOptions = {}): Tool[] {
  const all: Tool[] = [
    fileReadTool,
    listDirectoryTool,
    searchTool,
    fileWriteTool,
    fileDeleteTool,
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
