import { createHash, type Hash, hash } from "node:crypto";
import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../core/index.js";
import {
  ArtifactAction,
  ArtifactType,
  MimeTypes,
  ToolArtifact,
  ToolResult,
  ToolResultBuilder,
} from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { ToolValidationResult } from "../validation/index.js";
import { BuiltinToolBase, throwIfCancelled } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import {
  isEndOfFile,
  nextChunkSize,
  type RegularFile,
  readNext,
  withRegularFile,
} from "./open-regular-file.js";
import { looksLikeText, sniffLength, trimToCharBoundary } from "./sniff-text.js";
import { resolveInWorkspace } from "./workspace-paths.js";

/** Construction options of {@link FileReadTool}. */
export interface FileReadToolConfig {
  /** The most bytes of content a call returns unless it asks for fewer (default 256 KiB). */
  readonly maxBytes?: number;
}

/** The data of a successful `file-read`. */
export interface FileReadData {
  /** The file, relative to the workspace root. */
  readonly path: string;
  /** The text read (the requested lines, cut at `maxBytes`). */
  readonly content: string;
  /** The first line returned (1-based). */
  readonly startLine: number;
  /** The last line returned, at least partly (1-based); `startLine - 1` for an empty file. */
  readonly endLine: number;
  /** Lines in the whole file. */
  readonly totalLines: number;
  /** The file's size in bytes. */
  readonly size: number;
  readonly mimeType: string;
  /** `"sha256:<hex>"` of the whole file. */
  readonly contentHash: string;
  /** True when the content was cut at `maxBytes`. */
  readonly truncated: boolean;
  /** Present when truncated: what was left out and how to read it. */
  readonly note?: string;
}

const defaultMaxBytes = 256 * 1024;
const maxMaxBytes = 10 * 1024 * 1024;
const chunkSize = 64 * 1024;
const progressEveryBytes = 16 * 1024 * 1024;
/** `endLine` when none is given. */
const noEnd = Number.MAX_SAFE_INTEGER;

/**
 * How many line feeds `bytes` holds. Four bytes at a time where they are aligned (the zero-byte
 * test of `x ^ 0x0a0a0a0a`, exact: no carry crosses a byte): about four times faster than a byte
 * loop, and faster than `indexOf` for lines of any length. Byte order does not change a count.
 */
export function countNewlines(bytes: Uint8Array): number {
  const length = bytes.length;
  const offset = bytes.byteOffset;
  let count = 0;
  let i = 0;
  for (; i < length && ((offset + i) & 3) !== 0; i++) if (bytes[i] === 10) count++;
  const words = (length - i) >>> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, offset + i, words);
    for (let k = 0; k < words; k++) {
      const x = (view[k] as number) ^ 0x0a0a0a0a;
      // 0x80 in each byte of x that is zero (a line feed in `bytes`), nothing elsewhere.
      const zeros = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      count += Math.imul(zeros >>> 7, 0x01010101) >>> 24;
    }
    i += words << 2;
  }
  for (; i < length; i++) if (bytes[i] === 10) count++;
  return count;
}

function describeRange(parameters: JsonObject): string {
  const start = parameters.startLine;
  const end = parameters.endLine;
  if (typeof start === "number" && typeof end === "number") return ` lines ${start}-${end}`;
  if (typeof start === "number") return ` from line ${start}`;
  if (typeof end === "number") return ` lines 1-${end}`;
  return "";
}

/**
 * `file-read` (Safe): reads a UTF-8 text file in the workspace, optionally a range of lines,
 * up to `maxBytes` (a longer result is cut, with a note saying how to read on). Refuses binary
 * files (a NUL byte or invalid UTF-8 in the first 8 KiB), naming their MIME type. The artifact
 * records the file's size, MIME type and SHA-256 with the `Accessed` action.
 *
 * Parameters: `path` (required), `startLine` / `endLine` (1-based, inclusive), `maxBytes`.
 */
export class FileReadTool extends BuiltinToolBase {
  readonly id = "file-read";
  readonly name = "Read File";
  readonly description =
    "Read a UTF-8 text file in the workspace. Optionally pass startLine/endLine (1-based, " +
    "inclusive) to read part of it. Long content is cut at maxBytes with a note; binary files " +
    "are refused.";
  readonly category = ToolCategory.FileSystem;
  readonly inputSchema;
  readonly #maxBytes: number;

  constructor(config: FileReadToolConfig = {}) {
    super();
    this.#maxBytes = Math.min(config.maxBytes ?? defaultMaxBytes, maxMaxBytes);
    this.inputSchema = JsonSchemaBuilder.create()
      .withDescription("Read a text file")
      .addPath("path", "File path, relative to the workspace root", {
        required: true,
        mustExist: true,
      })
      .addInteger("startLine", "First line to read (1-based)", { minimum: 1 })
      .addInteger("endLine", "Last line to read (1-based, inclusive)", { minimum: 1 })
      .addInteger("maxBytes", `Most bytes of content to return (default ${this.#maxBytes})`, {
        minimum: 1,
        maximum: maxMaxBytes,
      })
      .build();
  }

  override get defaultRiskLevel(): RiskLevel {
    return RiskLevel.Safe;
  }
  override get tags(): readonly string[] {
    return ["file", "read"];
  }

  /** The schema's checks, plus `endLine` not before `startLine`. */
  override validate(parameters: unknown): ToolValidationResult {
    const result = super.validate(parameters);
    if (!result.isValid) return result;
    const { startLine, endLine } = parameters as { startLine?: number; endLine?: number };
    if (startLine !== undefined && endLine !== undefined && endLine < startLine) {
      return ToolValidationResult.invalidValue(
        "endLine",
        `endLine (${endLine}) is before startLine (${startLine})`,
      );
    }
    return result;
  }

  /** `"Read file 'src/app.ts'"`, with the line range when one is given. */
  override getExecutionSummary(parameters: JsonObject): string {
    return `Read file '${String(parameters.path)}'${describeRange(parameters)}`;
  }

  protected async run(
    context: ToolExecutionContext,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> {
    const path = context.getRequiredString("path");
    const startLine = context.getOptionalInt("startLine", 1);
    const endLine = context.getOptionalInt("endLine", noEnd);
    const maxBytes = context.getOptionalInt("maxBytes", this.#maxBytes);
    const { real, relative } = resolveInWorkspace(context, path);
    const mimeType = MimeTypes.getMimeType(real);

    // O_NONBLOCK | O_NOFOLLOW, then fstat: never blocks on a FIFO, never follows a link swapped
    // in since the guard resolved the path (see openRegularFile).
    const read = await withRegularFile(real, (file) =>
      this.#read(file, context, signal, { path, relative, mimeType, startLine, endLine, maxBytes }),
    );
    if (read.ok) return read.value;
    switch (read.problem) {
      case "missing":
        return ToolResult.failed(
          `File '${path}' does not exist. Use list-directory or search to find the right path.`,
          ToolErrorCode.PathNotFound,
        );
      case "symlink":
        return ToolResult.failed(
          `'${path}' became a symbolic link while it was being read; read refused.`,
          BuiltinToolErrorCode.SymlinkRefused,
        );
      case "directory":
        return ToolResult.failed(
          `'${path}' is a directory; file-read reads files. Use list-directory for a directory.`,
          BuiltinToolErrorCode.WrongEntryType,
        );
      case "special":
        return ToolResult.failed(
          `'${path}' is not a regular file (a FIFO, socket or device); file-read reads regular files only.`,
          BuiltinToolErrorCode.NotARegularFile,
        );
    }
  }

  /**
   * Reads the whole file once: every byte is hashed and its lines counted, and the requested
   * lines are kept up to `maxBytes` (as slices of the read buffers, copied once at the end).
   */
  async #read(
    file: RegularFile,
    context: ToolExecutionContext,
    signal: AbortSignal | undefined,
    want: {
      readonly path: string;
      readonly relative: string;
      readonly mimeType: string;
      readonly startLine: number;
      readonly endLine: number;
      readonly maxBytes: number;
    },
  ): Promise<ToolResult> {
    const { fd, stats } = file;
    const { path, relative, mimeType, startLine, endLine, maxBytes } = want;
    // A file read in one chunk (most) is hashed in one call; a longer one as it streams.
    let first: Buffer | undefined;
    let hasher: Hash | undefined;
    const parts: Buffer[] = [];
    let taken = 0;
    let truncated = false;
    let line = 1;
    let size = 0;
    let lastByte = -1;
    let firstLineTaken = 0;
    let lastLineTaken = 0;
    let nextProgress = progressEveryBytes;
    for (;;) {
      throwIfCancelled(context, signal);
      // A fresh buffer per read: the lines kept are slices of it, not copies.
      const buffer = Buffer.allocUnsafe(nextChunkSize(stats, size, chunkSize));
      const bytesRead = await readNext(fd, buffer, size);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      if (size === 0 && !looksLikeText(chunk.subarray(0, sniffLength))) {
        return ToolResult.failed(
          `'${path}' is a binary file (${mimeType}); file-read reads UTF-8 text files only.`,
          BuiltinToolErrorCode.BinaryFile,
        );
      }
      if (size === 0) first = chunk;
      else {
        hasher ??= createHash("sha256").update(first as Buffer);
        hasher.update(chunk);
      }
      size += bytesRead;
      lastByte = chunk[bytesRead - 1] as number;
      if (truncated || line > endLine) {
        // Past the lines wanted: only counted.
        line += countNewlines(chunk);
      } else if (line >= startLine && endLine === noEnd && bytesRead <= maxBytes - taken) {
        // All of the chunk is wanted (the common case: a whole file).
        if (firstLineTaken === 0) firstLineTaken = line;
        line += countNewlines(chunk);
        lastLineTaken = lastByte === 10 ? line - 1 : line;
        parts.push(chunk);
        taken += bytesRead;
      } else {
        // The lines kept from this chunk are contiguous: one slice, [keepFrom, keepTo).
        let keepFrom = -1;
        let keepTo = -1;
        let pos = 0;
        while (pos < bytesRead) {
          const newline = chunk.indexOf(10, pos);
          const end = newline === -1 ? bytesRead : newline + 1;
          if (line >= startLine && line <= endLine && !truncated) {
            if (firstLineTaken === 0) firstLineTaken = line;
            lastLineTaken = line;
            if (keepFrom === -1) keepFrom = pos;
            const room = maxBytes - taken;
            if (end - pos > room) {
              keepTo = pos + room;
              taken += room;
              truncated = true;
            } else {
              keepTo = end;
              taken += end - pos;
            }
          }
          if (newline !== -1) line++;
          pos = end;
        }
        if (keepFrom !== -1) parts.push(chunk.subarray(keepFrom, keepTo));
      }
      if (size >= nextProgress) {
        context.reportProgress(`Read ${size} of ${stats.size} bytes`, (size / stats.size) * 100);
        nextProgress += progressEveryBytes;
      }
      if (isEndOfFile(stats, size, bytesRead, buffer.length)) break;
    }
    // A last line without a newline is a line too.
    const totalLines = size === 0 ? 0 : lastByte === 10 ? line - 1 : line;
    if (startLine > Math.max(totalLines, 1)) {
      return ToolResult.validationFailed(
        ToolValidationResult.invalidValue(
          "startLine",
          `startLine ${startLine} is past the end of '${path}', which has ${totalLines} lines`,
        ),
      );
    }
    const kept = parts.length === 1 ? parts[0]! : Buffer.concat(parts, taken);
    const bytes = trimToCharBoundary(kept);
    const content = kept.toString("utf8", 0, bytes.length);
    const digest = hasher?.digest("hex") ?? hash("sha256", first ?? Buffer.alloc(0), "hex");
    const contentHash = `sha256:${digest}`;
    const shownStart = firstLineTaken === 0 ? startLine : firstLineTaken;
    const shownEnd = firstLineTaken === 0 ? startLine - 1 : lastLineTaken;
    const note = truncated
      ? `Content cut at ${maxBytes} bytes (in line ${shownEnd}). Read on with startLine: ${shownEnd}, or pass a larger maxBytes.`
      : undefined;
    const data: FileReadData = {
      path: relative,
      content,
      startLine: shownStart,
      endLine: shownEnd,
      totalLines,
      size,
      mimeType,
      contentHash,
      truncated,
      ...(note !== undefined && { note }),
    };
    const artifact = ToolArtifact.custom(ArtifactType.File, relative, {
      action: ArtifactAction.Accessed,
      description: "Read",
      size,
      mimeType,
      contentHash,
    });
    const range =
      shownEnd >= shownStart ? ` (lines ${shownStart}-${shownEnd} of ${totalLines})` : "";
    const message = `Read '${relative}'${range}${truncated ? ", truncated" : ""}`;
    // The model reads the content as it is, not as an escaped JSON string.
    return ToolResultBuilder.success()
      .withData(data)
      .withMessage(message)
      .withArtifact(artifact)
      .withTextField("content")
      .build();
  }
}

/** The shared `file-read` instance (stateless). */
export const fileReadTool = new FileReadTool();
