import type { ToolExecutionContext } from "../context/index.js";
import type { Cancellation, JsonObject } from "../core/index.js";
import type { ToolResult } from "../result/index.js";
import type { Tool } from "../tools/index.js";

/** Per-run settings the executor hands a sandbox. */
export interface SandboxRunOptions {
  /**
   * Aborts when the execution times out or is cancelled. The executor decides which of the two
   * it was; the sandbox only has to stop (or stop waiting) at once.
   */
  readonly signal: AbortSignal;
  /** The effective timeout, for sandboxes that enforce it themselves too. */
  readonly timeoutMs: number;
  /**
   * The execution's {@link Cancellation}, when the executor gives one: `signal` follows it, and a
   * sandbox may wait on it instead, which leaves the signal unmade until the tool reads it.
   */
  readonly cancellation?: Cancellation;
  /**
   * Stops the execution's timeout clock while the sandbox waits for something the tool needs
   * before it can start (a pooled worker process to start); the returned function starts the
   * clock again, with the whole timeout, when the tool starts. The wait does not count against
   * the tool's timeout, as the executor's wait for a concurrency slot does not. Cancellation
   * still ends the wait at once. Absent when the executor does not offer it.
   */
  readonly holdTimeout?: () => () => void;
}

/** How a sandboxed run ended. */
export type SandboxOutcome =
  /** The tool returned a result. */
  | { readonly kind: "completed"; readonly result: ToolResult }
  /** The tool threw (or its process failed); `error` says why. */
  | { readonly kind: "threw"; readonly error: unknown }
  /**
   * The signal aborted before the tool finished. `mayStillBeRunning` is true when the sandbox
   * could not stop the work (an in-process tool that ignores its signal), false when it is
   * known to have stopped (the tool settled, or its process was killed).
   */
  | { readonly kind: "aborted"; readonly mayStillBeRunning: boolean };

/**
 * Where the executor runs a tool (Lexichord `IToolSandbox`). The in-process sandbox is the
 * default for trusted tools; a process-isolating sandbox can kill a tool that will not stop.
 */
export interface ToolSandbox {
  /** A short name for logs and audit rows, e.g. `"in-process"`. */
  readonly name: string;
  /** Runs `tool` with `context`; resolves promptly once `options.signal` aborts. Never rejects. */
  run(
    tool: Tool,
    context: ToolExecutionContext,
    options: SandboxRunOptions,
  ): Promise<SandboxOutcome>;
  /**
   * The name of the sandbox that will run this call, for audit rows, when the sandbox routes
   * calls to others (a `RoutingSandbox` answers `in-process` or `process`); default {@link name}.
   */
  sandboxFor?(tool: Tool, parameters: JsonObject): string;
  /** Releases what the sandbox holds (processes, pools). */
  close?(): Promise<void>;
}

/** Whether the run was stopped (its cancellation aborted, or its signal when it has none). */
export function runAborted(options: SandboxRunOptions): boolean {
  const { cancellation } = options;
  return cancellation === undefined ? options.signal.aborted : cancellation.aborted;
}

/**
 * Calls `listener` once when the run is stopped: through the executor's {@link Cancellation}
 * when there is one (which leaves its signal unmade), else through the signal. Returns a
 * function that stops listening.
 */
export function onRunAborted(options: SandboxRunOptions, listener: () => void): () => void {
  const { cancellation } = options;
  if (cancellation !== undefined) return cancellation.onAbort(listener);
  const signal = options.signal;
  signal.addEventListener("abort", listener, { once: true });
  return () => signal.removeEventListener("abort", listener);
}
