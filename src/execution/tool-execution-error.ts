import { AinternError } from "../core/index.js";

/** A mistake by the program calling the executor: a batch over its limit, a reused execution id. */
export class ToolExecutionError extends AinternError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.name = "ToolExecutionError";
  }
}
