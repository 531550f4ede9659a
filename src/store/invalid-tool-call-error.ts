import { AinternError } from "../core/index.js";

/**
 * Thrown (as a rejection) by `store.calls` for a call it cannot save (an empty call id, a record
 * with no known status, a record that is not JSON) or a list filter it cannot run (an unknown
 * status, a negative limit); and by `get` / `list` for a stored record that is not JSON (a row
 * written by something other than the store).
 */
export class InvalidToolCallError extends AinternError {
  /** The argument field at fault, e.g. `"callId"` or `"limit"`. */
  readonly field: string;
  /** The call concerned, when there is one. */
  readonly callId: string | undefined;

  constructor(field: string, message: string, callId?: string) {
    super("INVALID_TOOL_CALL", message);
    this.name = "InvalidToolCallError";
    this.field = field;
    this.callId = callId;
  }
}
