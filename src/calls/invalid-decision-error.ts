import { AinternError } from "../core/index.js";

/**
 * Thrown when an {@link ApprovalDecision} handed to a lifecycle does not fit it: a denial passed
 * to `approve`, an approval passed to `deny`, no decision for a call that awaited one, or a
 * decision bound to another request or to other arguments.
 */
export class InvalidDecisionError extends AinternError {
  /** The id of the request whose lifecycle refused the decision. */
  readonly requestId: string;

  constructor(requestId: string, message: string) {
    super("INVALID_DECISION", message);
    this.name = "InvalidDecisionError";
    this.requestId = requestId;
  }
}
