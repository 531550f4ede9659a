import type { ToolExecutionContext } from "../context/index.js";
import { type JsonObject, maxRiskLevel, RiskLevel, ToolCategory } from "../core/index.js";
import { ToolResult } from "../result/index.js";
import {
  type InferToolInput,
  isStandardSchema,
  type JsonSchema,
  type ToolInputSchema,
  toJsonSchema,
} from "../schema/index.js";
import { ToolValidationError, ToolValidationResult } from "../validation/index.js";
import type { ToolConstraints, ToolIsolation, ToolSource } from "./index.js";
import { ToolBase } from "./tool-base.js";

/** What {@link defineTool} takes. Only id, name, description, inputSchema and execute are required. */
export interface DefineToolConfig<S extends ToolInputSchema> {
  readonly id: string;
  readonly name: string;
  /** What the tool does, written for the model. */
  readonly description: string;
  /** Default `ToolCategory.Custom`. */
  readonly category?: ToolCategory;
  /** The default risk; default `RiskLevel.Low`, as for `ToolBase`. */
  readonly riskLevel?: RiskLevel;
  /** A zod schema, any Standard Schema with JSON Schema export, or a `JsonSchema`. */
  readonly inputSchema: S;
  /**
   * What the tool's data looks like, when it promises a shape (zod, Standard Schema or JSON
   * Schema): MCP clients get it as the tool's `outputSchema` and the data as `structuredContent`.
   */
  readonly outputSchema?: ToolInputSchema;
  readonly tags?: readonly string[];
  readonly requiredPermissions?: readonly string[];
  readonly requiresConfirmation?: boolean;
  readonly constraints?: ToolConstraints;
  readonly isolation?: ToolIsolation;
  readonly source?: ToolSource;
  /** Whether the tool can run now; a function is asked each time. Default true. */
  readonly isAvailable?: boolean | (() => boolean);
  /**
   * The tool's work. `input` is the parsed, typed parameters. Return a `ToolResult`, or any
   * other value to have it wrapped in `ToolResult.succeeded(value)`. Throwing gives a failed
   * result; honour `context.signal` to stop when cancelled or timed out.
   */
  execute(input: InferToolInput<S>, context: ToolExecutionContext): unknown;
  /** What one call will do, for approval prompts; default `"Execute <name>"`. */
  getExecutionSummary?(parameters: JsonObject): string;
  /** The risk of one call; results below `riskLevel` are raised to it. */
  getEffectiveRiskLevel?(parameters: JsonObject): RiskLevel;
}

/** A tool made by {@link defineTool}; `S` is kept so the input type stays known. */
export class DefinedTool<S extends ToolInputSchema = ToolInputSchema> extends ToolBase {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: ToolCategory;
  readonly inputSchema: JsonSchema;
  /** The JSON Schema of the tool's data, when `outputSchema` was given. */
  readonly outputSchema: JsonSchema | undefined;
  /** The schema the tool was defined with (zod, Standard Schema or JSON Schema). */
  readonly schema: S;
  readonly #config: DefineToolConfig<S>;

  constructor(config: DefineToolConfig<S>) {
    super();
    this.#config = config;
    this.id = config.id;
    this.name = config.name;
    this.description = config.description;
    this.category = config.category ?? ToolCategory.Custom;
    this.schema = config.inputSchema;
    this.inputSchema = toJsonSchema(config.inputSchema);
    this.outputSchema =
      config.outputSchema === undefined ? undefined : toJsonSchema(config.outputSchema);
  }

  override get defaultRiskLevel(): RiskLevel {
    return this.#config.riskLevel ?? RiskLevel.Low;
  }
  override get isAvailable(): boolean {
    const available = this.#config.isAvailable;
    return typeof available === "function" ? available() : (available ?? true);
  }
  override get tags(): readonly string[] {
    return this.#config.tags ?? [];
  }
  override get requiredPermissions(): readonly string[] {
    return this.#config.requiredPermissions ?? [];
  }
  override get requiresConfirmation(): boolean {
    return this.#config.requiresConfirmation ?? false;
  }
  override get constraints(): ToolConstraints | undefined {
    return this.#config.constraints;
  }
  override get isolation(): ToolIsolation | undefined {
    return this.#config.isolation;
  }
  override get source(): ToolSource | undefined {
    return this.#config.source;
  }

  override getExecutionSummary(parameters: JsonObject): string {
    return this.#config.getExecutionSummary?.(parameters) ?? super.getExecutionSummary(parameters);
  }

  override getEffectiveRiskLevel(parameters: JsonObject): RiskLevel {
    const risk = this.#config.getEffectiveRiskLevel?.(parameters);
    return risk === undefined ? this.defaultRiskLevel : maxRiskLevel(risk, this.defaultRiskLevel);
  }

  protected override runCore(
    context: ToolExecutionContext,
    signal: AbortSignal | undefined,
  ): Promise<ToolResult> {
    return signal === undefined ? this.#run(context) : this.executeCore(context, signal);
  }

  protected executeCore(context: ToolExecutionContext, signal: AbortSignal): Promise<ToolResult> {
    // `execute(context, signal)` may carry a signal the context lacks (an executor's timeout):
    // the tool only sees the context, so that signal goes into it.
    return this.#run(signal === context.signal ? context : context.with({ signal }));
  }

  async #run(toolContext: ToolExecutionContext): Promise<ToolResult> {
    let input: unknown = toolContext.effectiveParameters;
    const schema = this.schema;
    // A Standard Schema parses too: defaults, transforms and refinements JSON Schema cannot say.
    if (isStandardSchema(schema)) {
      const parsed = await schema["~standard"].validate(input);
      if (parsed.issues !== undefined) {
        const errors = parsed.issues.map((issue) =>
          ToolValidationError.invalidValue(issuePath(issue.path), issue.message),
        );
        return ToolResult.validationFailed(ToolValidationResult.invalid(...errors));
      }
      input = parsed.value;
    }
    const output = await this.#config.execute(input as InferToolInput<S>, toolContext);
    return output instanceof ToolResult ? output : ToolResult.succeeded(output);
  }
}

type IssuePath = readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;

function issuePath(path: IssuePath): string {
  if (path === undefined || path.length === 0) return "(root)";
  let out = "";
  for (const segment of path) {
    const key = typeof segment === "object" ? segment.key : segment;
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/**
 * Defines a tool from a config object: the functional form of `ToolBase`, with `execute`'s input
 * typed from the schema.
 *
 * @example
 * ```ts
 * const readFile = defineTool({
 *   id: "file-read",
 *   name: "Read File",
 *   description: "Reads a UTF-8 text file from the workspace.",
 *   category: ToolCategory.FileSystem,
 *   riskLevel: RiskLevel.Safe,
 *   inputSchema: z.object({ path: z.string().describe("Path relative to the workspace") }),
 *   async execute({ path }, context) {
 *     return readFile(context.resolvePath(path), "utf8"); // path: string
 *   },
 * });
 * ```
 */
export function defineTool<S extends ToolInputSchema>(config: DefineToolConfig<S>): DefinedTool<S> {
  return new DefinedTool(config);
}
