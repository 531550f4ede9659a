import type { ServiceToken } from "./service-token.js";

/**
 * What a tool sees of the application's services (the C# `IServiceProvider`).
 * {@link ServiceContainer} is the built-in implementation; any object with these two methods
 * (an adapter over another container, say) works as well.
 */
export interface ServiceProvider {
  /** The service registered for `token`, or `undefined` when there is none. */
  getService<T>(token: ServiceToken<T>): T | undefined;
  /**
   * The service registered for `token`.
   *
   * @throws {ServiceNotRegisteredError} nothing is registered for the token.
   */
  getRequiredService<T>(token: ServiceToken<T>): T;
}
