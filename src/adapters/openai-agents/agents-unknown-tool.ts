import type { ToolErrorFormatter, ToolNotFoundBehavior } from "@openai/agents";
import { closestNames } from "../../core/index.js";

/**
 * Run options that answer a model's call to a tool name the agent does not have with aintern's
 * "not found, did you mean" message instead of ending the run: spread them into `run()`'s options
 * (`run(agent, input, { ...tools.runOptions })`). The SDK's default is to throw a
 * `ModelBehaviorError`; these return the message to the model as the call's output, and the run
 * goes on. Other tool errors keep the SDK's messages.
 */
export interface AgentsRunOptions {
  readonly toolNotFoundBehavior: ToolNotFoundBehavior;
  readonly toolErrorFormatter: ToolErrorFormatter;
}

/** Longest tool name quoted back to the model. */
const maxShownNameChars = 64;

/**
 * "Tool 'file_raed' not found. Did you mean 'file_read'? Available: file_read, file_write.",
 * with the names the SDK knows the tools by.
 */
export function agentsUnknownToolMessage(name: string, names: readonly string[]): string {
  // Edit distance is quadratic; a name this long is no typo of a tool name.
  const close = name.length <= 256 ? closestNames(name, names) : [];
  const hint =
    close.length === 0 ? "" : ` Did you mean ${close.map((n) => `'${n}'`).join(" or ")}?`;
  const shown = name.length <= maxShownNameChars ? name : `${name.slice(0, maxShownNameChars)}...`;
  const available =
    names.length === 0 ? "No tools are available." : `Available: ${names.join(", ")}.`;
  return `Tool '${shown}' not found.${hint} ${available}`;
}

/** The run options of {@link AgentsRunOptions} for the tools named `names`. */
export function agentsRunOptions(names: readonly string[]): AgentsRunOptions {
  return {
    toolNotFoundBehavior: "return_error_to_model",
    toolErrorFormatter: (args) =>
      args.kind === "tool_not_found" ? agentsUnknownToolMessage(args.toolName, names) : undefined,
  };
}
