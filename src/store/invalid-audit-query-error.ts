import { AinternError } from "../core/index.js";

/** Thrown (as a rejection) for an audit query a store cannot run: a bad limit, cursor or status. */
export class InvalidAuditQueryError extends AinternError {
  /** The query field at fault, e.g. `"limit"`. */
  readonly field: string;

  constructor(field: string, message: string) {
    super("INVALID_AUDIT_QUERY", message);
    this.name = "InvalidAuditQueryError";
    this.field = field;
  }
}
