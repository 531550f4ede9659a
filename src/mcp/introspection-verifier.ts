import type { AuthInfo, OAuthTokenVerifier } from "@modelcontextprotocol/server";
import type { McpHttpConfig } from "./mcp-config.js";

/**
 * The introspection endpoint could not say whether a token is good (it did not answer, answered
 * with an error status, or not with JSON): the request is answered 503, not as a bad token, and
 * the cause is reported.
 */
export class IntrospectionUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "IntrospectionUnavailableError";
  }
}

/** A token the introspection endpoint refused; `insufficient_scope` when only scopes lack. */
export class AccessTokenRefusedError extends Error {
  readonly code: "invalid_token" | "insufficient_scope";
  readonly missingScopes: readonly string[];

  constructor(message: string, missingScopes: readonly string[] = []) {
    super(message);
    this.name = "AccessTokenRefusedError";
    this.code = missingScopes.length > 0 ? "insufficient_scope" : "invalid_token";
    this.missingScopes = missingScopes;
  }
}

/**
 * An OAuth resource-server token check: each access token is sent to an RFC 7662 introspection
 * endpoint (with the client credentials, when given); an inactive token, an expired one or one
 * without every required scope is refused ({@link AccessTokenRefusedError}); an endpoint that
 * cannot tell throws {@link IntrospectionUnavailableError}.
 */
export function introspectionVerifier(
  settings: NonNullable<McpHttpConfig["oauth"]>,
): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const headers: Record<string, string> = {
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      };
      if (settings.clientId !== undefined) {
        const secret = settings.clientSecret ?? "";
        headers.Authorization = `Basic ${Buffer.from(`${settings.clientId}:${secret}`).toString("base64")}`;
      }
      const where = `the token introspection endpoint ${settings.introspectionUrl}`;
      let body: {
        active?: boolean;
        client_id?: string;
        scope?: string;
        exp?: number;
        sub?: string;
        username?: string;
      };
      try {
        const response = await fetch(settings.introspectionUrl, {
          method: "POST",
          headers,
          body: new URLSearchParams({ token }).toString(),
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) {
          throw new IntrospectionUnavailableError(`${where} answered ${response.status}`);
        }
        body = (await response.json()) as typeof body;
      } catch (error) {
        if (error instanceof IntrospectionUnavailableError) throw error;
        const why = error instanceof Error ? error.message : String(error);
        throw new IntrospectionUnavailableError(`${where} could not be asked: ${why}`, {
          cause: error,
        });
      }
      if (typeof body !== "object" || body === null) {
        throw new IntrospectionUnavailableError(`${where} did not answer with a JSON object`);
      }
      if (body.active !== true) throw new AccessTokenRefusedError("The access token is not active");
      const scopes =
        typeof body.scope === "string" ? body.scope.split(" ").filter((s) => s !== "") : [];
      const missing = (settings.requiredScopes ?? []).filter((s) => !scopes.includes(s));
      if (missing.length > 0) {
        throw new AccessTokenRefusedError(`The access token lacks ${missing.join(", ")}`, missing);
      }
      return {
        token,
        clientId: body.client_id ?? "",
        scopes,
        ...(body.exp === undefined ? {} : { expiresAt: body.exp }),
        // Who the token speaks for: recorded as the approver of their elicitation answers.
        extra: {
          ...(typeof body.sub === "string" ? { sub: body.sub } : {}),
          ...(typeof body.username === "string" ? { username: body.username } : {}),
        },
      };
    },
  };
}
