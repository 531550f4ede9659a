import type { ToolExecutionContext } from "../context/index.js";
import { ToolErrorCode } from "../core/index.js";
import { ToolResult } from "../result/index.js";
import { ToolBase } from "../tools/tool-base.js";
import { pathErrorResult, systemErrorCode } from "./workspace-paths.js";

/**
 * The base of the built-in tools: {@link ToolBase} plus the translation of what the workspace
 * path guard and the file system throw into results a model can act on (a path outside the
 * workspace becomes `PathOutsideWorkspace`, a missing file `PathNotFound`).
 *
 * @internal
 */
export abstract class BuiltinToolBase extends ToolBase {
  /**
   * The tool's work; path errors it throws become failed results with the matching code.
   * `signal` is the caller's, or undefined when the tool follows the context's own: read
   * `signal ?? context.signal` where a signal is needed, or {@link throwIfCancelled}, so that a
   * call that never needs one does not make one (an `AbortSignal` costs more than a small read).
   */
  protected abstract run(
    context: ToolExecutionContext,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult>;

  protected override executeCore(
    context: ToolExecutionContext,
    signal: AbortSignal,
  ): Promise<ToolResult> {
    return this.runCore(context, signal);
  }

  /** Runs {@link run} without making the context's signal, mapping what it throws. */
  protected override async runCore(
    context: ToolExecutionContext,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> {
    try {
      return await this.run(context, signal);
    } catch (error) {
      const mapped = pathErrorResult(error);
      if (mapped !== undefined) return mapped;
      const code = systemErrorCode(error);
      if (code === "ENOENT" || code === "ENOTDIR") {
        const message = error instanceof Error ? error.message : String(error);
        return ToolResult.failed(`Not found: ${message}`, ToolErrorCode.PathNotFound);
      }
      if (code === "ENAMETOOLONG") {
        // Said without the system's message: it names the descriptor path the tools open through.
        return ToolResult.failed(
          "A name in the path is too long: the file system takes at most 255 bytes per name (and 4,096 per path).",
          ToolErrorCode.ValidationFailed,
        );
      }
      throw error;
    }
  }
}

/**
 * Throws the cancellation's reason once the call is cancelled: `signal`'s when given, else the
 * context's, without making the context's signal until it is cancelled.
 */
export function throwIfCancelled(
  context: ToolExecutionContext,
  signal: AbortSignal | undefined,
): void {
  if (signal !== undefined) signal.throwIfAborted();
  else if (context.isCancellationRequested) context.signal.throwIfAborted();
}
