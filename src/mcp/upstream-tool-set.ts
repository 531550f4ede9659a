import type { PermissionFilter, PermissionGrant } from "../approval/index.js";
import { type RiskLevel, riskLevelName } from "../core/index.js";
import type { ToolRegistry } from "../registry/index.js";
import { fingerprintDigest, type Tool, toolDefinitionFingerprint } from "../tools/index.js";
import type { ToolDefinitionStore } from "./tool-definition-store.js";

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
  /**
   * Where each tool's last-seen definition is kept beyond this set (`store.toolDefinitions`):
   * with it, a definition that changed since any process sharing it last saw the tool revokes the
   * tool's grants, and so do grants of a tool with no recorded definition. Without it, a change
   * is noticed only between two listings this set gets.
   */
  readonly definitions?: ToolDefinitionStore;
  readonly onError?: (error: Error) => void;
}

/**
 * The tools of one upstream in a registry, kept equal to what the upstream last listed: a new
 * tool is registered, a removed one unregistered, and a changed one (its risk, schemas,
 * description, name or category) replaced; the registry's change event lets MCP clients know
 * (`notifications/tools/list_changed`). The remembered approvals of a tool whose definition
 * changed are revoked: what a person approved was the tool as it was then. A tool the registry
 * refuses (an id another tool has, a schema that is not JSON Schema) is left out and said so.
 *
 * With `definitions`, the comparison outlives the process: a tool this set has not seen yet is
 * compared with the fingerprint recorded there (by an earlier process, or another one on the same
 * store), and every definition it accepts is recorded. A tool whose recorded definition differs
 * has its grants revoked; so does one with grants and no recorded definition (grants given before
 * definitions were recorded: what they approved is unknown), and one whose record cannot be read
 * (said so: a grant that cannot be vouched for is not kept). A definition is recorded only once
 * the grants given before it are known to be gone, so a failed revocation is tried again by the
 * next process that sees the tool.
 */
/** How many tools' last definitions a set remembers (those it serves are never forgotten). */
const SEEN_KEPT = 10_000;

export class UpstreamToolSet {
  readonly #config: UpstreamToolSetConfig;
  /**
   * The tools this set registered now, by lowercased id (the registry's and the grants' ids are
   * case-insensitive: `Read` relisted as `read` is the same tool, changed), with their ids and
   * definitions' fingerprints.
   */
  readonly #current = new Map<string, { readonly id: string; readonly digest: string }>();
  /**
   * The digest and risk of the definition last seen per lowercased id, also of tools removed
   * since (one may come back changed): digests, not the definitions, and the oldest forgotten
   * past {@link SEEN_KEPT}, so that an upstream that keeps renaming its tools cannot fill the
   * memory. A tool forgotten here is compared with the store's record when it comes back.
   */
  readonly #seen = new Map<string, { readonly digest: string; readonly risk: RiskLevel }>();

  constructor(config: UpstreamToolSetConfig) {
    this.#config = config;
  }

  /** The ids of the tools this set has registered. */
  get toolIds(): readonly string[] {
    return [...this.#current.values()].map((entry) => entry.id);
  }

  /** Makes the registry hold `tools` for this upstream (see the class). */
  async update(tools: readonly Tool[]): Promise<void> {
    const { registry } = this.#config;
    const listed = new Set(tools.map((t) => t.id.toLowerCase()));
    for (const [key, { id }] of [...this.#current]) {
      if (listed.has(key)) continue;
      this.#current.delete(key);
      registry.unregisterTool(id);
    }
    /** The ids of this listing handled so far: a second tool under one is left out. */
    const handled = new Set<string>();
    for (const tool of tools) {
      const key = tool.id.toLowerCase();
      if (handled.has(key)) {
        // Listed twice (maybe with two definitions): the first is the tool, as the registry
        // would have it; the second must not replace it, nor have it compared with the first.
        this.#tell(`tool '${tool.id}' left out: the listing has another tool with its id`);
        continue;
      }
      handled.add(key);
      const fingerprint = toolDefinitionFingerprint(tool);
      const digest = fingerprintDigest(fingerprint);
      const before = this.#seen.get(key);
      const current = this.#current.get(key);
      const ours = current !== undefined;
      if (current?.id === tool.id && before?.digest === digest) continue;
      if (before === undefined && registry.hasTool(tool.id)) {
        // Another tool holds the id: this one is refused, and neither compared nor remembered
        // (the recorded definition and the grants are the other tool's).
        this.#tell(`tool '${tool.id}' left out: its id is taken by another tool`);
        continue;
      }
      if (before === undefined) {
        // First seen by this set: the store says what was seen before.
        await this.#compareRecorded(tool, fingerprint);
      } else if (before.digest !== digest) {
        const risk = riskChange(before.risk, tool);
        if (await this.#revokeGrants(tool, `tool '${tool.id}' changed${risk}`, true)) {
          await this.#record(tool, fingerprint);
        }
      }
      this.#remember(key, digest, tool.defaultRiskLevel);
      const problem = this.#register(tool, ours);
      if (problem === undefined) {
        this.#current.set(key, { id: tool.id, digest });
        continue;
      }
      if (ours) {
        // Its new definition is refused: the old one must not go on being served.
        registry.unregisterTool(tool.id);
        this.#current.delete(key);
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

  /**
   * Compares a tool first seen by this set with its recorded definition: revokes its grants when
   * that differs, when none is recorded and grants exist, or when it cannot be read; then records
   * the tool's definition (unless a revocation failed).
   */
  /** Remembers what `key`'s definition was, forgetting the oldest past {@link SEEN_KEPT}. */
  #remember(key: string, digest: string, risk: RiskLevel): void {
    this.#seen.delete(key);
    this.#seen.set(key, { digest, risk });
    if (this.#seen.size <= SEEN_KEPT) return;
    for (const old of this.#seen.keys()) {
      if (this.#current.has(old)) continue;
      this.#seen.delete(old);
      if (this.#seen.size <= SEEN_KEPT) return;
    }
  }

  async #compareRecorded(tool: Tool, fingerprint: string): Promise<void> {
    const definitions = this.#config.definitions;
    if (definitions === undefined) return;
    const digest = fingerprintDigest(fingerprint);
    let recorded: string | undefined;
    try {
      recorded = await definitions.get(tool.id);
    } catch (error) {
      const head = `the last-seen definition of tool '${tool.id}' could not be read (${(error as Error).message}), and remembered approvals of it cannot be vouched for`;
      if (await this.#revokeGrants(tool, head, true)) await this.#record(tool, fingerprint);
      return;
    }
    if (recorded === digest) return;
    const head =
      recorded === undefined
        ? `tool '${tool.id}' has no recorded definition (its remembered approvals were given before definitions were recorded, or by a process that did not record them), so what they approved is unknown`
        : `tool '${tool.id}' changed since it was last seen (by this gateway before a restart, or by another process on the same store)`;
    if (await this.#revokeGrants(tool, head, recorded !== undefined)) {
      await this.#record(tool, fingerprint);
    }
  }

  /**
   * Revokes every remembered grant of `tool`, telling `head` with how many were revoked (when
   * none were, `head` is told only if `tellNone`). Resolves false when they could not be revoked
   * (said so), true otherwise.
   */
  async #revokeGrants(tool: Tool, head: string, tellNone: boolean): Promise<boolean> {
    let revoked = 0;
    try {
      const permissions = this.#config.permissions;
      for (const grant of (await permissions?.list({ toolId: tool.id })) ?? []) {
        if (await permissions?.revoke(grant.id)) revoked++;
      }
    } catch (error) {
      this.#tell(
        `${head}, and its remembered approvals could not be revoked: ${(error as Error).message}`,
      );
      return false;
    }
    if (revoked > 0) this.#tell(`${head}; ${revoked} remembered approval(s) of it revoked`);
    else if (tellNone) this.#tell(head);
    return true;
  }

  /** Records `tool`'s definition in `definitions`; a failure is told and changes nothing else. */
  async #record(tool: Tool, fingerprint: string): Promise<void> {
    try {
      await this.#config.definitions?.set(tool.id, fingerprintDigest(fingerprint));
    } catch (error) {
      this.#tell(
        `the definition of tool '${tool.id}' could not be recorded (${(error as Error).message}): the next process to see it may revoke its remembered approvals`,
      );
    }
  }

  #tell(message: string): void {
    this.#config.onError?.(new Error(`Upstream '${this.#config.upstream}': ${message}`));
  }
}

/** `" (risk Safe -> High)"` when the risk of `tool` is not `riskBefore`, else `""`. */
function riskChange(riskBefore: RiskLevel, tool: Tool): string {
  const riskNow = tool.defaultRiskLevel;
  return riskBefore === riskNow
    ? ""
    : ` (risk ${riskLevelName(riskBefore)} -> ${riskLevelName(riskNow)})`;
}
