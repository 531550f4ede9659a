import { Cancellation, type JsonObject, type JsonValue } from "../core/index.js";
import { freezeJsonObject } from "./freeze-json.js";
import { NoWorkspaceError } from "./no-workspace-error.js";
import { readOptional, readParameter, readRequired } from "./read-parameter.js";
import type { ServiceProvider } from "./service-provider.js";
import type { ServiceToken } from "./service-token.js";
import { ToolProgress } from "./tool-progress.js";
import {
  getWorkspaceRelativePath,
  isPathInWorkspace,
  resolveWorkspacePath,
  tryResolveWorkspacePath,
} from "./workspace-path.js";

/** Receives progress updates from a running tool (the C# `IProgress<ToolProgress>`). */
export type ToolProgressCallback = (progress: ToolProgress) => void;

/**
 * How an execution was approved, beyond the yes / no of `isApproved`. Plain data, filled in by
 * whoever decided (a person in the approval dialog, or a policy for low-risk calls).
 */
export interface ToolApprovalDetails {
  /** Who approved: a user name, or a policy's name for automatic approvals. */
  readonly approvedBy?: string;
  /** Why, as the decider gave it. */
  readonly reason?: string;
  /** When the decision was made. */
  readonly decidedAt?: Date;
  /** True when a policy approved it without asking anyone (e.g. a Safe tool). */
  readonly automatic?: boolean;
  /**
   * Who decided, for the audit row: `policy`, `remembered`, `person` or `host` (set by the
   * processor; see the audit's decision columns).
   */
  readonly decidedBy?: string;
  /** `once`, `session`, `tool` or `pattern`. */
  readonly scope?: string;
  /** The remembered grant that allowed the call, or the one the approval created. */
  readonly grantId?: string;
  /** SHA-256 of the arguments the model sent. */
  readonly argumentsHash?: string;
  /** SHA-256 of the edited arguments, when a person edited them. */
  readonly editedArgumentsHash?: string;
}

/** The all-zero UUID: the session id of a context built without one (C# `Guid.Empty`). */
export const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/** What a {@link ToolExecutionContext} is built from. Only `services` is required. */
export interface ToolExecutionContextInit {
  /** Application services the tool may use. */
  readonly services: ServiceProvider;
  /** Unique per execution (default: a new random UUID). */
  readonly executionId?: string;
  /** The conversation / agent session (default {@link NIL_UUID}). */
  readonly sessionId?: string;
  /** Id of the tool being executed (default `""`). */
  readonly toolId?: string;
  /** Id of the tool call request this execution answers, when there is one. */
  readonly toolCallId?: string;
  /** Workspace root; absent or `""` means no workspace is open. */
  readonly workspacePath?: string;
  /** The parameters as the model sent them (default `{}`); copied and frozen. */
  readonly parameters?: JsonObject;
  /** The parameters as a person edited them during approval; copied and frozen. */
  readonly modifiedParameters?: JsonObject;
  /**
   * Aborts when the execution is cancelled or times out (default: a signal that never aborts).
   * Give this or `cancellation`; when both are given, `signal` is used.
   */
  readonly signal?: AbortSignal;
  /**
   * The execution's {@link Cancellation}, whose signal is made only when the tool reads
   * `context.signal` (what the executor gives). Ignored when `signal` is given.
   */
  readonly cancellation?: Cancellation;
  /** Receives progress updates. */
  readonly progress?: ToolProgressCallback;
  /** Whether the execution was approved, by a person or automatically (default false). */
  readonly isApproved?: boolean;
  /** Who approved, why and when. */
  readonly approval?: ToolApprovalDetails;
  /** Custom data: request id, correlation id, feature flags. Copied and frozen. */
  readonly metadata?: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown>;
  /** When the execution started (default: now). */
  readonly startedAt?: Date;
  /** The clock, in epoch milliseconds, for `elapsedMs` and the default `startedAt` (default `Date.now`). */
  readonly now?: () => number;
}

/** The metadata of contexts built without any: one frozen, null-prototype object for all. */
const noMetadata: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null));

function freezeMetadata(
  metadata: Readonly<Record<string, unknown>> | ReadonlyMap<string, unknown> | undefined,
): Readonly<Record<string, unknown>> {
  if (metadata === undefined || metadata === noMetadata) return noMetadata;
  const entries = metadata instanceof Map ? [...metadata.entries()] : Object.entries(metadata);
  if (entries.length === 0) return noMetadata;
  // A null prototype: a lookup by a model-supplied key never reaches Object.prototype.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of entries) {
    Object.defineProperty(out, key, { value, enumerable: true });
  }
  return Object.freeze(out);
}

/**
 * Everything a tool gets while it runs (spec 000 `ToolExecutionContext`): ids, the workspace
 * and its path guard, the parameters (with a person's edits), services, the abort signal,
 * progress reporting, approval and metadata. Immutable: {@link ToolExecutionContext.with}
 * returns a changed copy.
 *
 * Build one with {@link ToolExecutionContextBuilder}, or directly:
 *
 * @example
 * ```ts
 * const context = new ToolExecutionContext({
 *   services: new ServiceContainer(),
 *   toolId: "file-read",
 *   workspacePath: "/srv/proj",
 *   parameters: { path: "src/app.ts" },
 * });
 * const file = context.resolvePath(context.getRequiredString("path")); // inside /srv/proj, or throws
 * ```
 */
export class ToolExecutionContext {
  /** Unique per execution; used for logs, audit rows and correlating events. */
  readonly executionId: string;
  /** The conversation / agent session; several executions share it. */
  readonly sessionId: string;
  /** Id of the tool being executed. */
  readonly toolId: string;
  /** Id of the tool call request this execution answers, when there is one. */
  readonly toolCallId: string | undefined;
  /** Workspace root as given; see {@link ToolExecutionContext.hasWorkspace}. */
  readonly workspacePath: string | undefined;
  /** The parameters as the model sent them. Use {@link ToolExecutionContext.effectiveParameters}. */
  readonly parameters: JsonObject;
  /** The parameters a person edited during approval, when they did. */
  readonly modifiedParameters: JsonObject | undefined;
  /** Application services. */
  readonly services: ServiceProvider;
  /** Receives progress updates, when anyone listens; prefer the `report...` helpers. */
  readonly progress: ToolProgressCallback | undefined;
  /** True when approved by a person, or automatically for low-risk calls. */
  readonly isApproved: boolean;
  /** Who approved, why and when, when known. */
  readonly approval: ToolApprovalDetails | undefined;
  /** Custom data, frozen, with a null prototype (empty when none was given). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** When the execution started. */
  readonly startedAt: Date;
  readonly #now: () => number;
  /** The signal given at construction, if any. */
  readonly #signal: AbortSignal | undefined;
  /** Where the signal comes from when none was given (made on first need). */
  #cancellation: Cancellation | undefined;

  constructor(init: ToolExecutionContextInit) {
    this.#now = init.now ?? Date.now;
    this.executionId = init.executionId ?? crypto.randomUUID();
    this.sessionId = init.sessionId ?? NIL_UUID;
    this.toolId = init.toolId ?? "";
    this.toolCallId = init.toolCallId;
    this.workspacePath = init.workspacePath;
    this.parameters = freezeJsonObject(init.parameters ?? {}, "parameters");
    this.modifiedParameters =
      init.modifiedParameters === undefined
        ? undefined
        : freezeJsonObject(init.modifiedParameters, "modified parameters");
    this.services = init.services;
    this.#signal = init.signal;
    this.#cancellation = init.signal === undefined ? init.cancellation : undefined;
    this.progress = init.progress;
    this.isApproved = init.isApproved ?? false;
    this.approval = init.approval === undefined ? undefined : Object.freeze({ ...init.approval });
    this.metadata = freezeMetadata(init.metadata);
    this.startedAt = new Date(init.startedAt?.getTime() ?? this.#now());
    Object.freeze(this);
  }

  // ---------------------------------------------------------------- computed

  /** The parameters to use: a person's edits when present, else the model's. */
  get effectiveParameters(): JsonObject {
    return this.modifiedParameters ?? this.parameters;
  }

  /** True when a workspace is open (a non-empty workspace path). */
  get hasWorkspace(): boolean {
    return this.workspacePath !== undefined && this.workspacePath !== "";
  }

  /** True when a person edited the parameters during approval. */
  get hasModifiedParameters(): boolean {
    return this.modifiedParameters !== undefined;
  }

  /** Milliseconds since {@link ToolExecutionContext.startedAt}, by the context's clock. */
  get elapsedMs(): number {
    return this.#now() - this.startedAt.getTime();
  }

  /** Aborts on cancellation or timeout; long-running tools should check it and stop promptly. */
  get signal(): AbortSignal {
    return this.#signal ?? this.#ownCancellation().signal;
  }

  /** True once the execution is cancelled or timed out (`signal.aborted`, without making it). */
  get isCancellationRequested(): boolean {
    return this.#signal?.aborted ?? this.#cancellation?.aborted ?? false;
  }

  /**
   * Runs `listener` once when the execution is cancelled or times out (not when it already is:
   * check {@link ToolExecutionContext.isCancellationRequested} first). Returns a function that
   * removes it. Cheaper than listening on `signal` when nothing else reads the signal.
   */
  onCancellationRequested(listener: () => void): () => void {
    const signal = this.#signal;
    if (signal === undefined) return this.#ownCancellation().onAbort(listener);
    if (signal.aborted) return () => {};
    signal.addEventListener("abort", listener, { once: true });
    return () => signal.removeEventListener("abort", listener);
  }

  #ownCancellation(): Cancellation {
    this.#cancellation ??= new Cancellation();
    return this.#cancellation;
  }

  /**
   * A copy with some members changed (e.g. a merged abort signal, or edited parameters). Giving
   * `signal` or `cancellation` replaces whichever of the two this context had.
   */
  with(changes: Partial<ToolExecutionContextInit>): ToolExecutionContext {
    const init = { ...this.toInit(), ...changes };
    if (Object.hasOwn(changes, "cancellation") && !Object.hasOwn(changes, "signal")) {
      return new ToolExecutionContext({ ...init, signal: undefined });
    }
    return new ToolExecutionContext(init);
  }

  /** The members this context was built from (computed members excluded). */
  toInit(): ToolExecutionContextInit {
    return {
      services: this.services,
      executionId: this.executionId,
      sessionId: this.sessionId,
      toolId: this.toolId,
      toolCallId: this.toolCallId,
      workspacePath: this.workspacePath,
      parameters: this.parameters,
      modifiedParameters: this.modifiedParameters,
      signal: this.#signal,
      // Copies share the cancellation (and so the signal) even when it is made only now.
      cancellation: this.#signal === undefined ? this.#ownCancellation() : undefined,
      progress: this.progress,
      isApproved: this.isApproved,
      approval: this.approval,
      metadata: this.metadata,
      startedAt: this.startedAt,
      now: this.#now,
    };
  }

  // ---------------------------------------------------------------- services

  /** The service registered for `token`, or `undefined`. */
  getService<T>(token: ServiceToken<T>): T | undefined {
    return this.services.getService(token);
  }

  /**
   * The service registered for `token`.
   *
   * @throws {ServiceNotRegisteredError} nothing is registered for the token.
   */
  getRequiredService<T>(token: ServiceToken<T>): T {
    return this.services.getRequiredService(token);
  }

  // ---------------------------------------------------------------- progress

  /**
   * Reports progress when someone listens; does nothing otherwise. A listener that throws never
   * fails the tool: its error is dropped.
   *
   * - `reportProgress(progress)`: a ready-made {@link ToolProgress}.
   * - `reportProgress(message, percentComplete?)`: a message, with a percentage (0..100) if known.
   * - `reportProgress(message, itemsProcessed, totalItems)`: item counts; the percentage is computed.
   */
  reportProgress(progress: ToolProgress): void;
  reportProgress(message: string, percentComplete?: number): void;
  reportProgress(message: string, itemsProcessed: number, totalItems: number): void;
  reportProgress(first: ToolProgress | string, second?: number, third?: number): void {
    if (this.progress === undefined) return;
    if (first instanceof ToolProgress) {
      this.#emit(first);
    } else if (third !== undefined && second !== undefined) {
      this.#emit(ToolProgress.items(first, second, third));
    } else {
      this.#emit(
        new ToolProgress({
          message: first,
          ...(second !== undefined && { percentComplete: second }),
        }),
      );
    }
  }

  /** Reports progress naming the current sub-operation; does nothing when no one listens. */
  reportOperation(message: string, currentOperation: string): void {
    if (this.progress === undefined) return;
    this.#emit(new ToolProgress({ message, currentOperation }));
  }

  #emit(progress: ToolProgress): void {
    try {
      this.progress?.(progress);
    } catch {
      // A broken progress display must not fail the work it displays.
    }
  }

  // ---------------------------------------------------------------- paths

  /**
   * Resolves a path inside the workspace: relative paths against the root, symlinks followed,
   * and the result always inside the workspace (see `resolveWorkspacePath`). An absolute path
   * inside the workspace comes back as it is (symlinks resolved).
   *
   * @throws {NoWorkspaceError} no workspace is open.
   * @throws {PathOutsideWorkspaceError} the path leads outside the workspace.
   * @throws {InvalidPathError} the path is empty, holds a NUL byte or cannot be resolved.
   */
  resolvePath(path: string): string {
    if (!this.hasWorkspace) throw new NoWorkspaceError(String(path));
    return resolveWorkspacePath(this.workspacePath as string, path);
  }

  /** Like {@link ToolExecutionContext.resolvePath}, but `undefined` instead of throwing. */
  tryResolvePath(path: string): string | undefined {
    if (!this.hasWorkspace) return undefined;
    return tryResolveWorkspacePath(this.workspacePath as string, path);
  }

  /** True when `path` resolves inside the workspace; false without a workspace. */
  isPathInWorkspace(path: string): boolean {
    if (!this.hasWorkspace) return false;
    return isPathInWorkspace(this.workspacePath as string, path);
  }

  /**
   * `path` relative to the workspace root (platform separator; `"."` for the root), for display.
   * Returns `path` unchanged when there is no workspace or it lies outside.
   */
  getRelativePath(path: string): string {
    if (!this.hasWorkspace || !isPathInWorkspace(this.workspacePath as string, path)) return path;
    return getWorkspaceRelativePath(this.workspacePath as string, path);
  }

  // ---------------------------------------------------------------- parameters

  /**
   * A required string parameter (from {@link ToolExecutionContext.effectiveParameters}).
   *
   * @throws {ToolParameterError} missing (`MISSING_PARAMETER`) or not a string
   *   (`INVALID_PARAMETER_TYPE`); the message names the parameter and the expected type.
   */
  getRequiredString(name: string): string {
    return readRequired(this.effectiveParameters, name, "string");
  }

  /**
   * An optional string parameter: `defaultValue` when absent or null.
   *
   * @throws {ToolParameterError} present but not a string.
   */
  getOptionalString(name: string): string | undefined;
  getOptionalString(name: string, defaultValue: string): string;
  getOptionalString(name: string, defaultValue?: string): string | undefined {
    return readOptional(this.effectiveParameters, name, "string") ?? defaultValue;
  }

  /**
   * A required integer parameter.
   *
   * @throws {ToolParameterError} missing, or not a (safe) integer.
   */
  getRequiredInt(name: string): number {
    return readRequired(this.effectiveParameters, name, "integer");
  }

  /**
   * An optional integer parameter: `defaultValue` (0) when absent or null.
   *
   * @throws {ToolParameterError} present but not an integer.
   */
  getOptionalInt(name: string, defaultValue = 0): number {
    return readOptional(this.effectiveParameters, name, "integer") ?? defaultValue;
  }

  /**
   * A required number parameter (any finite number).
   *
   * @throws {ToolParameterError} missing, or not a number.
   */
  getRequiredNumber(name: string): number {
    return readRequired(this.effectiveParameters, name, "number");
  }

  /**
   * An optional number parameter: `defaultValue` (0) when absent or null.
   *
   * @throws {ToolParameterError} present but not a number.
   */
  getOptionalNumber(name: string, defaultValue = 0): number {
    return readOptional(this.effectiveParameters, name, "number") ?? defaultValue;
  }

  /**
   * A required boolean parameter.
   *
   * @throws {ToolParameterError} missing, or not a boolean (`"true"` is a string, not a boolean).
   */
  getRequiredBool(name: string): boolean {
    return readRequired(this.effectiveParameters, name, "boolean");
  }

  /**
   * An optional boolean parameter: `defaultValue` (false) when absent or null.
   *
   * @throws {ToolParameterError} present but not a boolean.
   */
  getOptionalBool(name: string, defaultValue = false): boolean {
    return readOptional(this.effectiveParameters, name, "boolean") ?? defaultValue;
  }

  /**
   * A required array-of-strings parameter.
   *
   * @throws {ToolParameterError} missing, or not an array of strings.
   */
  getRequiredStringArray(name: string): readonly string[] {
    return readRequired(this.effectiveParameters, name, "string array");
  }

  /**
   * An optional array-of-strings parameter: `defaultValue` (`[]`) when absent or null.
   *
   * @throws {ToolParameterError} present but not an array of strings.
   */
  getOptionalStringArray(name: string, defaultValue: readonly string[] = []): readonly string[] {
    return readOptional(this.effectiveParameters, name, "string array") ?? defaultValue;
  }

  /**
   * A parameter's raw JSON value, typed as `T` without checking (`undefined` when absent). Check
   * it yourself, or validate the parameters with the tool's schema first.
   */
  getParameter<T extends JsonValue = JsonValue>(name: string): T | undefined {
    return readParameter(this.effectiveParameters, name) as T | undefined;
  }

  /** True when the effective parameters have an own property `name` (null counts). */
  hasParameter(name: string): boolean {
    return Object.hasOwn(this.effectiveParameters, name);
  }

  // ---------------------------------------------------------------- metadata

  /**
   * A metadata value, or `undefined` when absent. With a type guard, also `undefined` when the
   * value fails it (the C# `value is T` check); without one, the type is not checked.
   */
  getMetadata<T = unknown>(key: string, guard?: (value: unknown) => value is T): T | undefined {
    if (!Object.hasOwn(this.metadata, key)) return undefined;
    const value = this.metadata[key];
    if (guard !== undefined && !guard(value)) return undefined;
    return value as T;
  }

  /** True when the metadata has `key`. */
  hasMetadata(key: string): boolean {
    return Object.hasOwn(this.metadata, key);
  }
}
