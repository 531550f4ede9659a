/** A request to run one tool (Lexichord `ToolInput`). */
export interface ToolInput {
  /** The tool's id (the spec calls it the tool name); looked up case-insensitively. */
  readonly toolName: string;
  /** The call's parameters; must be a JSON object to pass validation. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /**
   * The call this input answers (a provider's tool call id): carried on every event and progress
   * report of its execution, and into the tool's context as `toolCallId`. A per-call option of
   * the same name wins.
   */
  readonly callId?: string;
  /** The session (conversation) the call belongs to: carried like `callId`, and into the context. */
  readonly sessionId?: string;
  /** Caller data carried into the tool's context metadata and the events. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
