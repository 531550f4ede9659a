/** One log method in pino's shape: a fields object first, then the message. */
export interface LogMethod {
  (fields: Record<string, unknown>, message: string): void;
  (message: string): void;
}

/**
 * The logging surface aintern writes to: the subset of a pino logger it uses, so any pino
 * logger (or child logger) can be passed directly. aintern is silent unless given one.
 *
 * @example
 * ```ts
 * import pino from "pino";
 * const executor = new ToolExecutor({ registry, logger: pino({ level: "info" }) });
 * ```
 */
export interface Logger {
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
}

const noop = (): void => {};

/** A logger that discards everything: the default. */
export const silentLogger: Logger = Object.freeze({
  debug: noop,
  info: noop,
  warn: noop,
  error: noop,
});
