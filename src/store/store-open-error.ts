import { AinternError } from "../core/index.js";
import { redactStoreUrl } from "./invalid-store-url-error.js";

/** Thrown by `openStore` when the database cannot be opened or reached (the cause says why). */
export class StoreOpenError extends AinternError {
  /** The URL that was opened, with any password replaced by `***`. */
  readonly url: string;

  constructor(url: string, cause: unknown) {
    const redacted = redactStoreUrl(url);
    const reason = cause instanceof Error ? cause.message : String(cause);
    super("STORE_OPEN_FAILED", `Could not open store "${redacted}": ${reason}`, { cause });
    this.name = "StoreOpenError";
    this.url = redacted;
  }
}
