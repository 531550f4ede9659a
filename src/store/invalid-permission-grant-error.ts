import { AinternError } from "../core/index.js";

/**
 * Thrown (as a rejection) by `store.permissions.add` for a grant the store will not keep: one
 * whose scope is not `"tool"` (session grants live in memory), a Critical `maxRiskLevel` (Critical
 * calls are never remembered permanently), a missing id or tool id, an invalid date, or text the
 * database cannot hold unchanged.
 */
export class InvalidPermissionGrantError extends AinternError {
  /** The grant field at fault, e.g. `"scope"`. */
  readonly field: string;
  /** The grant's id, when it has one. */
  readonly grantId: string | undefined;

  constructor(field: string, message: string, grantId?: string) {
    super("INVALID_PERMISSION_GRANT", message);
    this.name = "InvalidPermissionGrantError";
    this.field = field;
    this.grantId = grantId;
  }
}
