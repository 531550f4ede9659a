import type { PermissionGrant, PermissionPatternKind } from "../approval/index.js";
import { isRiskLevel, keyTextProblem, RiskLevel } from "../core/index.js";
import { InvalidPermissionGrantError } from "./invalid-permission-grant-error.js";
import { unstorableTextReason } from "./storable-text.js";
import type { ToolPermissionsTable } from "./store-tables.js";
import { fromStoredTime, toStoredTime } from "./stored-time.js";

const patternKinds: ReadonlySet<string> = new Set<PermissionPatternKind>(["path", "command"]);

function text(
  field: string,
  value: unknown,
  grantId: string | undefined,
  required: boolean,
  isKey = false,
) {
  if (value === undefined && !required) return null;
  if (typeof value !== "string" || (required && value.length === 0)) {
    throw new InvalidPermissionGrantError(
      field,
      `Permission grant ${field} must be a ${required ? "non-empty " : ""}string.`,
      grantId,
    );
  }
  const problem = isKey ? keyTextProblem(value) : unstorableTextReason(value);
  if (problem !== undefined) {
    throw new InvalidPermissionGrantError(field, `Permission grant ${field} ${problem}.`, grantId);
  }
  return value;
}

function date(field: string, value: unknown, grantId: string): Date {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new InvalidPermissionGrantError(
      field,
      `Permission grant ${field} of '${grantId}' must be a valid Date.`,
      grantId,
    );
  }
  return value;
}

/**
 * Validates a grant for the `tool_permissions` table and turns it into a row. Only `tool`-scoped
 * grants are stored; a Critical `maxRiskLevel` is refused (Critical calls are never remembered
 * permanently).
 */
export function toPermissionRow(
  grant: PermissionGrant,
  dialect: "sqlite" | "postgres",
): ToolPermissionsTable {
  if (typeof grant !== "object" || grant === null) {
    throw new InvalidPermissionGrantError("grant", "A permission grant must be an object.");
  }
  const id = text("id", grant.id, undefined, true, true) as string;
  if (grant.scope !== "tool") {
    throw new InvalidPermissionGrantError(
      "scope",
      `Permission grant '${id}' has scope '${String(grant.scope)}'; the store keeps only scope "tool" grants (session grants are held in memory by RememberedPermissions).`,
      id,
    );
  }
  const toolId = text("toolId", grant.toolId, id, true, true) as string;
  if (!isRiskLevel(grant.maxRiskLevel)) {
    throw new InvalidPermissionGrantError(
      "maxRiskLevel",
      `Permission grant '${id}' has maxRiskLevel ${String(grant.maxRiskLevel)}; expected a RiskLevel (0 Safe to 4 Critical).`,
      id,
    );
  }
  if (grant.maxRiskLevel >= RiskLevel.Critical) {
    throw new InvalidPermissionGrantError(
      "maxRiskLevel",
      `Permission grant '${id}' covers Critical calls; Critical calls are never remembered permanently, each one asks.`,
      id,
    );
  }
  if (grant.patternKind !== undefined && !patternKinds.has(grant.patternKind)) {
    throw new InvalidPermissionGrantError(
      "patternKind",
      `Permission grant '${id}' has patternKind '${String(grant.patternKind)}'; expected "path" or "command".`,
      id,
    );
  }
  return {
    id,
    tool_id: toolId,
    tool_key: toolId.toLowerCase(),
    scope: grant.scope,
    session_id: text("sessionId", grant.sessionId, id, false, true),
    pattern: text("pattern", grant.pattern, id, false),
    pattern_kind: grant.patternKind ?? null,
    max_risk_level: grant.maxRiskLevel,
    workspace_path: text("workspacePath", grant.workspacePath, id, false),
    created_at: toStoredTime(dialect, date("createdAt", grant.createdAt, id)),
    expires_at:
      grant.expiresAt === undefined
        ? null
        : toStoredTime(dialect, date("expiresAt", grant.expiresAt, id)),
    granted_by: text("grantedBy", grant.grantedBy, id, false),
  };
}

/** A stored row read back as a frozen grant with exactly the optional fields that were given. */
export function fromPermissionRow(row: ToolPermissionsTable): PermissionGrant {
  return Object.freeze({
    id: row.id,
    toolId: row.tool_id,
    scope: "tool",
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
    ...(row.pattern === null ? {} : { pattern: row.pattern }),
    ...(row.pattern_kind === null
      ? {}
      : { patternKind: row.pattern_kind as PermissionPatternKind }),
    // A level unknown here (a newer writer's) is read as Safe: the grant then covers the least.
    maxRiskLevel: isRiskLevel(Number(row.max_risk_level))
      ? (Number(row.max_risk_level) as RiskLevel)
      : RiskLevel.Safe,
    ...(row.workspace_path === null ? {} : { workspacePath: row.workspace_path }),
    createdAt: fromStoredTime(row.created_at),
    ...(row.expires_at === null ? {} : { expiresAt: fromStoredTime(row.expires_at) }),
    ...(row.granted_by === null ? {} : { grantedBy: row.granted_by }),
  });
}
