import { AinternError } from "../core/index.js";

/** The forms of store URL that `openStore` accepts, for messages and docs. */
export const ACCEPTED_STORE_URLS: readonly string[] = Object.freeze([
  "sqlite:<file> (relative or absolute path)",
  "sqlite::memory:",
  "postgres://user:password@host:port/database",
  "postgresql://user:password@host:port/database",
]);

/** Thrown by `openStore` for a URL it cannot open; the message names the scheme it saw. */
export class InvalidStoreUrlError extends AinternError {
  /** The URL as given, with any password replaced by `***`. */
  readonly url: string;
  /** The scheme found in the URL (`"mysql:"`), or `undefined` when there was none. */
  readonly scheme: string | undefined;

  constructor(url: string, scheme: string | undefined, problem?: string) {
    const redacted = redactStoreUrl(url);
    const what =
      problem ??
      (scheme === undefined
        ? `Store URL "${redacted}" has no scheme.`
        : `Store URL scheme "${scheme}" is not supported (in "${redacted}").`);
    super("INVALID_STORE_URL", `${what} Use one of: ${ACCEPTED_STORE_URLS.join(", ")}.`);
    this.name = "InvalidStoreUrlError";
    this.url = redacted;
    this.scheme = scheme;
  }
}

/**
 * The URL with its password replaced by `***`: the one of `scheme://user:password@host` (up to
 * the last `@` before the path, so a raw `@` in the password hides too) and a `password=` query
 * parameter. For every URL a user may see printed or logged.
 */
export function redactStoreUrl(url: string): string {
  return url
    .replace(/^([A-Za-z][A-Za-z0-9+.-]*:\/\/[^:/@]*:)[^/?#]*@/, "$1***@")
    .replace(/([?&]password=)[^&#]*/gi, "$1***");
}
