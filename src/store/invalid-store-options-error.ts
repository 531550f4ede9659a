import { AinternError } from "../core/index.js";

/** Thrown by `openStore` for an option it cannot use, such as a schema that is not an identifier. */
export class InvalidStoreOptionsError extends AinternError {
  /** The option at fault, e.g. `"schema"`. */
  readonly option: string;

  constructor(option: string, message: string) {
    super("INVALID_STORE_OPTIONS", message);
    this.name = "InvalidStoreOptionsError";
    this.option = option;
  }
}
