import { AinternError } from "../core/index.js";

/**
 * Thrown (as a rejection) by `audit.begin` / `audit.complete` for a record the store cannot
 * write: an unknown status, an empty execution id, an invalid date, or an execution id that is
 * already in flight.
 */
export class InvalidAuditRecordError extends AinternError {
  /** The record field at fault, e.g. `"status"`. */
  readonly field: string;
  /** The execution the record belongs to, when it has one. */
  readonly executionId: string | undefined;

  constructor(field: string, message: string, executionId?: string) {
    super("INVALID_AUDIT_RECORD", message);
    this.name = "InvalidAuditRecordError";
    this.field = field;
    this.executionId = executionId;
  }
}
