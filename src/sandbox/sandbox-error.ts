import { AinternError } from "../core/index.js";

/**
 * The codes of sandbox failures: the `code` of a {@link SandboxError} (a run that could not
 * happen, or a process that died) and the `errorCode` of the failed result of a tool that broke
 * one of the process sandbox's limits. Compare against these constants, never a bare string.
 */
export const SandboxErrorCode = {
  /** The tool has no `source`, so a child process cannot load it. */
  ToolSourceMissing: "TOOL_SOURCE_MISSING",
  /** The child could not load the tool from its `source` (bad module, export or id). */
  ToolSourceInvalid: "TOOL_SOURCE_INVALID",
  /** An isolation policy requires a child process for a tool that cannot have one. */
  IsolationRequired: "ISOLATION_REQUIRED",
  /** The child process exited (or was killed by a signal) before it returned a result. */
  ProcessExited: "SANDBOX_PROCESS_EXITED",
  /** A child process could not be started. */
  StartFailed: "SANDBOX_START_FAILED",
  /** A sandbox was constructed with an invalid option. */
  InvalidConfig: "INVALID_SANDBOX_CONFIG",
  /** The sandbox was closed. */
  Closed: "SANDBOX_CLOSED",
  /** The parameters (or other data sent to the child) are over the message limits. */
  RequestTooLarge: "SANDBOX_REQUEST_TOO_LARGE",
  /** Result code: the tool used more memory than `maxMemoryMb` allows. */
  OutOfMemory: "OutOfMemory",
  /** Result code: the tool wrote more than `maxOutputBytes` to stdout and stderr. */
  OutputLimitExceeded: "OutputLimitExceeded",
  /** Result code: the child sent a message over `maxMessageBytes` / `maxMessageDepth`, or garbage. */
  MessageLimitExceeded: "MessageLimitExceeded",
} as const;

/** One of the {@link SandboxErrorCode} values. */
export type SandboxErrorCode = (typeof SandboxErrorCode)[keyof typeof SandboxErrorCode];

/**
 * Why a sandboxed run could not produce a result: the tool cannot be isolated, its process
 * died, or the sandbox is closed. Sandboxes never throw it: it is the `error` of a
 * `{ kind: "threw" }` outcome, which the executor turns into a failed result with this `code`.
 */
export class SandboxError extends AinternError {
  /** The id of the tool concerned, when there is one. */
  readonly toolId: string | undefined;

  constructor(
    code: SandboxErrorCode,
    message: string,
    options: { toolId?: string; cause?: unknown } = {},
  ) {
    super(code, message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "SandboxError";
    this.toolId = options.toolId;
  }
}
