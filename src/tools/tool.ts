import type { ToolExecutionContext } from "../context/index.js";
import type { JsonObject } from "../core/json.js";
import type { RiskLevel } from "../core/risk-level.js";
import type { ToolCategory } from "../core/tool-category.js";
import type { ToolResult } from "../result/index.js";
import type { JsonSchema } from "../schema/index.js";
import type { ToolValidationResult } from "../validation/index.js";

/** Limits a tool declares for its own executions (Lexichord `ToolConstraints`). */
export interface ToolConstraints {
  /** The longest an execution may run; a per-call timeout may shorten it, never extend it. */
  readonly maxExecutionTimeMs?: number;
  /** The most bytes of output the tool may produce (enforced by isolating sandboxes). */
  readonly maxOutputBytes?: number;
  /** The most memory, in megabytes, an isolated execution may use. */
  readonly maxMemoryMb?: number;
}

/** Where a process-isolated child finds the same tool: a module and the name it exports. */
export interface ToolSource {
  /** An absolute path or `file:` URL of an ES module. */
  readonly module: string;
  /** The export that holds the tool (default `"default"`). */
  readonly exportName?: string;
}

/** How a tool is run: in the host process, or in a separate, killable process. */
export type ToolIsolation = "none" | "process";

/**
 * A tool an AI agent can invoke (spec 001 `ITool`, with the Lexichord definition members).
 *
 * Most code implements it through `defineTool(...)` or by extending `ToolBase`.
 */
export interface Tool {
  /** Unique, kebab-case identifier, e.g. `"file-read"`; looked up case-insensitively. */
  readonly id: string;
  /** Human-readable display name, e.g. `"Read File"`. */
  readonly name: string;
  /** What the tool does, written for the model. */
  readonly description: string;
  readonly category: ToolCategory;
  /** The risk before looking at parameters; {@link Tool.getEffectiveRiskLevel} may raise it. */
  readonly defaultRiskLevel: RiskLevel;
  /** JSON Schema of the parameters, used for validation and provider function definitions. */
  readonly inputSchema: JsonSchema;
  /** The JSON Schema of the tool's data, when the tool promises a shape (MCP `outputSchema`). */
  readonly outputSchema?: JsonSchema;
  /** False when the tool's dependencies are missing (e.g. no workspace is open). */
  readonly isAvailable: boolean;
  readonly tags: readonly string[];

  /** Permissions the caller must hold (checked by the executor's `Authorizer`). */
  readonly requiredPermissions: readonly string[];
  /** Whether every call needs a confirmation before it runs. */
  readonly requiresConfirmation: boolean;
  readonly constraints?: ToolConstraints;
  /** Process isolation, where the tool asks for it (`source` says where the child finds it). */
  readonly isolation?: ToolIsolation;
  readonly source?: ToolSource;

  /**
   * Runs the tool. Should honour `context.signal` (or `signal`) and stop when it aborts. The
   * in-process sandbox passes `signal` (always the same as `context.signal`) only to an
   * `execute` that declares a second parameter (`execute.length >= 2`): making a signal costs
   * Node.js 20 several microseconds, so it is made only when something reads it.
   */
  execute(context: ToolExecutionContext, signal?: AbortSignal): Promise<ToolResult>;
  /** Checks parameters before approval and execution. Never throws for bad input. */
  validate(parameters: unknown): ToolValidationResult;
  /** What this invocation will do, for an approval prompt: `"Read file 'src/app.ts'"`. */
  getExecutionSummary(parameters: JsonObject): string;
  /**
   * The risk of this invocation. Usually {@link Tool.defaultRiskLevel} or higher (the spec: "may
   * be higher based on parameters"); a tool that can tell from its parameters that a call is
   * harmless may go lower (terminal-execute rates `ls` Low although its default is Medium).
   * `defineTool` never goes below the default.
   */
  getEffectiveRiskLevel(parameters: JsonObject): RiskLevel;
}

/**
 * Whether `tool.execute` declares its `signal` parameter (`execute.length >= 2`). Sandboxes pass
 * the signal only to such tools: making a signal costs Node.js 20 several microseconds, and any
 * other tool reads `context.signal` (the same signal) if it needs one.
 */
export function takesSignal(tool: Pick<Tool, "execute">): boolean {
  return tool.execute.length >= 2;
}
