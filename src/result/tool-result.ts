import { type JsonValue, ToolErrorCode } from "../core/index.js";
import { describeThrown } from "./describe-thrown.js";
import { checkDurationMs } from "./duration.js";
import { safeJsonStringify, toJsonSafe } from "./safe-json.js";
import type { ToolArtifact, ToolArtifactJson } from "./tool-artifact.js";
import { defaultMaxDataLength, truncateText } from "./truncate-text.js";
import {
  type ValidationFailureData,
  type ValidationFailureSource,
  validationFailureData,
} from "./validation-failure.js";

/** The message of a success when none is given (spec 004). */
const defaultSuccessMessage = "Operation completed successfully";

/** Options of {@link ToolResult.toLlmContext}. */
export interface ToLlmContextOptions {
  /**
   * The most characters of serialized data to include; default the result's `maxDataLength`,
   * else 50000.
   */
  readonly maxDataLength?: number;
}

/** The JSON form of a {@link ToolResult} (`JSON.stringify(result)`); the exception is left out. */
export interface ToolResultJson {
  readonly success: boolean;
  /** The data made JSON-safe (see `toJsonSafe`); absent when there is none. */
  readonly data?: JsonValue;
  readonly message: string;
  readonly error?: string;
  readonly errorCode?: string;
  readonly artifacts: readonly ToolArtifactJson[];
  readonly durationMs: number;
  readonly suggestedFollowUps?: readonly string[];
  readonly shouldTruncate: boolean;
  readonly maxDataLength?: number;
  /** See {@link ToolResult.textField}. */
  readonly textField?: string;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
}

/** Everything a result is made of. Internal to the folder: callers use factories or the builder. */
export interface ToolResultInit<TData> {
  readonly success: boolean;
  readonly data?: TData | undefined;
  readonly message?: string | undefined;
  readonly error?: string | undefined;
  readonly errorCode?: string | undefined;
  readonly exception?: Error | undefined;
  readonly artifacts?: Iterable<ToolArtifact> | undefined;
  readonly durationMs?: number | undefined;
  readonly suggestedFollowUps?: Iterable<string> | undefined;
  readonly shouldTruncate?: boolean | undefined;
  readonly maxDataLength?: number | undefined;
  readonly textField?: string | undefined;
  readonly metadata?: Iterable<readonly [string, unknown]> | undefined;
}

const noArtifacts: readonly ToolArtifact[] = Object.freeze([]);

/** A frozen copy of `items`, or `items` itself when it is already a frozen array. */
function frozenList<T>(items: Iterable<T> | undefined): readonly T[] | undefined {
  if (items === undefined) return undefined;
  if (Array.isArray(items) && Object.isFrozen(items)) return items as readonly T[];
  return Object.freeze([...items]);
}

let construct: <TData>(init: ToolResultInit<TData>) => ToolResult<TData>;

/** Creates a frozen result from its parts. Internal to the folder (used by the builder). */
export function createToolResult<TData>(init: ToolResultInit<TData>): ToolResult<TData> {
  return construct(init);
}

/**
 * The result of a tool execution (spec 004 `ToolResult`): success or failure, data for the
 * model, a message for people, error details, artifacts, duration, suggested follow-ups and
 * metadata.
 *
 * Immutable: built only through the static factories or {@link ToolResultBuilder}, frozen
 * (assigning a member throws in strict mode), with frozen lists. `data` is held as given and not
 * deep-frozen. Copy helpers such as {@link ToolResult.withDuration} return new results.
 *
 * @typeParam TData The type of `data`; failures are `ToolResult<never>`, assignable to any.
 *
 * @example
 * ```ts
 * return ToolResult.succeeded({ content, lines: 42 }, "Read 42 lines");
 * return ToolResult.failed("File not found: src/app.ts", ToolErrorCode.PathNotFound);
 * try { ... } catch (error) { return ToolResult.fromException(error, "Reading src/app.ts"); }
 * ```
 */
export class ToolResult<TData = unknown> {
  /** Whether the tool executed successfully. */
  readonly success: boolean;
  /** Data for the model, serialized to JSON by {@link ToolResult.getSerializedData}. */
  readonly data: TData | undefined;
  /** A concise, human-readable message, shown in the UI and to the model on success. */
  readonly message: string;
  /** What went wrong; set on failures. */
  readonly error: string | undefined;
  /**
   * A code for programs: a {@link ToolErrorCode} value, a tool's own code, or the type of a
   * thrown error (see {@link ToolResult.fromException}).
   */
  readonly errorCode: string | undefined;
  /** The error behind a failure, for logs; never shown to the model nor serialized. */
  readonly exception: Error | undefined;
  /** Files and other things the execution produced or touched. */
  readonly artifacts: readonly ToolArtifact[];
  /** How long the execution took, in milliseconds. */
  readonly durationMs: number;
  /** Hints for the model about what to do next; `undefined` when there are none. */
  readonly suggestedFollowUps: readonly string[] | undefined;
  /** Set when the data is known to be large (informational: data over the limit is always cut). */
  readonly shouldTruncate: boolean;
  /** The most characters of serialized data sent to the model (default 50000). */
  readonly maxDataLength: number | undefined;
  /**
   * A field of `data` holding text the model reads as it is (a file's content): when it names a
   * string field of an object, {@link ToolResult.toLlmContext} shows the other fields as `Data:`
   * and this text after everything else, under its own heading, instead of as an escaped JSON
   * string. The data itself is unchanged.
   */
  readonly textField: string | undefined;
  /** Anything else about the execution (`exitCode`, `itemCount`, ...); `undefined` when empty. */
  readonly metadata: Readonly<Record<string, unknown>> | undefined;

  static {
    construct = (init) => new ToolResult(init);
  }

  private constructor(init: ToolResultInit<TData>) {
    this.success = init.success;
    this.data = init.data;
    this.message = init.message ?? "";
    this.error = init.error;
    this.errorCode = init.errorCode;
    this.exception = init.exception;
    this.artifacts = frozenList(init.artifacts) ?? noArtifacts;
    this.durationMs = init.durationMs ?? 0;
    const followUps = frozenList(init.suggestedFollowUps);
    this.suggestedFollowUps =
      followUps !== undefined && followUps.length > 0 ? followUps : undefined;
    this.shouldTruncate = init.shouldTruncate ?? false;
    this.maxDataLength = init.maxDataLength;
    this.textField = init.textField;
    if (init.metadata === undefined) {
      this.metadata = undefined;
    } else {
      // fromEntries defines own properties, so a "__proto__" key stays an ordinary key.
      const metadata = Object.fromEntries(init.metadata);
      this.metadata = Object.keys(metadata).length > 0 ? Object.freeze(metadata) : undefined;
    }
    Object.freeze(this);
  }

  // ==========================================================================================
  // Computed flags
  // ==========================================================================================

  /** Whether this result is a failure (`!success`). */
  get isFailure(): boolean {
    return !this.success;
  }

  /** Whether the execution was cancelled (`errorCode === ToolErrorCode.Cancelled`). */
  get isCancelled(): boolean {
    return this.errorCode === ToolErrorCode.Cancelled;
  }

  /** Whether the execution was denied (`errorCode === ToolErrorCode.Denied`). */
  get isDenied(): boolean {
    return this.errorCode === ToolErrorCode.Denied;
  }

  /** Whether the execution timed out (`errorCode === ToolErrorCode.Timeout`). */
  get isTimeout(): boolean {
    return this.errorCode === ToolErrorCode.Timeout;
  }

  /** Whether parameter validation failed (`errorCode === ToolErrorCode.ValidationFailed`). */
  get isValidationFailure(): boolean {
    return this.errorCode === ToolErrorCode.ValidationFailed;
  }

  /** Whether the tool was not available (`errorCode === ToolErrorCode.NotAvailable`). */
  get isNotAvailable(): boolean {
    return this.errorCode === ToolErrorCode.NotAvailable;
  }

  /** Whether there are any artifacts. */
  get hasArtifacts(): boolean {
    return this.artifacts.length > 0;
  }

  /** Whether there are any suggested follow-ups. */
  get hasSuggestions(): boolean {
    return this.suggestedFollowUps !== undefined && this.suggestedFollowUps.length > 0;
  }

  /** Whether there is data (neither `undefined` nor `null`; `0`, `""` and `false` are data). */
  get hasData(): boolean {
    return this.data !== undefined && this.data !== null;
  }

  // ==========================================================================================
  // Factories
  // ==========================================================================================

  /** A success, with optional data and message (default "Operation completed successfully"). */
  static succeeded<TData = undefined>(data?: TData, message?: string): ToolResult<TData> {
    return construct({ success: true, data, message: message ?? defaultSuccessMessage });
  }

  /** A success that produced or touched artifacts. */
  static succeededWithArtifacts<TData = undefined>(
    artifacts: Iterable<ToolArtifact>,
    data?: TData,
    message?: string,
  ): ToolResult<TData> {
    return construct({ success: true, data, message: message ?? defaultSuccessMessage, artifacts });
  }

  /**
   * A failure. The error is also the message; partial data collected before the failure may be
   * kept as `data`.
   *
   * @param errorCode Prefer a {@link ToolErrorCode} value or a stable code of the tool's own.
   */
  static failed<TData = never>(
    error: string,
    errorCode?: string,
    partialData?: TData,
  ): ToolResult<TData> {
    return construct({ success: false, error, errorCode, data: partialData, message: error });
  }

  /**
   * A failure from anything a tool threw. `error` is the error's message, prefixed with
   * `contextMessage` when given (`"Reading config: ENOENT ..."`); `message` is the context
   * message or the error's message; `exception` keeps the error for logs.
   *
   * `errorCode` is the spec's "exception type name": the `code` of an `AinternError`; otherwise
   * the error's `name` (`"TypeError"`, `"AbortError"`), or its class name when a subclass left
   * `name` at `"Error"`; `ToolErrorCode.ExecutionError` for a thrown non-`Error` value (wrapped
   * in an `Error` whose `cause` is the value).
   */
  static fromException(error: unknown, contextMessage?: string): ToolResult<never> {
    const thrown = describeThrown(error);
    return construct({
      success: false,
      error: contextMessage === undefined ? thrown.message : `${contextMessage}: ${thrown.message}`,
      errorCode: thrown.errorCode,
      exception: thrown.exception,
      message: contextMessage ?? thrown.message,
    });
  }

  /** A cancellation (`ToolErrorCode.Cancelled`); message default "Operation was cancelled by user". */
  static cancelled(message?: string): ToolResult<never> {
    return construct({
      success: false,
      error: "Operation was cancelled",
      errorCode: ToolErrorCode.Cancelled,
      message: message ?? "Operation was cancelled by user",
    });
  }

  /**
   * A denial of approval (`ToolErrorCode.Denied`). The reason becomes the message; the error
   * stays "Operation was denied by user", as in the spec.
   */
  static denied(reason?: string): ToolResult<never> {
    return construct({
      success: false,
      error: "Operation was denied by user",
      errorCode: ToolErrorCode.Denied,
      message: reason ?? "Operation was denied by user",
    });
  }

  /**
   * A parameter validation failure (`ToolErrorCode.ValidationFailed`), from a
   * `ToolValidationResult` (or anything with `errors: { parameterName?, message }[]`), one
   * message, or a list of messages. The error joins the messages with `"; "`; the data lists them
   * as `{ errors: [{ parameterName, message }] }` so the model can fix each field.
   */
  static validationFailed(validation: ValidationFailureSource): ToolResult<ValidationFailureData> {
    const data = validationFailureData(validation);
    const joined = data.errors.map((entry) => entry.message).join("; ");
    return construct({
      success: false,
      error: joined === "" ? "Parameter validation failed" : joined,
      errorCode: ToolErrorCode.ValidationFailed,
      message: "Parameter validation failed",
      data,
    });
  }

  /**
   * A timeout (`ToolErrorCode.Timeout`): error "Operation timed out after 30.0s", with the time
   * the operation ran as `durationMs`.
   *
   * @throws AinternError `INVALID_DURATION` for a negative, NaN or infinite duration.
   */
  static timeout(timeoutMs: number): ToolResult<never> {
    checkDurationMs(timeoutMs);
    return construct({
      success: false,
      error: `Operation timed out after ${(timeoutMs / 1000).toFixed(1)}s`,
      errorCode: ToolErrorCode.Timeout,
      durationMs: timeoutMs,
      message: "Operation timed out",
    });
  }

  /** A tool that is not available here (`ToolErrorCode.NotAvailable`), with the reason. */
  static notAvailable(reason: string): ToolResult<never> {
    return construct({
      success: false,
      error: reason,
      errorCode: ToolErrorCode.NotAvailable,
      message: reason,
    });
  }

  // ==========================================================================================
  // Copies
  // ==========================================================================================

  /**
   * A copy with another duration (the executor stamps the measured time this way).
   *
   * @throws AinternError `INVALID_DURATION` for a negative, NaN or infinite duration.
   */
  withDuration(durationMs: number): ToolResult<TData> {
    return construct({ ...this.#parts(), durationMs: checkDurationMs(durationMs) });
  }

  /** A copy with one metadata entry added or replaced. */
  withMetadata(key: string, value: unknown): ToolResult<TData> {
    const metadata = new Map(Object.entries(this.metadata ?? {}));
    metadata.set(key, value);
    return construct({ ...this.#parts(), metadata });
  }

  #parts(): ToolResultInit<TData> {
    return {
      success: this.success,
      data: this.data,
      message: this.message,
      error: this.error,
      errorCode: this.errorCode,
      exception: this.exception,
      artifacts: this.artifacts,
      durationMs: this.durationMs,
      suggestedFollowUps: this.suggestedFollowUps,
      shouldTruncate: this.shouldTruncate,
      maxDataLength: this.maxDataLength,
      textField: this.textField,
      metadata: this.metadata === undefined ? undefined : Object.entries(this.metadata),
    };
  }

  // ==========================================================================================
  // Formatting
  // ==========================================================================================

  /**
   * The data as compact JSON for the model, cut to `maxLength` characters (default the result's
   * `maxDataLength`, else 50000) with a note of how much was cut. `""` when there is no data.
   * Never throws on cyclic data, bigints or functions: see `safeJsonStringify` for the stand-ins.
   */
  getSerializedData(maxLength?: number): string {
    if (!this.hasData) return "";
    return truncateText(
      safeJsonStringify(this.data),
      maxLength ?? this.maxDataLength ?? defaultMaxDataLength,
    );
  }

  /**
   * The result as text for the model's conversation (spec 004 format):
   *
   * ```text
   * Result: Success            | Result: Failed
   * Message: <message>         | Error: <error>
   * Data: <serialized data>    | Error Code: <errorCode>
   * Artifacts:
   *   - file: src/app.ts
   *     Description: Created entry point
   * Suggested next steps:
   *   - Run 'npm test'
   * Duration: 1250ms
   * ```
   *
   * Lines without a value are left out; data is shown for successes only. Every text (data,
   * message, error, artifact paths and descriptions, suggestions) is cut to the same limit,
   * `maxDataLength`, with a note of how much was cut.
   *
   * When {@link ToolResult.textField} names a string field of the data, that text comes last, as
   * it is, under a heading of its own (`Content:` for `content`), and `Data:` holds the other
   * fields:
   *
   * ```text
   * Result: Success
   * Message: Read 'notes.md' (lines 1-2 of 2)
   * Data: {"path":"notes.md","startLine":1,"endLine":2,...}
   * Duration: 2ms
   * Content:
   * # Notes
   * Buy milk
   * ```
   */
  toLlmContext(options: ToLlmContextOptions = {}): string {
    // Every text here obeys the data's limit: a 50 MB error message is cut like 50 MB of data.
    const limit = options.maxDataLength ?? this.maxDataLength ?? defaultMaxDataLength;
    const cap = (text: string): string => truncateText(text, limit);
    const lines: string[] = [];
    let text: { heading: string; body: string; rest: Record<string, unknown> } | undefined;
    if (this.success) {
      lines.push("Result: Success", `Message: ${cap(this.message)}`);
      text = this.#text();
      const serialized =
        text === undefined
          ? this.getSerializedData(options.maxDataLength)
          : truncateText(safeJsonStringify(text.rest), limit);
      if (serialized !== "") lines.push(`Data: ${serialized}`);
    } else {
      lines.push("Result: Failed", `Error: ${cap(this.error ?? "")}`);
      if (this.errorCode !== undefined) lines.push(`Error Code: ${cap(this.errorCode)}`);
    }
    if (this.artifacts.length > 0) {
      lines.push("Artifacts:");
      for (const artifact of this.artifacts) {
        lines.push(`  - ${artifact.type}: ${cap(artifact.path)}`);
        if (artifact.description !== undefined) {
          lines.push(`    Description: ${cap(artifact.description)}`);
        }
      }
    }
    if (this.suggestedFollowUps !== undefined) {
      lines.push("Suggested next steps:");
      for (const suggestion of this.suggestedFollowUps) lines.push(`  - ${cap(suggestion)}`);
    }
    if (this.durationMs > 0) lines.push(`Duration: ${this.durationMs.toFixed(0)}ms`);
    const head = lines.join("\n").trimEnd();
    return text === undefined ? head : `${head}\n${text.heading}:\n${cap(text.body)}`;
  }

  /** The text field's heading and text, and the data without it; undefined when there is none. */
  #text(): { heading: string; body: string; rest: Record<string, unknown> } | undefined {
    const field = this.textField;
    const data: unknown = this.data;
    if (field === undefined || typeof data !== "object" || data === null || Array.isArray(data)) {
      return undefined;
    }
    const body: unknown = Object.getOwnPropertyDescriptor(data, field)?.value;
    if (typeof body !== "string") return undefined;
    const rest: Record<string, unknown> = {};
    for (const key of Object.keys(data)) {
      if (key !== field) rest[key] = (data as Record<string, unknown>)[key];
    }
    const heading = `${field.charAt(0).toUpperCase()}${field.slice(1)}`.replace(/[\r\n]/g, " ");
    return { heading, body, rest };
  }

  /** One line for logs: `"Success: <message>"` or `"Failed (<errorCode>): <error>"`. */
  toLogSummary(): string {
    return this.success
      ? `Success: ${this.message}`
      : `Failed (${this.errorCode ?? ""}): ${this.error ?? ""}`;
  }

  /** The JSON form: data and metadata made JSON-safe, artifacts as JSON, no exception. */
  toJSON(): ToolResultJson {
    const data = this.hasData ? toJsonSafe(this.data) : undefined;
    const metadata = this.metadata === undefined ? undefined : toJsonSafe(this.metadata);
    return {
      success: this.success,
      ...(data !== undefined && { data }),
      message: this.message,
      ...(this.error !== undefined && { error: this.error }),
      ...(this.errorCode !== undefined && { errorCode: this.errorCode }),
      artifacts: this.artifacts.map((artifact) => artifact.toJSON()),
      durationMs: this.durationMs,
      ...(this.suggestedFollowUps !== undefined && {
        suggestedFollowUps: this.suggestedFollowUps,
      }),
      shouldTruncate: this.shouldTruncate,
      ...(this.maxDataLength !== undefined && { maxDataLength: this.maxDataLength }),
      ...(this.textField !== undefined && { textField: this.textField }),
      ...(metadata !== undefined && { metadata: metadata as Readonly<Record<string, JsonValue>> }),
    };
  }
}
