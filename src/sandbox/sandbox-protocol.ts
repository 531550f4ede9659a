import type { ToolProgressInit } from "../context/index.js";
import { AinternError, isJsonObject, type JsonObject } from "../core/index.js";
import type { ToolResultJson } from "../result/index.js";

// The messages between the host and a process-isolated worker. Internal to the folder: both
// ends are this package, and the host checks everything a worker sends (a tool may write to the
// channel itself).

/**
 * The part of a ToolExecutionContext that crosses the process boundary. Members that are
 * `undefined` are left out of the JSON.
 */
export interface ContextData {
  readonly executionId: string;
  readonly sessionId: string;
  /** Only when it is not the tool's own id. */
  readonly toolId?: string;
  readonly toolCallId?: string;
  readonly workspacePath?: string;
  readonly parameters: JsonObject;
  readonly modifiedParameters?: JsonObject;
  readonly isApproved: boolean;
  readonly approval?: {
    readonly approvedBy?: string;
    readonly reason?: string;
    /** Epoch milliseconds. */
    readonly decidedAt?: number;
    readonly automatic?: boolean;
  };
  /** The context's metadata made JSON-safe; only when it has any. */
  readonly metadata?: JsonObject;
  /** Epoch milliseconds. */
  readonly startedAt: number;
}

/** Where a worker loads a tool from. */
export interface ToolSourceData {
  /** A `file:` URL. */
  readonly module: string;
  readonly exportName: string;
  /** The id the export must have. */
  readonly toolId: string;
}

/** Host to worker: run one tool. */
export interface RunRequest {
  readonly type: "run";
  readonly id: number;
  /** The host's number for the tool: the worker keeps the tool it loaded under it. */
  readonly tool: number;
  /** Sent until the worker has loaded the tool (then the number alone names it). */
  readonly load?: ToolSourceData;
  /** Whether the host listens to progress (the worker sends none otherwise). */
  readonly progress: boolean;
  readonly context: ContextData;
  /**
   * The worker's run-end marker salt, in its first request only (not on its command line, where
   * any tool would find it in `process.argv`). Code in the worker can still learn it: a forged
   * marker only ends the capture of that run's output early, and the host keeps counting what
   * follows against `maxOutputBytes`.
   */
  readonly salt?: string;
}

/**
 * Written to stdout and stderr after a run (to each the run wrote to), so the host knows where
 * the run's output ends. `salt` is the worker's, sent with its first request.
 */
export function runEndMarker(salt: string, id: number): string {
  return `\n\u0000aintern-run-end:${salt}:${id}\u0000\n`;
}

/** An error as it crosses the boundary. */
export interface ErrorData {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
  /** The `code` of an `AinternError`. */
  readonly code?: string;
}

/** Which of stdout / stderr the worker wrote its end marker to. */
export type MarkersWritten = readonly [stdout: boolean, stderr: boolean];

/** Worker to host: the worker has loaded and waits for runs. */
export interface ReadyMessage {
  readonly type: "ready";
}

/** Worker to host: a progress report of the current run. */
export interface ProgressMessage {
  readonly type: "progress";
  readonly id: number;
  readonly progress: ToolProgressInit;
}

/** Worker to host: the tool returned. */
export interface ResultMessage {
  readonly type: "result";
  readonly id: number;
  readonly result: ToolResultJson;
  /** The result's exception, which its JSON form leaves out. */
  readonly exception?: ErrorData;
  /** The result reports an allocation failure: the worker is not reused. */
  readonly outOfMemory?: boolean;
  readonly markers: MarkersWritten;
}

/** Worker to host: the tool threw, or could not be loaded (`phase: "load"`). */
export interface ThrewMessage {
  readonly type: "threw";
  readonly id: number;
  readonly phase: "load" | "execute";
  readonly error: ErrorData;
  readonly outOfMemory?: boolean;
  readonly markers: MarkersWritten;
}

/** Anything a worker sends. */
export type WorkerMessage = ReadyMessage | ProgressMessage | ResultMessage | ThrewMessage;

/** The error data of anything thrown. */
export function toErrorData(error: unknown): ErrorData {
  if (typeof error === "object" && error !== null) {
    const { name, message, stack } = error as {
      name?: unknown;
      message?: unknown;
      stack?: unknown;
    };
    return {
      name: typeof name === "string" ? name : "Error",
      message: typeof message === "string" ? message : String(error),
      ...(typeof stack === "string" && { stack }),
      ...(AinternError.isInstance(error) && { code: error.code }),
    };
  }
  return { name: "Error", message: String(error) };
}

/** A tool error thrown in a worker, rebuilt in the host with its name, message, stack and code. */
export class RemoteToolError extends AinternError {
  constructor(data: ErrorData) {
    super(data.code ?? "", data.message);
    this.name = data.name;
    if (data.stack !== undefined) this.stack = data.stack;
  }
}

/** An `Error` (or, with a code, an `AinternError`) standing for a worker's error. */
export function fromErrorData(data: ErrorData): Error {
  if (data.code !== undefined) return new RemoteToolError(data);
  const error = new Error(data.message);
  error.name = data.name;
  if (data.stack !== undefined) error.stack = data.stack;
  return error;
}

const oomPattern = /Array buffer allocation failed|out of memory|Invalid array buffer length/i;

/** True for an error message that says an allocation failed. */
export function isOutOfMemoryMessage(message: string | undefined): boolean {
  return message !== undefined && oomPattern.test(message);
}

function isString(value: unknown): value is string {
  return typeof value === "string";
}

function isErrorData(value: unknown): value is ErrorData {
  if (typeof value !== "object" || value === null) return false;
  const data = value as Record<string, unknown>;
  return (
    isString(data.name) &&
    isString(data.message) &&
    (data.stack === undefined || isString(data.stack)) &&
    (data.code === undefined || isString(data.code))
  );
}

function isMarkers(value: unknown): value is MarkersWritten {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === "boolean" &&
    typeof value[1] === "boolean"
  );
}

/**
 * Checks the shape of what a worker sent (the contents of a result are checked when it is
 * rebuilt). Returns undefined for anything that is not a well-formed worker message.
 */
export function parseWorkerMessage(value: unknown): WorkerMessage | undefined {
  if (!isJsonObject(value)) return undefined;
  switch (value.type) {
    case "ready":
      return { type: "ready" };
    case "progress":
      return typeof value.id === "number" && isJsonObject(value.progress)
        ? (value as unknown as ProgressMessage)
        : undefined;
    case "result":
      return typeof value.id === "number" &&
        isJsonObject(value.result) &&
        isMarkers(value.markers) &&
        (value.exception === undefined || isErrorData(value.exception))
        ? (value as unknown as ResultMessage)
        : undefined;
    case "threw":
      return typeof value.id === "number" &&
        (value.phase === "load" || value.phase === "execute") &&
        isErrorData(value.error) &&
        isMarkers(value.markers)
        ? (value as unknown as ThrewMessage)
        : undefined;
    default:
      return undefined;
  }
}
