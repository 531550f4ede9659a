import { AinternError } from "../core/index.js";

/** Registering a tool whose id is already taken (ids compare case-insensitively). */
export class DuplicateToolError extends AinternError {
  readonly toolId: string;
  constructor(toolId: string) {
    super(
      "DUPLICATE_TOOL",
      `Tool '${toolId}' is already registered. Unregister it first, or use updateTool() to replace it.`,
    );
    this.name = "DuplicateToolError";
    this.toolId = toolId;
  }
}

/** Registering a tool that cannot be advertised or validated: a bad id, name or schema. */
export class InvalidToolError extends AinternError {
  readonly toolId: string;
  readonly problem: string;
  constructor(toolId: string, problem: string) {
    super("INVALID_TOOL", `Tool '${toolId}' cannot be registered: ${problem}`);
    this.name = "InvalidToolError";
    this.toolId = toolId;
    this.problem = problem;
  }
}

/** Looking up a tool that is not registered, where the caller required it. */
export class ToolNotFoundError extends AinternError {
  readonly toolId: string;
  readonly availableTools: readonly string[];
  constructor(toolId: string, availableTools: readonly string[], suggestion?: string) {
    const hint = suggestion === undefined ? "" : ` Did you mean '${suggestion}'?`;
    const list = availableTools.length === 0 ? "none" : availableTools.join(", ");
    super("TOOL_NOT_FOUND", `Tool '${toolId}' not found.${hint} Available: ${list}`);
    this.name = "ToolNotFoundError";
    this.toolId = toolId;
    this.availableTools = availableTools;
  }
}
