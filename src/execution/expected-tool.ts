import type { ToolExecutionContext } from "../context/index.js";
import type { Tool } from "../tools/index.js";

/**
 * The tool a caller judged and approved, for the execution it hands the executor: the executor
 * looks the tool up again by id, and an MCP upstream's relisting between the two (while the
 * call's record is saved, or the event loop turns) would run another definition under the
 * approval. With an expected tool, an execution that finds another one runs nothing.
 *
 * @internal
 */
const expected = new WeakMap<ToolExecutionContext, Tool>();

/** Says that the execution of `context` must run `tool` and no other. @internal */
export function expectTool(context: ToolExecutionContext, tool: Tool): void {
  expected.set(context, tool);
}

/** The tool the execution of `context` must run, if its caller said. @internal */
export function expectedTool(context: ToolExecutionContext | undefined): Tool | undefined {
  return context === undefined ? undefined : expected.get(context);
}
