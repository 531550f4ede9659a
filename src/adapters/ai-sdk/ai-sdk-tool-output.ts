import type { ProcessCallResult, ProgressReport } from "../shared/index.js";

/** A progress report of a running aintern tool: an AI SDK preliminary tool result. */
export type AinternToolProgress = ProgressReport;

/** The final output of an aintern tool: what the model is told, and whether it is an error. */
export interface AinternToolResult {
  readonly type: "result";
  /** The call's final lifecycle status (`Completed`, `Denied`, `ValidationFailed`, ...). */
  readonly status: string;
  readonly isError: boolean;
  /** The text the model gets: the result, or aintern's message about what went wrong. */
  readonly content: string;
  /** The tool's data, when it completed and returned some. */
  readonly data?: unknown;
}

/** What an aintern tool's `execute` yields in the AI SDK: progress reports, then its result. */
export type AinternToolOutput = AinternToolProgress | AinternToolResult;

export function toolResultOutput(result: ProcessCallResult): AinternToolResult {
  return {
    type: "result",
    status: result.status,
    isError: result.isError,
    content: result.content,
    ...(result.data === undefined ? {} : { data: result.data }),
  };
}

/**
 * What the model gets for an output: the content as text, or as error text when the call failed,
 * was refused or denied. Outputs stored elsewhere (a UI message) are checked, not trusted.
 */
export function toModelOutputOf(
  output: unknown,
): { type: "text"; value: string } | { type: "error-text"; value: string } {
  if (typeof output === "object" && output !== null && "type" in output) {
    if (output.type === "result" && "content" in output && typeof output.content === "string") {
      const isError = "isError" in output && output.isError === true;
      return { type: isError ? "error-text" : "text", value: output.content };
    }
  }
  return { type: "error-text", value: "The tool produced no result." };
}
