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
import { nestsDeeperThan } from "../core/index.js";
import type { AinternMcpServer } from "./aintern-mcp-server.js";
import {
  AccessTokenRefusedError,
  IntrospectionUnavailableError,
} from "./introspection-verifier.js";
import { MAX_MESSAGE_DEPTH, tooDeepMessage } from "./message-depth.js";
import { hasMethod, requestId, requestShapeProblem } from "./request-shape.js";

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
  /**
   * Most 2025-era sessions one client keeps open (one client: the holder of the bearer token, or
   * one OAuth subject and client). Opening one more closes that client's least recently used
   * session with no request running (a later request on it gets 404, and the client initializes
   * again); when every one is busy, the new session is refused with 503. Default 64.
   */
  readonly maxSessions?: number;
  /** A session with no request for this long (ms) is closed. Default 30 minutes. */
  readonly sessionIdleMs?: number;
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

/** A 2025-era session: its transport, who opened it, and when it was last used. */
interface Session {
  readonly transport: NodeStreamableHTTPServerTransport;
  readonly owner: string;
  lastUsedAt: number;
  /** Requests on it still being answered (an open GET stream counts until it ends). */
  running: number;
  /** The JSON-RPC ids of the requests on it still being answered. */
  readonly inFlight: Set<string | number>;
}

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
  const maxSessions = options.maxSessions ?? 64;
  const sessionIdleMs = options.sessionIdleMs ?? 30 * 60_000;
  if (!Number.isSafeInteger(maxSessions) || maxSessions < 1) {
    throw new RangeError(`maxSessions must be a whole number of at least 1, got ${maxSessions}`);
  }
  if (!Number.isFinite(sessionIdleMs) || sessionIdleMs <= 0) {
    throw new RangeError(`sessionIdleMs must be a positive number, got ${sessionIdleMs}`);
  }
  /** Open sessions; a session id is used only by the principal that initialized it (`owner`). */
  const sessions = new Map<string, Session>();
  /** Sessions each principal is opening now (initialize sent, not yet answered). */
  const opening = new Map<string, number>();
  const closeSession = (id: string, session: Session): void => {
    if (sessions.get(id) === session) sessions.delete(id);
    session.transport.close().catch(() => undefined);
  };
  const closeIdle = (): void => {
    const now = Date.now();
    for (const [id, session] of sessions) {
      if (session.running === 0 && now - session.lastUsedAt >= sessionIdleMs) {
        closeSession(id, session);
      }
    }
  };
  const idleSweep = setInterval(closeIdle, Math.max(250, Math.min(60_000, sessionIdleMs / 4)));
  idleSweep.unref();
  /**
   * Makes room for one more session of `owner`, closing its least recently used idle sessions:
   * false (and nothing closed) when too few of its sessions are idle.
   */
  const roomFor = (owner: string): boolean => {
    const own = [...sessions].filter(([, session]) => session.owner === owner);
    const excess = own.length + (opening.get(owner) ?? 0) + 1 - maxSessions;
    if (excess <= 0) return true;
    const idle = own
      .filter(([, session]) => session.running === 0)
      .sort(([, a], [, b]) => a.lastUsedAt - b.lastUsedAt);
    if (idle.length < excess) return false;
    for (const [id, session] of idle.slice(0, excess)) closeSession(id, session);
    return true;
  };
  const changeOpening = (owner: string, by: number): void => {
    const count = (opening.get(owner) ?? 0) + by;
    if (count <= 0) opening.delete(owner);
    else opening.set(owner, count);
  };
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
    const target = requestTarget(req.url, allowedHosts);
    if (target.kind === "bad") return sendJson(res, 400, rpcError(-32600, target.message));
    if (target.pathname !== path)
      return sendJson(res, 404, rpcError(-32601, `Not found: MCP is served on ${path}`));
    // The SDK builds each request's URL from this host's address and `req.url`: an absolute-form
    // target (`POST http://127.0.0.1/mcp`, as a proxy may send it) would not parse.
    req.url = target.originForm;
    if (validateHost !== undefined && !validateHost(req, res)) return;
    if (validateOrigin !== undefined && !validateOrigin(req, res)) return;
    const checked = await authenticate(req, token, options.verifier);
    if (checked.kind === "unavailable") {
      options.onError?.(checked.error);
      res.setHeader("Retry-After", "5");
      return sendJson(
        res,
        503,
        rpcError(
          -32001,
          `The access token could not be checked (${checked.error.message}); try again later.`,
        ),
      );
    }
    if (checked.kind === "refused") return refuse(res, checked, options.verifier !== undefined);
    const auth = checked.auth;
    if (auth !== undefined) (req as IncomingMessage & { auth?: AuthInfo }).auth = auth;

    let body: unknown;
    if (req.method === "POST") {
      const read = await readBody(req, maxBytes);
      if (read.kind === "too-large") {
        // The rest of the body is not read: the connection cannot carry another request.
        res.setHeader("Connection", "close");
        return sendJson(res, 413, rpcError(-32600, `Request body over ${maxBytes} bytes`));
      }
      try {
        body = JSON.parse(read.text);
      } catch (error) {
        return sendJson(res, 400, rpcError(-32700, `Parse error: ${(error as Error).message}`));
      }
      if (nestsDeeperThan(body, MAX_MESSAGE_DEPTH)) {
        return sendJson(res, 400, rpcError(-32600, tooDeepMessage));
      }
      const refused = malformedEnvelopes(body);
      if (refused !== undefined) return sendJson(res, 400, refused);
    }

    const probe = await toWebRequest(req, body ?? null);
    if (!(await isLegacyRequest(probe, body ?? null))) {
      await modernNode(req, res, body);
      return;
    }
    const sessionId = header(req, "mcp-session-id");
    const owner = principalOf(auth);
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // Another user's session (its id leaked, or was logged) is answered as one that does not
      // exist: its elicitations, session-scoped approvals and calls stay its owner's.
      if (session === undefined || session.owner !== owner) {
        return sendJson(res, 404, rpcError(-32001, "Session not found: initialize again"));
      }
      // A client that left while the request was read (say, during a token's introspection) has
      // nothing to be answered; its 'close' has fired already, and would not end this request.
      if (res.destroyed || res.socket?.destroyed !== false) return;
      const ids = requestIdsOf(body);
      const repeated = ids.find((id) => session.inFlight.has(id));
      if (repeated !== undefined) {
        // The SDK keys a request's answer by its id: the first POST would never be answered.
        return sendJson(res, 409, {
          jsonrpc: "2.0",
          id: repeated,
          error: {
            code: -32600,
            message: `Invalid Request: a request with id ${JSON.stringify(repeated)} is still in flight on this session; give each request an id of its own`,
          },
        });
      }
      for (const id of ids) session.inFlight.add(id);
      session.running++;
      session.lastUsedAt = Date.now();
      res.once("close", () => {
        session.running--;
        session.lastUsedAt = Date.now();
        for (const id of ids) session.inFlight.delete(id);
        // The client closed its request before the answer: with no event store to resume the
        // stream from, nobody can receive it, so the call is cancelled (and audited so), as on
        // stdio and for 2026-07-28 requests.
        if (!res.writableFinished) cancelRequests(session.transport, ids);
      });
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== "POST" || !isInitializing(body)) {
      return sendJson(
        res,
        400,
        rpcError(-32000, "Bad Request: no session id, and not an initialize request"),
      );
    }
    if (!roomFor(owner)) {
      res.setHeader("Retry-After", "5");
      return sendJson(
        res,
        503,
        rpcError(
          -32000,
          `Too many sessions: this client may have ${maxSessions} at once, and none of its sessions is idle. End one (DELETE with its Mcp-Session-Id) or wait for one to finish.`,
        ),
      );
    }
    // Counted as opening until the SDK accepts the initialize and the session is registered (as
    // running, until this initialize's answer is sent).
    let session: Session | undefined;
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        session = { transport, owner, lastUsedAt: Date.now(), running: 1, inFlight: new Set() };
        sessions.set(id, session);
        changeOpening(owner, -1);
      },
      onsessionclosed: (id) => {
        sessions.delete(id);
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && sessions.get(id)?.transport === transport) sessions.delete(id);
    };
    changeOpening(owner, 1);
    try {
      const server = mcp.createServer({ era: "legacy" });
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    } finally {
      if (session === undefined) {
        // The SDK refused the initialize (a wrong Accept or Content-Type, a batch): its server
        // must not stay connected, unseen by any count.
        changeOpening(owner, -1);
        await transport.close().catch(() => undefined);
      } else {
        session.running--;
        session.lastUsedAt = Date.now();
      }
    }
  };

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onError?.(error instanceof Error ? error : new Error(String(error)));
      if (!res.headersSent) sendJson(res, 500, rpcError(-32603, "Internal error"));
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", (error) => {
      clearInterval(idleSweep);
      reject(error);
    });
    http.listen(options.port ?? 0, host, () => {
      http.removeAllListeners("error");
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
      clearInterval(idleSweep);
      await Promise.all(
        [...sessions.values()].map((s) => s.transport.close().catch(() => undefined)),
      );
      await modern.close().catch(() => undefined);
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A request target read: its origin form (path and query) and path, or why it is refused. */
type RequestTarget =
  | { readonly kind: "ok"; readonly originForm: string; readonly pathname: string }
  | { readonly kind: "bad"; readonly message: string };

/**
 * The request target `target` (RFC 9112, section 3.2) as a path and query: origin form
 * (`/mcp?x`) as it is; absolute form (`http://127.0.0.1:7000/mcp`) by its path and query when it
 * names an allowed host; anything else (`*`, an empty target, another host) is refused.
 */
function requestTarget(
  target: string | undefined,
  allowedHosts: readonly string[] | undefined,
): RequestTarget {
  const raw = target ?? "";
  const shown = raw.length > 100 ? `${raw.slice(0, 100)}...` : raw;
  const bad = (why: string): RequestTarget => ({
    kind: "bad",
    message: `Bad Request: the request target '${shown}' ${why}. Send requests to this server's MCP path (for example POST /mcp).`,
  });
  if (raw.startsWith("/")) {
    const url = parsedUrl(`http://localhost${raw}`);
    return url === undefined
      ? bad("is not a valid path")
      : { kind: "ok", originForm: raw, pathname: url.pathname };
  }
  const url = /^https?:\/\//i.test(raw) ? parsedUrl(raw) : undefined;
  if (url === undefined) return bad("is not a path nor an http URL");
  const hosts = allowedHosts?.map((h) => h.toLowerCase());
  if (hosts !== undefined && !hosts.includes(url.hostname)) return bad("names another host");
  return { kind: "ok", originForm: `${url.pathname}${url.search}`, pathname: url.pathname };
}

function parsedUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/**
 * The answer to a body whose messages (one, or a batch) include one with a malformed envelope
 * (see {@link requestShapeProblem}), or undefined when none has. A batch is refused whole, every
 * request in it answered: the malformed ones with their problem, the others as not run.
 */
function malformedEnvelopes(body: unknown): unknown {
  const messages: unknown[] = Array.isArray(body) ? body : [body];
  const problems = messages.map((m) => (hasMethod(m) ? requestShapeProblem(m) : undefined));
  if (problems.every((problem) => problem === undefined)) return undefined;
  const answers = messages.flatMap((message, i) => {
    const problem = problems[i];
    const isRequest = typeof message === "object" && message !== null && "id" in message;
    if (problem === undefined && !isRequest) return [];
    return [
      {
        jsonrpc: "2.0",
        id: requestId(message),
        error: {
          code: -32600,
          message:
            problem === undefined
              ? "Invalid Request: not run, another message of its batch is malformed"
              : `Invalid Request: ${problem}`,
        },
      },
    ];
  });
  return Array.isArray(body) ? answers : answers[0];
}

/** The ids of the JSON-RPC requests in a POST's body (one message or a batch). */
function requestIdsOf(body: unknown): (string | number)[] {
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== "object" || message === null) continue;
    const { id, method } = message as { id?: unknown; method?: unknown };
    if (typeof method === "string" && (typeof id === "string" || typeof id === "number")) {
      ids.push(id);
    }
  }
  return ids;
}

/** Tells the session's server that its client cancelled `ids`, as a `notifications/cancelled` would. */
function cancelRequests(
  transport: NodeStreamableHTTPServerTransport,
  ids: readonly (string | number)[],
): void {
  for (const requestId of ids) {
    try {
      transport.onmessage?.({
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId, reason: "The client closed its request before the answer" },
      });
    } catch {
      // The session is closing: its requests end with it.
    }
  }
}

function isInitializing(body: unknown): boolean {
  return Array.isArray(body) ? body.some((m) => isInitializeRequest(m)) : isInitializeRequest(body);
}

/** What a request's credentials came to. */
type Authentication =
  | { readonly kind: "ok"; readonly auth: AuthInfo | undefined }
  /** `sent`: whether it carried a bearer token at all; `why` and `scopes` for an access token. */
  | {
      readonly kind: "refused";
      readonly sent: boolean;
      readonly why?: string;
      readonly missingScopes?: readonly string[];
    }
  | { readonly kind: "unavailable"; readonly error: Error };

async function authenticate(
  req: IncomingMessage,
  token: string | undefined,
  verifier: OAuthTokenVerifier | undefined,
): Promise<Authentication> {
  if (token === undefined && verifier === undefined) return { kind: "ok", auth: undefined };
  const value = header(req, "authorization");
  const match = value === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(value);
  if (match === null) return { kind: "refused", sent: false };
  const sent = match[1]!;
  if (verifier !== undefined) {
    try {
      const info = await verifier.verifyAccessToken(sent);
      if (info.expiresAt !== undefined && info.expiresAt * 1000 < Date.now()) {
        return { kind: "refused", sent: true, why: "The access token has expired" };
      }
      return { kind: "ok", auth: info };
    } catch (error) {
      if (error instanceof IntrospectionUnavailableError) return { kind: "unavailable", error };
      if (error instanceof AccessTokenRefusedError) {
        return {
          kind: "refused",
          sent: true,
          why: error.message,
          missingScopes: error.missingScopes,
        };
      }
      return { kind: "refused", sent: true };
    }
  }
  const a = Buffer.from(sent);
  const b = Buffer.from(token!);
  return a.length === b.length && timingSafeEqual(a, b)
    ? { kind: "ok", auth: undefined }
    : { kind: "refused", sent: true };
}

/**
 * A refusal as RFC 6750 words it: 401 with `WWW-Authenticate: Bearer`, `error="invalid_token"`
 * when a token was sent; 403 `insufficient_scope` for a good token without a required scope. The
 * message says what to send: the token aintern printed, or (OAuth) a valid access token.
 */
function refuse(
  res: ServerResponse,
  refusal: {
    readonly sent: boolean;
    readonly why?: string;
    readonly missingScopes?: readonly string[];
  },
  oauth: boolean,
): void {
  const scopes = refusal.missingScopes ?? [];
  const quoted = (text: string) => text.replace(/["\\]/g, "'");
  const challenge = ['Bearer realm="aintern"'];
  if (scopes.length > 0) {
    challenge.push('error="insufficient_scope"', `scope="${quoted(scopes.join(" "))}"`);
  } else if (refusal.sent) challenge.push('error="invalid_token"');
  if (refusal.why !== undefined) challenge.push(`error_description="${quoted(refusal.why)}"`);
  res.setHeader("WWW-Authenticate", challenge.join(", "));
  const what = oauth
    ? "Send a valid access token (Authorization: Bearer <token>)."
    : "Send the bearer token aintern printed at start (Authorization: Bearer <token>).";
  const why = refusal.why === undefined ? "" : ` ${refusal.why}.`;
  const status = scopes.length > 0 ? 403 : 401;
  const title = status === 403 ? "Forbidden" : "Unauthorized";
  sendJson(res, status, rpcError(-32001, `${title}:${why} ${what}`));
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
