const marker = Symbol.for("aintern.error");

/**
 * Base class of every error aintern throws at a calling program (a duplicate registration, a
 * closed store, a batch over its limit). What a model should see is returned as data instead.
 *
 * Branded with a `Symbol.for` marker so {@link AinternError.isInstance} works across bundled
 * copies of the library, where `instanceof` does not.
 */
export class AinternError extends Error {
  /** The brand {@link AinternError.isInstance} checks for. */
  readonly [marker] = true;
  /** A stable, machine-readable code such as `"DUPLICATE_TOOL"`. */
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "AinternError";
    this.code = code;
  }

  /** True for any aintern error, whichever copy of the library created it. */
  static isInstance(error: unknown): error is AinternError {
    return typeof error === "object" && error !== null && marker in error;
  }
}
