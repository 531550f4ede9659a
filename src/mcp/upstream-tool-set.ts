import type { PermissionFilter, PermissionGrant } from "../approval/index.js";
import { type RiskLevel, riskLevelName } from "../core/index.js";
import type { ToolRegistry } from "../registry/index.js";
import type { Tool } from "../tools/index.js";

/** What {@link UpstreamToolSet} needs of the remembered permissions: `RememberedPermissions` has it. */
export interface GrantRevoker {
  list(filter?: PermissionFilter): Promise<PermissionGrant[]>;
  revoke(id: string): Promise<boolean>;
}

/** Construction options of {@link UpstreamToolSet}. */
export interface UpstreamToolSetConfig {
  readonly registry: ToolRegistry;
  /** The upstream's name, for messages. */
  readonly upstream: string;
  /** Whose grants are revoked when a tool's definition changes. */
  readonly permissions?: GrantRevoker;
  readonly onError?: (error: Error) => void;
}

/**
 * The tools of one upstream in a registry, kept equal to what the upstream last listed: a new
 * tool is registered, a removed one unregistered, and a changed one (its risk, schemas,
 * description, name or category) replaced; the registry's change event lets MCP clients know
 * (`notifications/tools/list_changed`). The remembered approvals of a tool whose definition
 * changed are revoked: what a person approved was the tool as it was then. A tool the registry
 * refuses (an id another tool has, a schema that is not JSON Schema) is left out and said so.
 */
export class UpstreamToolSet {
  readonly #config: UpstreamToolSetConfig;
  /** The ids this set registered now, with their definitions' fingerprints. */
  readonly #current = new Map<string, string>();
  /** Every definition seen per id, also of tools removed since (one may come back changed). */
  readonly #seen = new Map<string, string>();

  constructor(config: UpstreamToolSetConfig) {
    this.#config = config;
  }

  /** The ids of the tools this set has registered. */
  get toolIds(): readonly string[] {
    return [...this.#current.keys()];
  }

  /** Makes the registry hold `tools` for this upstream (see the class). */
  async update(tools: readonly Tool[]): Promise<void> {
    const { registry } = this.#config;
    const listed = new Set(tools.map((t) => t.id.toLowerCase()));
    for (const id of [...this.#current.keys()]) {
      if (listed.has(id.toLowerCase())) continue;
      this.#current.delete(id);
      registry.unregisterTool(id);
    }
    for (const tool of tools) {
      const fingerprint = fingerprintOf(tool);
      const before = this.#seen.get(tool.id);
      const ours = this.#current.has(tool.id);
      if (ours && before === fingerprint) continue;
      if (before !== undefined && before !== fingerprint) await this.#revokeGrants(tool, before);
      this.#seen.set(tool.id, fingerprint);
      const problem = this.#register(tool, ours);
      if (problem === undefined) {
        this.#current.set(tool.id, fingerprint);
        continue;
      }
      if (ours) {
        // Its new definition is refused: the old one must not go on being served.
        registry.unregisterTool(tool.id);
        this.#current.delete(tool.id);
      }
      this.#tell(`tool '${tool.id}' left out: ${problem}`);
    }
  }

  #register(tool: Tool, replacing: boolean): string | undefined {
    try {
      if (replacing) {
        this.#config.registry.updateTool(tool);
        return undefined;
      }
      return this.#config.registry.tryRegisterTool(tool)
        ? undefined
        : "its id is taken by another tool";
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  async #revokeGrants(tool: Tool, before: string): Promise<void> {
    const riskBefore = (JSON.parse(before) as { risk: RiskLevel }).risk;
    const riskNow = tool.defaultRiskLevel;
    let revoked = 0;
    try {
      const permissions = this.#config.permissions;
      for (const grant of (await permissions?.list({ toolId: tool.id })) ?? []) {
        if (await permissions?.revoke(grant.id)) revoked++;
      }
    } catch (error) {
      this.#tell(
        `tool '${tool.id}' changed, and its remembered approvals could not be revoked: ${(error as Error).message}`,
      );
      return;
    }
    const risk =
      riskBefore === riskNow
        ? ""
        : ` (risk ${riskLevelName(riskBefore)} -> ${riskLevelName(riskNow)})`;
    this.#tell(
      `tool '${tool.id}' changed${risk}${revoked === 0 ? "" : `; ${revoked} remembered approval(s) of it revoked`}`,
    );
  }

  #tell(message: string): void {
    this.#config.onError?.(new Error(`Upstream '${this.#config.upstream}': ${message}`));
  }
}

/** What a person approving a call of the tool was shown of it, as one string. */
function fingerprintOf(tool: Tool): string {
  return JSON.stringify({
    risk: tool.defaultRiskLevel,
    name: tool.name,
    description: tool.description,
    category: tool.category,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema ?? null,
    tags: tool.tags,
  });
}
