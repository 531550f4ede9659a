import type { AuthInfo, OAuthTokenVerifier } from "@modelcontextprotocol/server";
import type { McpHttpConfig } from "./mcp-config.js";

/**
 * An OAuth resource-server token check: each access token is sent to an RFC 7662 introspection
 * endpoint (with the client credentials, when given); an inactive token, an expired one or one
 * without every required scope is refused.
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
      const response = await fetch(settings.introspectionUrl, {
        method: "POST",
        headers,
        body: new URLSearchParams({ token }).toString(),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`Token introspection answered ${response.status}`);
      const body = (await response.json()) as {
        active?: boolean;
        client_id?: string;
        scope?: string;
        exp?: number;
        sub?: string;
        username?: string;
      };
      if (body.active !== true) throw new Error("The access token is not active");
      const scopes = body.scope === undefined ? [] : body.scope.split(" ").filter((s) => s !== "");
      const missing = (settings.requiredScopes ?? []).filter((s) => !scopes.includes(s));
      if (missing.length > 0) throw new Error(`The access token lacks ${missing.join(", ")}`);
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
