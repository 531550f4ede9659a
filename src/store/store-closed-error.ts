import { AinternError } from "../core/index.js";

/** Thrown (or rejected with) when a store, or one of its parts, is used after `close()`. */
export class StoreClosedError extends AinternError {
  /** The operation that was attempted, e.g. `"audit.complete"`. */
  readonly operation: string;

  constructor(operation: string) {
    super(
      "STORE_CLOSED",
      `Cannot call ${operation}: the store is closed. Open a new one with openStore(url).`,
    );
    this.name = "StoreClosedError";
    this.operation = operation;
  }
}
