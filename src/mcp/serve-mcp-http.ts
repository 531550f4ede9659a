import { randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  hostHeaderValidation,
  NodeStreamableHTTPServerTransport,
  originValidation,
  toNodeHandler,
  toWebRequest,
} from "@modelcontextprotocol/node";
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type OAuthTokenVerifier,
} from "@modelcontextprotocol/server";
import type { AinternMcpServer } from "./aintern-mcp-server.js";

/** Options of {@link serveMcpHttp}. */
export interface ServeMcpHttpOptions {
  /** Default `127.0.0.1` (loopback). */
  readonly host?: string;
  /** Default 0 (any free port). */
  readonly port?: number;
  /** The path MCP is served on. Default `/mcp`. */
  readonly path?: string;
  /**
   * The bearer token clients must send (`Authorization: Bearer <token>`). Default: a random one,
   * returned in the handle (print it for the user). `false`: no token (only sensible on loopback
   * for tests). Ignored when `verifier` is given.
   */
  readonly token?: string | false;
  /** OAuth resource-server mode: verifies each access token (its `AuthInfo` reaches the tools). */
  readonly verifier?: OAuthTokenVerifier;
  /**
   * Host names accepted in the `Host` header and, when a browser sends one, the `Origin` header
   * (DNS rebinding and cross-site guard). Default: loopback names for a loopback bind.
   */
  readonly allowedHosts?: readonly string[];
  /** Largest request body accepted. Default 32 MiB (larger gets 413). */
  readonly maxRequestBytes?: number;
  readonly onError?: (error: Error) => void;
}

/** A running HTTP server. */
export interface McpHttpHandle {
  /** `http://host:port/mcp`. */
  readonly url: string;
  /** The bearer token clients must send, when one is required. */
  readonly token?: string;
  /** Open 2025-era sessions. */
  readonly sessionCount: number;
  close(): Promise<void>;
}

const loopbackHosts = ["localhost", "127.0.0.1", "[::1]"];

/**
 * Serves `mcp` over Streamable HTTP: 2025-era clients get a session each (`Mcp-Session-Id`, one
 * SDK server per session, so elicitation, progress and cancellation work as on stdio); 2026-07-28
 * requests are served per request. Every request must carry the bearer token (or an access token
 * the `verifier` accepts) and, on a loopback bind, a loopback `Host` header.
 */
export async function serveMcpHttp(
  mcp: AinternMcpServer,
  options: ServeMcpHttpOptions = {},
): Promise<McpHttpHandle> {
  const host = options.host ?? "127.0.0.1";
  const path = options.path ?? "/mcp";
  const maxBytes = options.maxRequestBytes ?? 32 * 1024 * 1024;
  const token =
    options.verifier !== undefined || options.token === false
      ? undefined
      : (options.token ?? randomBytes(24).toString("base64url"));
  const isLoopback = host === "127.0.0.1" || host === "localhost" || host === "::1";
  const allowedHosts = options.allowedHosts ?? (isLoopback ? loopbackHosts : undefined);
  const validateHost =
    allowedHosts === undefined ? undefined : hostHeaderValidation([...allowedHosts]);
  // The spec's Origin MUST: a browser page of another site (its Origin) is refused with 403 even
  // when it names this server by a loopback address, which the Host check lets through.
  const validateOrigin =
    allowedHosts === undefined ? undefined : originValidation([...allowedHosts]);
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  /** Who opened each session: a session id is used only by the principal that initialized it. */
  const owners = new Map<string, string>();
  const modern = createMcpHandler((ctx) => mcp.createServer(ctx), {
    legacy: "reject",
    maxRequestBodySize: maxBytes,
    ...(options.onError === undefined ? {} : { onerror: options.onError }),
  });
  const modernNode = toNodeHandler(modern, {
    maxRequestBodySize: maxBytes,
    ...(options.onError === undefined ? {} : { onerror: options.onError }),
  });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname !== path)
      return sendJson(res, 404, rpcError(-32601, `Not found: MCP is served on ${path}`));
    if (validateHost !== undefined && !validateHost(req, res)) return;
    if (validateOrigin !== undefined && !validateOrigin(req, res)) return;
    const auth = await authenticate(req, token, options.verifier);
    if (auth === "refused") {
      res.setHeader("WWW-Authenticate", 'Bearer realm="aintern"');
      return sendJson(
        res,
        401,
        rpcError(
          -32001,
          "Unauthorized: send the bearer token aintern printed at start (Authorization: Bearer <token>).",
        ),
      );
    }
    if (auth !== undefined) (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;

    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBytes);
      if (read.kind === "too-large") {
        return sendJson(res, 413, rpcError(-32600, `Request body over ${maxBytes} bytes`));
      }
      try {
        body = JSON.parse(read.text);
      } catch (error) {
        return sendJson(res, 400, rpcError(-32700, `Parse error: ${(error as Error).message}`));
      }
    }

    const probe = await toWebRequest(req, body ?? null);
    if (!(await isLegacyRequest(probe, body ?? null))) {
      await modernNode(req, res, body);
      return;
    }
    const sessionId = header(req, "mcp-session-id");
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      // Another user's session (its id leaked, or was logged) is answered as one that does not
      // exist: its elicitations, session-scoped approvals and calls stay its owner's.
      if (transport === undefined || owners.get(sessionId) !== principalOf(auth)) {
        return sendJson(res, 404, rpcError(-32001, "Session not found: initialize again"));
      }
      await transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || !isInitializing(body)) {
      return sendJson(
        res,
        400,
        rpcError(-32000, "Bad Request: no session id, and not an initialize request"),
      );
    }
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
        owners.set(id, principalOf(auth));
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
        owners.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) {
        sessions.delete(transport.sessionId);
        owners.delete(transport.sessionId);
      }
    };
    const server = mcp.createServer({ era: "legacy" });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) sendJson(res, 500, rpcError(-32603, "Internal error"));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, host, () => {
      http.off("error", reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${path}`,
    ...(token === undefined ? {} : { token }),
    get sessionCount() {
      return sessions.size;
    },
    async close() {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      await modern.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

function isInitializing(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

async function authenticate(
  req: IncomingMessage,
  token: string | undefined,
  verifier: OAuthTokenVerifier | undefined,
): Promise<AuthInfo | undefined | "refused"> {
  if (token === undefined && verifier === undefined) return undefined;
  const value = header(req, "authorization");
  const match = value === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(value);
  if (match === null) return "refused";
  const sent = match[1]!;
  if (verifier !== undefined) {
    try {
      const info = await verifier.verifyAccessToken(sent);
      if (info.expiresAt !== undefined && info.expiresAt * 1000 < Date.now()) return "refused";
      return info;
    } catch {
      return "refused";
    }
  }
  const a = Buffer.from(sent);
  const b = Buffer.from(token!);
  return a.length === b.length && timingSafeEqual(a, b) ? undefined : "refused";
}

/** The principal of a request: its OAuth subject and client, or "" (the shared bearer token). */
function principalOf(auth: AuthInfo | undefined): string {
  if (auth === undefined) return "";
  const sub = auth.extra?.sub;
  return `${typeof sub === "string" ? sub : ""}\0${auth.clientId}`;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readBody(
  req: IncomingMessage,
  maxBytes: number,
): Promise<{ kind: "ok"; text: string } | { kind: "too-large" }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      req.resume();
      return { kind: "too-large" };
    }
    chunks.push(buffer);
  }
  return { kind: "ok", text: Buffer.concat(chunks).toString("utf8") };
}

function rpcError(code: number, message: string): unknown {
  return { jsonrpc: "2.0", id: null, error: { code, message } };
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}
