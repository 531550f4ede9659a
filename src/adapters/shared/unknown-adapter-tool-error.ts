import { AinternError } from "../../core/index.js";

/** An adapter was asked to expose a tool the processor's registry does not hold. */
export class UnknownAdapterToolError extends AinternError {
  readonly toolId: string;
  readonly availableTools: readonly string[];

  constructor(toolId: string, availableTools: readonly string[]) {
    super(
      "UNKNOWN_ADAPTER_TOOL",
      `Tool '${toolId}' is not registered with the processor. Available: ${
        availableTools.length === 0 ? "(none)" : availableTools.join(", ")
      }`,
    );
    this.name = "UnknownAdapterToolError";
    this.toolId = toolId;
    this.availableTools = availableTools;
  }
}
