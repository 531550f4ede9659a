export { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
export {
  BuiltinToolId,
  type BuiltinToolsOptions,
  builtinTools,
} from "./builtin-tools.js";
export {
  type FileDeleteData,
  FileDeleteTool,
  type FileDeleteToolConfig,
  fileDeleteTool,
} from "./file-delete-tool.js";
export {
  type FileReadData,
  FileReadTool,
  type FileReadToolConfig,
  fileReadTool,
} from "./file-read-tool.js";
export { type FileWriteData, FileWriteTool, fileWriteTool } from "./file-write-tool.js";
export {
  type DirectoryEntryData,
  type ListDirectoryData,
  ListDirectoryTool,
  type ListDirectoryToolConfig,
  listDirectoryTool,
} from "./list-directory-tool.js";
export type { PathGuardConfig } from "./path-guard.js";
export {
  type SearchData,
  type SearchMatch,
  SearchTool,
  type SearchToolConfig,
  searchTool,
} from "./search-tool.js";
export {
  type TerminalExecuteData,
  TerminalExecuteTool,
  type TerminalExecuteToolConfig,
  terminalEnvironmentAllowList,
  terminalExecuteTool,
} from "./terminal-execute-tool.js";
export type { EntryKind } from "./walk-directory.js";
