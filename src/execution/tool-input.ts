/** A request to run one tool (Lexichord `ToolInput`). */
export interface ToolInput {
  /** The tool's id (the spec calls it the tool name); looked up case-insensitively. */
  readonly toolName: string;
  /** The call's parameters; must be a JSON object to pass validation. */
  readonly parameters?: Readonly<Record<string, unknown>>;
  /** Caller data carried into the tool's context metadata and the events. */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
