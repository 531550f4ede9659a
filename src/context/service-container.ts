import { ServiceNotRegisteredError } from "./service-not-registered-error.js";
import type { ServiceProvider } from "./service-provider.js";
import type { ServiceToken } from "./service-token.js";

/**
 * A small typed service container keyed by {@link ServiceToken}s. Registering a token again
 * replaces its service (the last registration wins, as in .NET's container).
 *
 * @example
 * ```ts
 * const services = new ServiceContainer().register(LoggerToken, logger).register(ClockToken, clock);
 * services.getService(ClockToken); // Clock | undefined
 * ```
 */
export class ServiceContainer implements ServiceProvider {
  readonly #services = new Map<ServiceToken<unknown>, unknown>();

  /** Registers `value` as the service for `token`; returns the container for chaining. */
  register<T>(token: ServiceToken<T>, value: T): this {
    this.#services.set(token, value);
    return this;
  }

  /** True when a service is registered for `token`. */
  has(token: ServiceToken<unknown>): boolean {
    return this.#services.has(token);
  }

  /** The service registered for `token`, or `undefined`. */
  getService<T>(token: ServiceToken<T>): T | undefined {
    return this.#services.get(token) as T | undefined;
  }

  /**
   * The service registered for `token`.
   *
   * @throws {ServiceNotRegisteredError} nothing is registered for the token.
   */
  getRequiredService<T>(token: ServiceToken<T>): T {
    if (!this.#services.has(token)) {
      throw new ServiceNotRegisteredError(
        token.name,
        [...this.#services.keys()].map((t) => t.name),
      );
    }
    return this.#services.get(token) as T;
  }
}
