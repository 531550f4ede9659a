import type { JsonObject } from "../core/index.js";

/** What an {@link Authorizer} is asked about. */
export interface AuthorizationRequest {
  readonly toolId: string;
  readonly executionId: string;
  readonly parameters: JsonObject;
  /** The per-call context map of the Lexichord options, or the AIntern context's metadata. */
  readonly context?: Readonly<Record<string, unknown>>;
}

/** An authorizer's answer. */
export type AuthorizationResult =
  | { readonly isAuthorized: true; readonly denialReason?: never }
  | { readonly isAuthorized: false; readonly denialReason: string };

/**
 * Decides whether the caller holds the permissions a tool requires (Lexichord
 * `IAuthorizationService`). Plug in your application's own.
 */
export interface Authorizer {
  authorize(
    requiredPermissions: readonly string[],
    request: AuthorizationRequest,
    signal?: AbortSignal,
  ): AuthorizationResult | Promise<AuthorizationResult>;
}

/**
 * An authorizer that grants a fixed set of permissions: a tool is authorized when every
 * permission it requires is in the set. With no arguments it grants none, so only tools that
 * require no permission run: the executor's default, which fails safe.
 */
export function grantPermissions(granted: Iterable<string> = []): Authorizer {
  const set = new Set(granted);
  return {
    authorize(required) {
      const missing = required.filter((p) => !set.has(p));
      return missing.length === 0
        ? { isAuthorized: true }
        : {
            isAuthorized: false,
            denialReason: `Missing permission${missing.length > 1 ? "s" : ""}: ${missing.join(", ")}`,
          };
    },
  };
}

/** An authorizer that authorizes everything. For tests and fully trusted setups only. */
export const allowAllAuthorizer: Authorizer = Object.freeze({
  authorize: (): AuthorizationResult => ({ isAuthorized: true }),
});
