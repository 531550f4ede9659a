/**
 * The error codes the built-in tools put in `ToolResult.errorCode` beyond the shared
 * `ToolErrorCode` ones (which they use for confinement, missing paths, validation, timeouts and
 * cancellation). Compare against these constants, never against a bare string.
 */
export const BuiltinToolErrorCode = {
  /** `file-write` without `overwrite: true` found a file already at the path. */
  FileExists: "FileExists",
  /** `file-read` was pointed at a file that is not UTF-8 text. */
  BinaryFile: "BinaryFile",
  /** A path names a symbolic link the tool refuses to write through. */
  SymlinkRefused: "SymlinkRefused",
  /** A path names a directory where the tool needs a file (or the reverse). */
  WrongEntryType: "WrongEntryType",
  /** A path names a FIFO, socket or device: the file tools read and search regular files only. */
  NotARegularFile: "NotARegularFile",
  /** `terminal-execute`: the command ran and exited with a non-zero code (or a signal). */
  CommandFailed: "CommandFailed",
} as const;

/** One of the {@link BuiltinToolErrorCode} values. */
export type BuiltinToolErrorCode = (typeof BuiltinToolErrorCode)[keyof typeof BuiltinToolErrorCode];
