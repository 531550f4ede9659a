import type { RiskLevel } from "../core/index.js";

/** How long a remembered permission lasts. */
export type PermissionScope = "session" | "tool";

/** What kind of parameter a grant's pattern is matched against. */
export type PermissionPatternKind = "path" | "command";

/**
 * A remembered "yes" (approvals issue): from `ApprovalDecision.rememberForSession` (scope
 * `session`, held in memory for one session) or `rememberForTool` (scope `tool`, persisted in the
 * `tool_permissions` table). With a pattern, it covers only calls whose path (or command)
 * parameters all match it; without one, every call of the tool. Never a call riskier than
 * `maxRiskLevel`, the effective risk of the call it was granted for.
 */
export interface PermissionGrant {
  readonly id: string;
  readonly toolId: string;
  readonly scope: PermissionScope;
  /** The session a `session` grant belongs to. */
  readonly sessionId?: string;
  readonly pattern?: string;
  readonly patternKind?: PermissionPatternKind;
  readonly maxRiskLevel: RiskLevel;
  /** The workspace the pattern was granted in; a path grant covers nothing elsewhere. */
  readonly workspacePath?: string;
  readonly createdAt: Date;
  readonly expiresAt?: Date;
  /** Who granted it, for the listing API. */
  readonly grantedBy?: string;
}

/** Filter for {@link PermissionStore.list}. */
export interface PermissionFilter {
  readonly toolId?: string;
}

/**
 * Where persistent (`tool`-scoped) grants live: `store.permissions` of `openStore`, or
 * {@link MemoryPermissionStore} for tests and stateless setups.
 */
export interface PermissionStore {
  add(grant: PermissionGrant): Promise<void>;
  list(filter?: PermissionFilter): Promise<PermissionGrant[]>;
  /** Removes a grant; resolves whether it existed. */
  revoke(id: string): Promise<boolean>;
}

/** A {@link PermissionStore} in memory. */
export class MemoryPermissionStore implements PermissionStore {
  readonly #grants = new Map<string, PermissionGrant>();

  async add(grant: PermissionGrant): Promise<void> {
    this.#grants.set(grant.id, Object.freeze({ ...grant }));
  }

  async list(filter: PermissionFilter = {}): Promise<PermissionGrant[]> {
    const toolId = filter.toolId?.toLowerCase();
    return [...this.#grants.values()].filter(
      (g) => toolId === undefined || g.toolId.toLowerCase() === toolId,
    );
  }

  async revoke(id: string): Promise<boolean> {
    return this.#grants.delete(id);
  }
}
