/**
 * A typed key for a service (the C# `Type` passed to `GetService<T>()`). Tokens compare by
 * identity: two tokens with the same name are different keys, so create each once and share it.
 *
 * @example
 * ```ts
 * export const LoggerToken = createServiceToken<Logger>("logger");
 * container.register(LoggerToken, pino());
 * const logger = context.getRequiredService(LoggerToken); // typed as Logger
 * ```
 */
export interface ServiceToken<T> {
  /** A readable name, used in error messages. */
  readonly name: string;
  /** Carries `T` for type inference only; never set at run time. */
  readonly __serviceType?: T;
}

/** Creates a {@link ServiceToken} for services of type `T`. */
export function createServiceToken<T>(name: string): ServiceToken<T> {
  return Object.freeze({ name });
}
