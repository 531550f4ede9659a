import { AinternError } from "../core/index.js";
import type { ToolCallStatus } from "./tool-call-status.js";
import { nextToolCallStatuses } from "./tool-call-transitions.js";

/**
 * Thrown when code asks a {@link ToolCallLifecycle} for a move its state machine does not allow
 * (completing a call that never started, approving a denied one). A programming error in the
 * caller, so it is thrown rather than returned.
 */
export class InvalidTransitionError extends AinternError {
  /** The state the lifecycle was in (and still is). */
  readonly from: ToolCallStatus;
  /** The state that was asked for. */
  readonly to: ToolCallStatus;
  /** The id of the request whose lifecycle refused the move. */
  readonly requestId: string;
  /** The tool the request is for. */
  readonly toolId: string;

  constructor(from: ToolCallStatus, to: ToolCallStatus, requestId: string, toolId: string) {
    const next = nextToolCallStatuses(from);
    const why =
      next.length === 0
        ? `${from} is a terminal state`
        : `from ${from} a call can only move to ${next.join(", ")}`;
    super(
      "INVALID_TRANSITION",
      `Tool call ${requestId} ('${toolId}') cannot move from ${from} to ${to}: ${why}.`,
    );
    this.name = "InvalidTransitionError";
    this.from = from;
    this.to = to;
    this.requestId = requestId;
    this.toolId = toolId;
  }
}
