import { AinternError } from "../core/index.js";

/**
 * Thrown by {@link parseToolCalls} when one response holds more tool calls than `maxCalls`
 * allows. Nothing is built for such a response.
 */
export class TooManyToolCallsError extends AinternError {
  /** How many calls the response holds. */
  readonly count: number;
  /** The limit in force. */
  readonly limit: number;

  constructor(count: number, limit: number) {
    super(
      "TOO_MANY_TOOL_CALLS",
      `The response holds ${count} tool calls, more than the limit of ${limit}. ` +
        "Raise maxCalls if this is expected, or ask the model for fewer calls per turn.",
    );
    this.name = "TooManyToolCallsError";
    this.count = count;
    this.limit = limit;
  }
}
