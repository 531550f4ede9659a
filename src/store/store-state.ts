import { StoreClosedError } from "./store-closed-error.js";

/** What the parts of one store share about its life: whether it has been closed. */
export class StoreState {
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  /** Marks the store closed; every later use throws {@link StoreClosedError}. */
  markClosed(): void {
    this.#closed = true;
  }

  /** Throws {@link StoreClosedError} naming `operation` when the store is closed. */
  check(operation: string): void {
    if (this.#closed) throw new StoreClosedError(operation);
  }
}
