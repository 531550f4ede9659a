import { closestNames, type RiskLevel, ToolCategory, TypedEventEmitter } from "../core/index.js";
import { FunctionDefinition } from "../schema/index.js";
import { type Logger, silentLogger } from "../telemetry/index.js";
import type { Tool } from "../tools/index.js";
import { ToolValidator } from "../validation/index.js";
import type { ToolAvailabilityContext } from "./tool-availability-context.js";
import { DuplicateToolError, InvalidToolError, ToolNotFoundError } from "./tool-registry-errors.js";

/** What happened to a tool in a {@link ToolRegistryChangedEvent}. */
export const ToolRegistryChangeType = {
  Added: "Added",
  Removed: "Removed",
  Updated: "Updated",
} as const;
export type ToolRegistryChangeType =
  (typeof ToolRegistryChangeType)[keyof typeof ToolRegistryChangeType];

/** The payload of the registry's `toolsChanged` event (spec `ToolRegistryChangedEventArgs`). */
export interface ToolRegistryChangedEvent {
  readonly changeType: ToolRegistryChangeType;
  readonly tool: Tool;
  readonly timestamp: Date;
}

/** The registry's events. */
export interface ToolRegistryEvents {
  toolsChanged: ToolRegistryChangedEvent;
}

/** Construction options of a {@link ToolRegistry}. */
export interface ToolRegistryConfig {
  /** Tools to register at once (each checked as by {@link ToolRegistry.registerTool}). */
  readonly tools?: Iterable<Tool>;
  readonly logger?: Logger;
}

/**
 * Ids become provider function names, so they must fit OpenAI's and Anthropic's name rule
 * (`^[a-zA-Z0-9_-]{1,64}$`); a leading '-' is refused too, as it reads like a command-line flag.
 */
const toolIdPattern = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

/**
 * The single source of truth for the tools an agent has (spec 001 g, h): registration with
 * up-front checks, case-insensitive lookup, filtering, search, and cached provider function
 * definitions.
 *
 * @example
 * ```ts
 * const registry = new ToolRegistry({ tools: [readFile, search] });
 * registry.onToolsChanged((e) => console.log(e.changeType, e.tool.id));
 * const definitions = registry.getFunctionDefinitions({ maxRiskLevel: RiskLevel.Low });
 * ```
 */
export class ToolRegistry {
  /** Keyed by lower-cased id; insertion order is registration order. */
  readonly #tools = new Map<string, Tool>();
  readonly #definitions = new Map<string, FunctionDefinition>();
  /** The shared validator, so a schema compiled at registration is reused by `ToolBase.validate`. */
  readonly #validator = ToolValidator.shared;
  readonly #logger: Logger;
  #toolsSnapshot: readonly Tool[] | undefined;
  #lastDefinitions:
    | { tools: readonly Tool[]; definitions: readonly FunctionDefinition[] }
    | undefined;

  /** Emits `toolsChanged` when a tool is added, removed or updated. */
  readonly events = new TypedEventEmitter<ToolRegistryEvents>();

  constructor(config: ToolRegistryConfig = {}) {
    this.#logger = config.logger ?? silentLogger;
    this.registerTools(config.tools ?? []);
  }

  /** Every registered tool, available or not, in registration order. */
  get tools(): readonly Tool[] {
    this.#toolsSnapshot ??= Object.freeze([...this.#tools.values()]);
    return this.#toolsSnapshot;
  }

  /** The number of registered tools. */
  get count(): number {
    return this.#tools.size;
  }

  /** Subscribes to `toolsChanged`; returns a function that unsubscribes. */
  onToolsChanged(listener: (event: ToolRegistryChangedEvent) => void): () => void {
    return this.events.on("toolsChanged", listener);
  }

  /** The tool registered under `toolId` (case-insensitive), or undefined. */
  getTool(toolId: string): Tool | undefined {
    if (typeof toolId !== "string") return undefined;
    return this.#tools.get(toolId.toLowerCase());
  }

  /** Like {@link getTool}, but throws a {@link ToolNotFoundError} with the closest names. */
  getRequiredTool(toolId: string): Tool {
    const tool = this.getTool(toolId);
    if (tool !== undefined) return tool;
    const ids = this.tools.map((t) => t.id);
    throw new ToolNotFoundError(toolId, ids, closestNames(String(toolId), ids, { max: 1 })[0]);
  }

  /** Whether a tool is registered under `toolId` (case-insensitive). */
  hasTool(toolId: string): boolean {
    return this.getTool(toolId) !== undefined;
  }

  /**
   * Registers a tool. Throws {@link DuplicateToolError} when the id is taken and
   * {@link InvalidToolError} when the id, name or input schema is unusable.
   */
  registerTool(tool: Tool): void {
    this.#check(tool);
    const key = tool.id.toLowerCase();
    if (this.#tools.has(key)) {
      this.#logger.warn({ toolId: tool.id }, `Tool '${tool.id}' is already registered`);
      throw new DuplicateToolError(tool.id);
    }
    this.#add(key, tool);
  }

  /** Adds a checked tool under its free lower-cased id `key`. */
  #add(key: string, tool: Tool): void {
    this.#tools.set(key, tool);
    this.#changed(ToolRegistryChangeType.Added, tool);
    this.#logger.info(
      {
        toolId: tool.id,
        toolName: tool.name,
        category: tool.category,
        riskLevel: tool.defaultRiskLevel,
      },
      `Registered tool: ${tool.id} (${tool.name}) - Category: ${tool.category}, Risk: ${tool.defaultRiskLevel}`,
    );
  }

  /** Registers several tools; stops at the first that fails (those before it stay registered). */
  registerTools(tools: Iterable<Tool>): void {
    for (const tool of tools) this.registerTool(tool);
  }

  /**
   * Registers a tool unless its id is taken; returns whether it was added. An invalid tool
   * still throws {@link InvalidToolError}: that is a programming error, not a race.
   */
  tryRegisterTool(tool: Tool): boolean {
    this.#check(tool);
    const key = tool.id.toLowerCase();
    if (this.#tools.has(key)) return false;
    this.#add(key, tool);
    return true;
  }

  /** Replaces the tool registered under the same id (emits `Updated`); throws if none is. */
  updateTool(tool: Tool): void {
    this.#check(tool);
    const key = tool.id.toLowerCase();
    if (!this.#tools.has(key)) this.getRequiredTool(tool.id);
    this.#tools.set(key, tool);
    this.#changed(ToolRegistryChangeType.Updated, tool);
    this.#logger.info({ toolId: tool.id }, `Updated tool: ${tool.id}`);
  }

  /** Removes a tool; returns whether one was registered under `toolId`. */
  unregisterTool(toolId: string): boolean {
    const tool = this.getTool(toolId);
    if (tool === undefined) return false;
    this.#tools.delete(tool.id.toLowerCase());
    this.#changed(ToolRegistryChangeType.Removed, tool);
    this.#logger.info({ toolId: tool.id }, `Unregistered tool: ${tool.id}`);
    return true;
  }

  /** Available tools, filtered by `context` when given (spec 001 h's filter rules). */
  getAvailableTools(context?: ToolAvailabilityContext): readonly Tool[] {
    const available = this.tools.filter((tool) => tool.isAvailable);
    return context === undefined ? available : available.filter(contextFilter(context));
  }

  /** Available tools of one category. */
  getToolsByCategory(category: ToolCategory): readonly Tool[] {
    return this.tools.filter((t) => t.isAvailable && t.category === category);
  }

  /** Available tools carrying `tag` (case-insensitive). */
  getToolsByTag(tag: string): readonly Tool[] {
    const wanted = tag.toLowerCase();
    return this.tools.filter(
      (t) => t.isAvailable && t.tags.some((x) => x.toLowerCase() === wanted),
    );
  }

  /** Available tools whose default risk is at most `maxRiskLevel`. */
  getToolsByRiskLevel(maxRiskLevel: RiskLevel): readonly Tool[] {
    return this.tools.filter((t) => t.isAvailable && t.defaultRiskLevel <= maxRiskLevel);
  }

  /**
   * Available tools whose id, name, description or a tag contains `query` (case-insensitive).
   * An empty or blank query returns every registered tool, as the spec does.
   */
  searchTools(query: string): readonly Tool[] {
    if (query.trim() === "") return this.tools;
    const q = query.toLowerCase();
    return this.tools.filter(
      (t) =>
        t.isAvailable &&
        (t.id.toLowerCase().includes(q) ||
          t.name.toLowerCase().includes(q) ||
          t.description.toLowerCase().includes(q) ||
          t.tags.some((tag) => tag.toLowerCase().includes(q))),
    );
  }

  /**
   * OpenAI-shaped function definitions of the available tools. Each definition is built once per
   * tool; the list itself is reused while the same tools are available, so repeated calls cost
   * one pass over the tools' availability.
   */
  getFunctionDefinitions(context?: ToolAvailabilityContext): readonly FunctionDefinition[] {
    const tools = this.getAvailableTools(context);
    const last = this.#lastDefinitions;
    if (last !== undefined && sameTools(last.tools, tools)) return last.definitions;
    const definitions = Object.freeze(tools.map((tool) => this.#definitionOf(tool)));
    this.#lastDefinitions = { tools, definitions };
    return definitions;
  }

  /** The function definition of one tool, or undefined when it is not registered. */
  getFunctionDefinition(toolId: string): FunctionDefinition | undefined {
    const tool = this.getTool(toolId);
    return tool === undefined ? undefined : this.#definitionOf(tool);
  }

  #definitionOf(tool: Tool): FunctionDefinition {
    const key = tool.id.toLowerCase();
    let definition = this.#definitions.get(key);
    if (definition === undefined) {
      definition = FunctionDefinition.fromTool(tool);
      this.#definitions.set(key, definition);
    }
    return definition;
  }

  #changed(changeType: ToolRegistryChangeType, tool: Tool): void {
    this.#toolsSnapshot = undefined;
    this.#lastDefinitions = undefined;
    this.#definitions.delete(tool.id.toLowerCase());
    this.events.emit("toolsChanged", { changeType, tool, timestamp: new Date() });
  }

  #check(tool: Tool): void {
    if (typeof tool !== "object" || tool === null) {
      throw new InvalidToolError(String(tool), "expected a tool object");
    }
    const id: unknown = tool.id;
    if (typeof id !== "string" || !toolIdPattern.test(id)) {
      throw new InvalidToolError(
        String(id),
        "its id must be 1-64 characters of letters, digits, '-' or '_', not starting with '-' (e.g. 'file-read')",
      );
    }
    if (typeof tool.name !== "string" || tool.name.trim() === "") {
      throw new InvalidToolError(id, "it has no name");
    }
    if (typeof tool.description !== "string") {
      throw new InvalidToolError(id, "its description is not a string");
    }
    if (typeof tool.execute !== "function") {
      throw new InvalidToolError(id, "it has no execute function");
    }
    const schema: unknown = tool.inputSchema;
    if (
      typeof schema !== "object" ||
      schema === null ||
      (schema as { type?: unknown }).type !== "object"
    ) {
      throw new InvalidToolError(id, 'its inputSchema must be a JSON Schema with type "object"');
    }
    // Checked cheaply (meta-schema, patterns); compiled when first used (issue 11: 1,000 tools
    // register in well under 100 ms).
    const problem = this.#validator.checkSchemaShape(schema);
    if (problem !== undefined) {
      throw new InvalidToolError(id, `its inputSchema is not a valid JSON Schema: ${problem}`);
    }
  }
}

function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function lowerSet(values: Iterable<string> | undefined): Set<string> | undefined {
  return values === undefined ? undefined : nonEmptySet([...values].map((v) => v.toLowerCase()));
}

function nonEmptySet<T>(values: Iterable<T> | undefined): Set<T> | undefined {
  if (values === undefined) return undefined;
  const set = new Set(values);
  return set.size === 0 ? undefined : set;
}

function contextFilter(context: ToolAvailabilityContext): (tool: Tool) => boolean {
  const enabled = lowerSet(context.enabledToolIds);
  const disabled = lowerSet(context.disabledToolIds);
  const included = nonEmptySet(context.includedCategories);
  const excluded = nonEmptySet(context.excludedCategories);
  const tags = lowerSet(context.requiredTags);
  return (tool) => {
    const id = tool.id.toLowerCase();
    if (enabled !== undefined && !enabled.has(id)) return false;
    if (disabled?.has(id)) return false;
    if (context.maxRiskLevel !== undefined && tool.defaultRiskLevel > context.maxRiskLevel) {
      return false;
    }
    if (included !== undefined && !included.has(tool.category)) return false;
    if (excluded?.has(tool.category)) return false;
    if (tags !== undefined) {
      const toolTags = new Set(tool.tags.map((t) => t.toLowerCase()));
      for (const tag of tags) if (!toolTags.has(tag)) return false;
    }
    if (context.hasWorkspace === false && tool.category === ToolCategory.Workspace) return false;
    if (context.hasTerminal === false && tool.category === ToolCategory.Terminal) return false;
    if (context.hasEditor === false && tool.category === ToolCategory.Editor) return false;
    if (context.hasGitRepository === false && tool.category === ToolCategory.Git) return false;
    return true;
  };
}
