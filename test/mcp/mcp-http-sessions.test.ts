// The 2025-era sessions of `serveMcpHttp`: a client cannot keep an unbounded number open, and a
// session nobody uses is closed. Raw HTTP, as a client no one here wrote would send it.
import { connect } from "node:net";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type McpRuntime, openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { AinternMcpServer, type McpHttpHandle, serveMcpHttp } from "../../src/mcp/index.js";
import { eventually, legacyInitialize, makeWorkspace, postLegacy } from "./mcp-support.js";

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let runtime: McpRuntime;
let mcp: AinternMcpServer;
let http: McpHttpHandle | undefined;

beforeEach(async () => {
  workspace = await makeWorkspace();
  runtime = await openMcpRuntime({ workspace: workspace.path });
  mcp = new AinternMcpServer({ registry: runtime.registry, processor: runtime.processor });
});

afterEach(async () => {
  await http?.close();
  http = undefined;
  await mcp.close();
  await runtime.close();
  await workspace.remove();
});

function post(
  body: unknown,
  sessionId?: string,
  token = "the-session-token",
  signal?: AbortSignal,
): Promise<Response> {
  return postLegacy(http!.url, body, {
    token,
    ...(sessionId === undefined ? {} : { sessionId }),
    ...(signal === undefined ? {} : { signal }),
  });
}

const initialize = legacyInitialize("sessions");

/** Opens a 2025-era session; resolves with its id. */
async function openSession(token?: string): Promise<string> {
  const response = await post(initialize, undefined, token);
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get("mcp-session-id");
  expect(id).toBeTruthy();
  return id!;
}

const listTools = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };

/** Opens the session's GET stream (a request that runs as long as the client listens). */
function listen(sessionId: string, signal: AbortSignal, token = "the-session-token") {
  return fetch(http!.url, {
    method: "GET",
    headers: {
      authorization: `Bearer ${token}`,
      accept: "text/event-stream",
      "mcp-protocol-version": "2025-11-25",
      "mcp-session-id": sessionId,
    },
    signal,
  });
}

/**
 * Holds every new session's server at its start until `release` (each initialize is then in the
 * middle of opening); `starting` counts those held.
 */
function holdSessionStarts(): { release: () => void; starting: () => number; restore: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const createServer = mcp.createServer.bind(mcp);
  let starting = 0;
  mcp.createServer = (context) => {
    const server = createServer(context);
    const connect = server.connect.bind(server);
    server.connect = async (transport) => {
      starting++;
      await gate;
      return connect(transport);
    };
    return server;
  };
  return {
    release,
    starting: () => starting,
    restore: () => {
      mcp.createServer = createServer;
    },
  };
}

describe("2025-era sessions over HTTP", () => {
  it("closes a client's least recently used session when it opens one past the limit", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token", maxSessions: 2 });
    const first = await openSession();
    const second = await openSession();
    // The first is used again: the second is now the least recently used.
    expect((await post(listTools, first)).status).toBe(200);
    const third = await openSession();
    expect(http.sessionCount).toBe(2);
    const onSecond = await post(listTools, second);
    expect(onSecond.status).toBe(404);
    expect(await onSecond.text()).toContain("Session not found");
    for (const id of [first, third]) expect((await post(listTools, id)).status).toBe(200);
  });

  it("keeps the limit when many sessions are opened at once: those past it are refused while the others open", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token", maxSessions: 3 });
    const held = holdSessionStarts();
    let answered = 0;
    const pending = Array.from({ length: 8 }, () =>
      post(initialize).then((response) => {
        answered++;
        return response;
      }),
    );
    // Three are opening (held at the gate); the five past the limit are answered meanwhile.
    await eventually(() => expect([held.starting(), answered]).toEqual([3, 5]));
    held.release();
    const statuses = (await Promise.all(pending)).map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 503, 503, 503, 503, 503]);
    expect(http.sessionCount).toBe(3);
  });

  it("refuses a new session with 503 when every one of the client's sessions has a request running", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token", maxSessions: 1 });
    const busy = await openSession();
    const listening = new AbortController();
    const stream = await listen(busy, listening.signal);
    expect(stream.status).toBe(200);
    const refused = await post(initialize);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.text()).toMatch(
      /Too many sessions: this client may have 1 at once, and none of its sessions is idle/,
    );
    expect((await post(listTools, busy)).status).toBe(200);
    listening.abort();
    await stream.body?.cancel().catch(() => undefined);
    // The stream ended: the session is idle, and a new one takes its place.
    await eventually(async () => {
      const next = await openSession();
      expect((await post(listTools, next)).status).toBe(200);
    });
    expect((await post(listTools, busy)).status).toBe(404);
  });

  it("counts each client's sessions apart: one client's sessions do not close another's", async () => {
    const tokens: Record<string, { sub: string }> = {
      "alice-token": { sub: "alice" },
      "bob-token": { sub: "bob" },
    };
    http = await serveMcpHttp(mcp, {
      maxSessions: 1,
      verifier: {
        async verifyAccessToken(token) {
          const who = tokens[token];
          if (who === undefined) throw new Error("unknown token");
          return { token, clientId: "c", scopes: [], extra: { sub: who.sub } };
        },
      },
    });
    const alice = await openSession("alice-token");
    for (let i = 0; i < 3; i++) await openSession("bob-token");
    expect((await post(listTools, alice, "alice-token")).status).toBe(200);
  });

  it("closes a session no request has used for the idle time", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token", sessionIdleMs: 300 });
    const idle = await openSession();
    const used = await openSession();
    const started = Date.now();
    // One session keeps being used, the other not.
    while (Date.now() - started < 900) {
      expect((await post(listTools, used)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await eventually(() => expect(http!.sessionCount).toBe(1));
    expect((await post(listTools, idle)).status).toBe(404);
    expect((await post(listTools, used)).status).toBe(200);
  });

  it("leaves no server behind for an initialize the SDK refuses", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token", maxSessions: 2 });
    const before = mcp.connectionCount;
    for (let i = 0; i < 5; i++) {
      const refused = await fetch(http.url, {
        method: "POST",
        headers: {
          authorization: "Bearer the-session-token",
          "content-type": "application/json",
          accept: "application/json", // the SDK wants text/event-stream too: 406
          "mcp-protocol-version": "2025-11-25",
        },
        body: JSON.stringify(initialize),
      });
      expect(refused.status).toBe(406);
      await refused.text();
    }
    await eventually(() => expect(mcp.connectionCount).toBe(before));
    // Nor do they count against the limit.
    await openSession();
    await openSession();
    expect(http.sessionCount).toBe(2);
  });

  it("refuses a new session while the others are busy or still opening, closing none of them", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token", maxSessions: 2 });
    const idle = await openSession();
    const busy = await openSession();
    const listening = new AbortController();
    const stream = await listen(busy, listening.signal);
    expect(stream.status).toBe(200);
    try {
      // One more fits by closing `idle`; two more at once (the first still opening) do not.
      const held = holdSessionStarts();
      const opening = post(initialize);
      await eventually(() => expect(http!.sessionCount).toBe(1)); // idle made room for it
      held.restore();
      const refused = await post(initialize);
      expect(refused.status).toBe(503);
      await refused.text();
      held.release();
      expect((await opening).status).toBe(200);
      // The one that opened took the idle session's place; the busy one is kept.
      expect((await post(listTools, idle)).status).toBe(404);
      expect((await post(listTools, busy)).status).toBe(200);
    } finally {
      listening.abort();
      await stream.body?.cancel().catch(() => undefined);
    }
  });

  it("counts a request as ended when its client left while it was being read", async () => {
    let slow = false;
    http = await serveMcpHttp(mcp, {
      maxSessions: 1,
      verifier: {
        async verifyAccessToken(token) {
          if (slow) await new Promise((resolve) => setTimeout(resolve, 300));
          return { token, clientId: "c", scopes: [], extra: { sub: "alice" } };
        },
      },
    });
    const session = await openSession("alice-token");
    slow = true;
    const leaving = new AbortController();
    // A GET (its stream of server messages): no body to read, so it reaches the session.
    const left = listen(session, leaving.signal, "alice-token").catch(() => "left");
    setTimeout(() => leaving.abort(), 50);
    expect(await left).toBe("left");
    await new Promise((resolve) => setTimeout(resolve, 400));
    slow = false;
    // The session is idle, not stuck busy: a new one takes its place instead of a 503.
    await openSession("alice-token");
    expect((await post(listTools, session, "alice-token")).status).toBe(404);
  });

  it("refuses limits that cannot work", async () => {
    await expect(serveMcpHttp(mcp, { maxSessions: 0 })).rejects.toThrow(/maxSessions/);
    await expect(serveMcpHttp(mcp, { sessionIdleMs: -1 })).rejects.toThrow(/sessionIdleMs/);
  });
});

describe("session approvals over HTTP", () => {
  it("forgets a session's approvals when its client ends the session (DELETE)", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token" });
    const client = new Client(
      { name: "session-approver", version: "1" },
      { capabilities: { elicitation: { form: {} } } },
    );
    client.setRequestHandler("elicitation/create", async () => ({
      action: "accept",
      content: { decision: "approve_session" },
    }));
    const transport = new StreamableHTTPClientTransport(new URL(http.url), {
      requestInit: { headers: { Authorization: "Bearer the-session-token" } },
    });
    await client.connect(transport);
    const result = await client.callTool({
      name: "terminal-execute",
      arguments: { command: "touch a.txt" },
    });
    expect(result.isError).toBeFalsy();
    expect(await runtime.permissions.list()).toHaveLength(1);
    await transport.terminateSession();
    await client.close();
    await eventually(async () => expect(await runtime.permissions.list()).toEqual([]));
  });
});

/** Sends `head` (a request line and headers) as it is and resolves with the response's status. */
function rawStatus(head: string, body = ""): Promise<number> {
  const { hostname, port } = new URL(http!.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(`${head}\r\n\r\n${body}`));
    let text = "";
    socket.on("data", (chunk) => {
      text += chunk.toString();
    });
    socket.on("error", reject);
    socket.on("close", () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(text)?.[1];
      if (status === undefined) reject(new Error(`No HTTP status in: ${text.slice(0, 200)}`));
      else resolve(Number(status));
    });
  });
}

describe("odd request targets", () => {
  const body = JSON.stringify(initialize);
  const head = (target: string, host = "127.0.0.1") =>
    [
      `POST ${target} HTTP/1.1`,
      `Host: ${host}`,
      "Authorization: Bearer the-session-token",
      "Content-Type: application/json",
      "Accept: application/json, text/event-stream",
      `Content-Length: ${Buffer.byteLength(body)}`,
      "Connection: close",
    ].join("\r\n");

  it("serves an absolute-form target naming this host by its path", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token" });
    const { host } = new URL(http.url);
    expect(await rawStatus(head(`http://${host}/mcp`), body)).toBe(200);
    expect(await rawStatus(head("http://127.0.0.1/mcp"), body)).toBe(200);
    expect(await rawStatus(head(`HTTP://${host}/mcp`), body)).toBe(200);
    expect(await rawStatus(head(`http://${host}/other`), body)).toBe(404);
  });

  it("answers other odd targets with 4xx, never 500", async () => {
    http = await serveMcpHttp(mcp, { token: "the-session-token" });
    expect(await rawStatus(head("http://attacker.example/mcp"), body)).toBe(400);
    expect(await rawStatus(head("*"), body)).toBe(400);
    expect(await rawStatus(head("//mcp"), body)).toBe(404);
    expect(await rawStatus(head("mcp"), body)).toBe(400);
    expect(await rawStatus(head("http://[/mcp"), body)).toBe(400);
    const long = await rawStatus(head(`/mcp?${"x".repeat(20_000)}`), body);
    expect(long).toBeGreaterThanOrEqual(400);
    expect(long).toBeLessThan(500);
  });
});
