import { ToolErrorCode } from "../core/index.js";
import { describeThrown } from "./describe-thrown.js";
import { checkDurationMs } from "./duration.js";
import {
  type DirectoryArtifactOptions,
  type FileArtifactOptions,
  ToolArtifact,
} from "./tool-artifact.js";
import { createToolResult, type ToolResult } from "./tool-result.js";
import { defaultMaxDataLength, normalizeLimit } from "./truncate-text.js";

/**
 * A fluent builder of {@link ToolResult}s with several artifacts, suggestions and metadata
 * (spec 004 `ToolResultBuilder`). A new builder describes a success with an empty message.
 * Each `build()` returns a new frozen result; later calls on the builder do not change it.
 *
 * @example
 * ```ts
 * const result = ToolResultBuilder.create()
 *   .asSuccess()
 *   .withMessage("Files updated successfully")
 *   .withData({ updatedCount: 2 })
 *   .withFileArtifact("src/file1.ts", { isNew: true, description: "Created" })
 *   .withFileArtifact("src/file2.ts", { description: "Modified" })
 *   .withSuggestion("Run 'npm test' to verify the changes")
 *   .withDuration(2500)
 *   .build();
 * ```
 */
export class ToolResultBuilder<TData = unknown> {
  #success = true;
  #data: TData | undefined;
  #message = "";
  #error: string | undefined;
  #errorCode: string | undefined;
  #exception: Error | undefined;
  readonly #artifacts: ToolArtifact[] = [];
  #durationMs = 0;
  readonly #suggestions: string[] = [];
  #shouldTruncate = false;
  #maxDataLength: number | undefined;
  #textField: string | undefined;
  readonly #metadata = new Map<string, unknown>();

  /** A new builder (a success with an empty message until told otherwise). */
  static create(): ToolResultBuilder {
    return new ToolResultBuilder();
  }

  /** A new builder in the success state. */
  static success(): ToolResultBuilder {
    return new ToolResultBuilder().asSuccess();
  }

  /** A new builder in the failure state, with `error` as error and message. */
  static failure(error: string): ToolResultBuilder {
    return new ToolResultBuilder().withMessage(error).asFailure(error);
  }

  // ==========================================================================================
  // Status
  // ==========================================================================================

  /** Marks the result as a success. */
  asSuccess(): this {
    this.#success = true;
    return this;
  }

  /** Marks the result as a failure; the error becomes the message if none is set yet. */
  asFailure(error: string, errorCode?: string): this {
    this.#success = false;
    this.#error = error;
    this.#errorCode = errorCode;
    if (this.#message === "") this.#message = error;
    return this;
  }

  /** Marks the result as cancelled (`ToolErrorCode.Cancelled`), as `ToolResult.cancelled` does. */
  asCancelled(message?: string): this {
    this.#success = false;
    this.#error = "Operation was cancelled";
    this.#errorCode = ToolErrorCode.Cancelled;
    this.#message = message ?? "Operation was cancelled by user";
    return this;
  }

  // ==========================================================================================
  // Data
  // ==========================================================================================

  /** Sets the data for the model. */
  withData<T>(data: T): ToolResultBuilder<T> {
    const builder = this as unknown as ToolResultBuilder<T>;
    builder.#data = data;
    return builder;
  }

  /** Sets the human-readable message. */
  withMessage(message: string): this {
    this.#message = message;
    return this;
  }

  /**
   * Records a thrown error and marks the result as a failure. The error's message fills the
   * error and the message, and its type the error code, where they are not set yet (the code
   * follows the rule of `ToolResult.fromException`).
   */
  withException(error: unknown): this {
    const thrown = describeThrown(error);
    this.#exception = thrown.exception;
    this.#success = false;
    this.#error ??= thrown.message;
    this.#errorCode ??= thrown.errorCode;
    if (this.#message === "") this.#message = thrown.message;
    return this;
  }

  // ==========================================================================================
  // Artifacts
  // ==========================================================================================

  /** Adds an artifact. */
  withArtifact(artifact: ToolArtifact): this {
    this.#artifacts.push(artifact);
    return this;
  }

  /** Adds several artifacts. */
  withArtifacts(artifacts: Iterable<ToolArtifact>): this {
    this.#artifacts.push(...artifacts);
    return this;
  }

  /** Adds a file artifact (see `ToolArtifact.file`). */
  withFileArtifact(path: string, options?: FileArtifactOptions): this {
    return this.withArtifact(ToolArtifact.file(path, options));
  }

  /** Adds a directory artifact (see `ToolArtifact.directory`). */
  withDirectoryArtifact(path: string, options?: DirectoryArtifactOptions): this {
    return this.withArtifact(ToolArtifact.directory(path, options));
  }

  /** Adds a deleted-file artifact (see `ToolArtifact.deletedFile`). */
  withDeletedFile(path: string, description?: string): this {
    return this.withArtifact(ToolArtifact.deletedFile(path, description));
  }

  // ==========================================================================================
  // Metadata
  // ==========================================================================================

  /**
   * Sets how long the operation took.
   *
   * @throws AinternError `INVALID_DURATION` for a negative, NaN or infinite duration.
   */
  withDuration(durationMs: number): this {
    this.#durationMs = checkDurationMs(durationMs);
    return this;
  }

  /** Adds a suggested follow-up for the model. */
  withSuggestion(suggestion: string): this {
    this.#suggestions.push(suggestion);
    return this;
  }

  /** Adds several suggested follow-ups. */
  withSuggestions(suggestions: Iterable<string>): this {
    this.#suggestions.push(...suggestions);
    return this;
  }

  /**
   * Marks the data as large and sets the most characters of it sent to the model
   * (default 50000).
   *
   * @throws AinternError `INVALID_MAX_LENGTH` for a negative or NaN length.
   */
  withTruncation(maxLength: number = defaultMaxDataLength): this {
    this.#shouldTruncate = true;
    this.#maxDataLength = normalizeLimit(maxLength);
    return this;
  }

  /**
   * Names the field of the data that holds text the model reads as it is (see
   * {@link ToolResult.textField}).
   */
  withTextField(field: string): this {
    this.#textField = field;
    return this;
  }

  /** Adds or replaces a metadata entry (`exitCode`, `itemCount`, ...). */
  withMetadata(key: string, value: unknown): this {
    this.#metadata.set(key, value);
    return this;
  }

  // ==========================================================================================
  // Build
  // ==========================================================================================

  /** The frozen result described so far. */
  build(): ToolResult<TData> {
    return createToolResult<TData>({
      success: this.#success,
      data: this.#data,
      message: this.#message,
      error: this.#error,
      errorCode: this.#errorCode,
      exception: this.#exception,
      artifacts: this.#artifacts,
      durationMs: this.#durationMs,
      suggestedFollowUps: this.#suggestions,
      shouldTruncate: this.#shouldTruncate,
      maxDataLength: this.#maxDataLength,
      textField: this.#textField,
      metadata: this.#metadata,
    });
  }
}
