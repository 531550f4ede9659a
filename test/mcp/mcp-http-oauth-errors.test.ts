// OAuth resource-server mode over HTTP: a refused token is told why, as RFC 6750 words it, and an
// introspection endpoint that cannot answer is a 503 that is reported, not a bad token (red team,
// session 19: a good token got 401 "send the bearer token aintern printed at start", which OAuth
// mode never prints, and nothing was logged).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type McpRuntime, openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import {
  AinternMcpServer,
  introspectionVerifier,
  type McpHttpHandle,
  serveMcpHttp,
} from "../../src/mcp/index.js";
import { legacyInitialize, makeWorkspace, postLegacy } from "./mcp-support.js";

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let runtime: McpRuntime;
let mcp: AinternMcpServer;
let http: McpHttpHandle;
let introspection: Server;
const errors: Error[] = [];

/** An RFC 7662 endpoint: `good` is active with scope mcp, `narrow` without it, others inactive. */
async function startIntrospection(): Promise<string> {
  introspection = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      const token = new URLSearchParams(body).get("token");
      const answer =
        token === "good"
          ? { active: true, client_id: "c", scope: "mcp", sub: "ada" }
          : token === "narrow"
            ? { active: true, client_id: "c", scope: "read" }
            : { active: false };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => introspection.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`;
}

beforeEach(async () => {
  workspace = await makeWorkspace();
  runtime = await openMcpRuntime({ workspace: workspace.path, approvals: "deny" });
  mcp = new AinternMcpServer({ registry: runtime.registry, processor: runtime.processor });
  const introspectionUrl = await startIntrospection();
  errors.length = 0;
  http = await serveMcpHttp(mcp, {
    verifier: introspectionVerifier({ introspectionUrl, requiredScopes: ["mcp"] }),
    onError: (error) => errors.push(error),
  });
});

afterEach(async () => {
  await http.close();
  await mcp.close();
  await runtime.close();
  introspection.closeAllConnections();
  await new Promise((resolve) => introspection.close(resolve));
  await workspace.remove();
});

const initialize = legacyInitialize("oauth");

describe("aintern mcp over HTTP with OAuth", () => {
  it("serves a good token", async () => {
    const response = await postLegacy(http.url, initialize, { token: "good" });
    expect(response.status).toBe(200);
  });

  it("asks for an access token, not a printed one, when none is sent", async () => {
    const response = await fetch(http.url, { method: "POST", body: "{}" });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toBe('Bearer realm="aintern"');
    const text = await response.text();
    expect(text).toContain("valid access token");
    expect(text).not.toContain("printed at start");
  });

  it("says why a token is refused: invalid_token (401), insufficient_scope (403)", async () => {
    const inactive = await postLegacy(http.url, initialize, { token: "stolen" });
    expect(inactive.status).toBe(401);
    expect(inactive.headers.get("www-authenticate")).toContain('error="invalid_token"');
    expect(await inactive.text()).toContain("The access token is not active");
    const narrow = await postLegacy(http.url, initialize, { token: "narrow" });
    expect(narrow.status).toBe(403);
    expect(narrow.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(narrow.headers.get("www-authenticate")).toContain('scope="mcp"');
  });

  it("answers 503 and reports the cause when the introspection endpoint is down", async () => {
    introspection.closeAllConnections();
    await new Promise((resolve) => introspection.close(resolve));
    const response = await postLegacy(http.url, initialize, { token: "good" });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.text()).toContain("could not be checked");
    expect(errors.map((e) => e.name)).toContain("IntrospectionUnavailableError");
    // Listening again for afterEach's close.
    await startIntrospection();
  });
});
