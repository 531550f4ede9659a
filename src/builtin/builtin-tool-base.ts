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
  /** The tool's work; path errors it throws become failed results with the matching code. */
  protected abstract run(context: ToolExecutionContext, signal: AbortSignal): Promise<ToolResult>;

  protected override async executeCore(
    context: ToolExecutionContext,
    signal: AbortSignal,
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
      throw error;
    }
  }
}
