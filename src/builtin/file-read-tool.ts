import { createHash } from "node:crypto";
import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, RiskLevel, ToolCategory, ToolErrorCode } from "../core/index.js";
import {
  ArtifactAction,
  ArtifactType,
  MimeTypes,
  ToolArtifact,
  ToolResult,
} from "../result/index.js";
import { JsonSchemaBuilder } from "../schema/index.js";
import { ToolValidationResult } from "../validation/index.js";
import { BuiltinToolBase } from "./builtin-tool-base.js";
import { BuiltinToolErrorCode } from "./builtin-tool-error-code.js";
import { closeFile, openRegularFile, readInto } from "./open-regular-file.js";
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

  protected async run(context: ToolExecutionContext, signal: AbortSignal): Promise<ToolResult> {
    const path = context.getRequiredString("path");
    const startLine = context.getOptionalInt("startLine", 1);
    const endLine = context.getOptionalInt("endLine", Number.MAX_SAFE_INTEGER);
    const maxBytes = context.getOptionalInt("maxBytes", this.#maxBytes);
    const { real, relative } = resolveInWorkspace(context, path);
    const mimeType = MimeTypes.getMimeType(real);

    // O_NONBLOCK | O_NOFOLLOW, then fstat: never blocks on a FIFO, never follows a link swapped
    // in since the guard resolved the path (see openRegularFile).
    const opened = openRegularFile(real);
    if (!opened.ok) {
      switch (opened.problem) {
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
    const { fd, stats } = opened;
    try {
      const hash = createHash("sha256");
      const parts: Uint8Array[] = [];
      let taken = 0;
      let truncated = false;
      let line = 1;
      let size = 0;
      let lastByte = -1;
      let firstLineTaken = 0;
      let lastLineTaken = 0;
      let nextProgress = progressEveryBytes;
      const buffer = Buffer.allocUnsafe(chunkSize);
      for (;;) {
        signal.throwIfAborted();
        const bytesRead = await readInto(fd, buffer, chunkSize);
        if (bytesRead === 0) break;
        const chunk = buffer.subarray(0, bytesRead);
        if (size === 0 && !looksLikeText(chunk.subarray(0, sniffLength))) {
          return ToolResult.failed(
            `'${path}' is a binary file (${mimeType}); file-read reads UTF-8 text files only.`,
            BuiltinToolErrorCode.BinaryFile,
          );
        }
        hash.update(chunk);
        size += bytesRead;
        lastByte = chunk[bytesRead - 1] as number;
        let pos = 0;
        while (pos < chunk.length) {
          const newline = chunk.indexOf(10, pos);
          const end = newline === -1 ? chunk.length : newline + 1;
          if (line >= startLine && line <= endLine && !truncated) {
            if (firstLineTaken === 0) firstLineTaken = line;
            lastLineTaken = line;
            const piece = chunk.subarray(pos, end);
            const room = maxBytes - taken;
            if (piece.length > room) {
              parts.push(Buffer.from(piece.subarray(0, room)));
              taken += room;
              truncated = true;
            } else {
              parts.push(Buffer.from(piece));
              taken += piece.length;
            }
          }
          if (newline !== -1) line++;
          pos = end;
        }
        if (size >= nextProgress) {
          context.reportProgress(`Read ${size} of ${stats.size} bytes`, (size / stats.size) * 100);
          nextProgress += progressEveryBytes;
        }
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
      const bytes = trimToCharBoundary(Buffer.concat(parts));
      const content = Buffer.from(bytes).toString("utf8");
      const contentHash = `sha256:${hash.digest("hex")}`;
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
      return ToolResult.succeededWithArtifacts([artifact], data, message);
    } finally {
      await closeFile(fd);
    }
  }
}

/** The shared `file-read` instance (stateless). */
export const fileReadTool = new FileReadTool();
