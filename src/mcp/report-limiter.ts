/**
 * Passes on at most `perWindow` reports every `windowMs`, each cut to `maxLength` characters,
 * and then says how many it left out: an upstream that writes a line of garbage after another
 * would otherwise have the SDK's long parse error for each written to the gateway's log (a
 * hundred and sixty times what it wrote).
 */
export class ReportLimiter {
  readonly #send: (error: Error) => void;
  readonly #what: string;
  readonly #perWindow: number;
  readonly #windowMs: number;
  readonly #maxLength: number;
  #sent = 0;
  #left = 0;
  #window: NodeJS.Timeout | undefined;

  /**
   * @param send where reports go
   * @param what whose reports they are, for the count of those left out (`upstream 'fs'`)
   */
  constructor(
    send: (error: Error) => void,
    what: string,
    options: { perWindow?: number; windowMs?: number; maxLength?: number } = {},
  ) {
    this.#send = send;
    this.#what = what;
    this.#perWindow = options.perWindow ?? 10;
    this.#windowMs = options.windowMs ?? 10_000;
    this.#maxLength = options.maxLength ?? 2_000;
  }

  report(error: Error): void {
    if (this.#window === undefined) {
      this.#window = setTimeout(() => this.#endWindow(), this.#windowMs);
      this.#window.unref();
    }
    if (this.#sent >= this.#perWindow) {
      this.#left++;
      return;
    }
    this.#sent++;
    const message = error.message;
    this.#send(
      message.length <= this.#maxLength
        ? error
        : new Error(`${message.slice(0, this.#maxLength)}... (${message.length} characters)`),
    );
  }

  #endWindow(): void {
    this.#window = undefined;
    const left = this.#left;
    this.#sent = 0;
    this.#left = 0;
    if (left > 0) {
      this.#send(new Error(`${left} more errors of ${this.#what} were left out of this log`));
    }
  }
}
