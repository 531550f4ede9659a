// A hostile (or careless) MCP client against the approval path: answers that grant more than the
// call shown, an approval sent again, a requestState carried to another user. The real runtime of
// `aintern mcp` (built-in tools, SQLite store) in process, over the SDK client and raw HTTP.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import type { AuthInfo } from "@modelcontextprotocol/server";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type McpRuntime, openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { AinternMcpServer, type McpHttpHandle, serveMcpHttp } from "../../src/mcp/index.js";
import { legacyInitialize, makeWorkspace, postLegacy, textOf } from "./mcp-support.js";

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let runtime: McpRuntime;
let mcp: AinternMcpServer;

beforeEach(async () => {
  workspace = await makeWorkspace();
  runtime = await openMcpRuntime({ workspace: workspace.path });
  mcp = new AinternMcpServer({ registry: runtime.registry, processor: runtime.processor });
});

afterEach(async () => {
  await mcp.close();
  await runtime.close();
  await workspace.remove();
});

type Answer = { action: "accept" | "decline"; content?: Record<string, string> };

/** An SDK client that shows forms, answering each with `answer.current`. */
async function formClient(answer: { current: Answer }): Promise<Client> {
  const client = new Client(
    { name: "hostile", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler("elicitation/create", async () => answer.current);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.createServer().connect(serverSide);
  await client.connect(clientSide);
  return client;
}

/** OAuth for two users of one shared client: alice-token is alice, bob-token is bob. */
const aliceAndBob = {
  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const users: Record<string, string> = { "alice-token": "alice", "bob-token": "bob" };
    const sub = users[token];
    if (sub === undefined) throw new Error("inactive");
    return { token, clientId: "shared-client", scopes: ["mcp"], extra: { sub } };
  },
};

describe("a form answer grants no more than the call it answers", () => {
  it("refuses a pattern that does not cover the call (rm * given on touch a.txt): no grant, and rm still asks", async () => {
    const answer = {
      current: {
        action: "accept",
        content: { decision: "approve_pattern", pattern: "rm *" },
      } as Answer,
    };
    const client = await formClient(answer);
    const touched = await client.callTool({
      name: "terminal-execute",
      arguments: { command: "touch a.txt" },
    });
    expect(touched.isError).toBe(true);
    expect(textOf(touched)).toContain("does not cover the call it was given for");
    expect(await runtime.permissions.list()).toEqual([]);

    // The rm is asked about (and declined), not run on the strength of the touch's answer.
    answer.current = { action: "decline" };
    const removed = await client.callTool({
      name: "terminal-execute",
      arguments: { command: "rm a.txt" },
    });
    expect(removed.isError).toBe(true);
    expect(textOf(removed)).toContain("declined");
    await client.close();
  });

  it("still remembers a pattern the person widened that covers the call", async () => {
    const client = await formClient({
      current: { action: "accept", content: { decision: "approve_pattern", pattern: "touch *" } },
    });
    const touched = await client.callTool({
      name: "terminal-execute",
      arguments: { command: "touch b.txt" },
    });
    expect(touched.isError).toBeFalsy();
    expect(await runtime.permissions.list()).toMatchObject([{ pattern: "touch *" }]);
    await client.close();
  });
});

/** The 2026-07-28 era over HTTP, recording every request body and its headers. */
async function modernClient(
  http: McpHttpHandle,
  token: string,
  sent: { body: string; headers: Record<string, string> }[],
): Promise<Client> {
  const client = new Client(
    { name: "hostile-2026", version: "1" },
    {
      capabilities: { elicitation: { form: {} } },
      versionNegotiation: { mode: { pin: "2026-07-28" } },
    },
  );
  client.setRequestHandler("elicitation/create", async () => ({
    action: "accept",
    content: { decision: "approve_once" },
  }));
  const recording: typeof fetch = async (url, init) => {
    if (init?.body !== undefined) {
      sent.push({
        body: String(init.body),
        headers: Object.fromEntries(new Headers(init.headers).entries()),
      });
    }
    return fetch(url, init);
  };
  await client.connect(
    new StreamableHTTPClientTransport(new URL(http.url), {
      fetch: recording,
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

/** Sends a recorded request again (a new JSON-RPC id), with `authorization` if given. */
async function resend(
  http: McpHttpHandle,
  request: { body: string; headers: Record<string, string> },
  id: number,
  authorization?: string,
): Promise<string> {
  const body = { ...(JSON.parse(request.body) as Record<string, unknown>), id };
  const response = await fetch(http.url, {
    method: "POST",
    headers: { ...request.headers, ...(authorization === undefined ? {} : { authorization }) },
    body: JSON.stringify(body),
  });
  return response.text();
}

describe("an answered approval is honoured once, for the user it was asked of", () => {
  it("runs an 'approve once' call once when the client sends its answered retry again", async () => {
    const http = await serveMcpHttp(mcp, { token: "the-token" });
    const sent: { body: string; headers: Record<string, string> }[] = [];
    const client = await modernClient(http, "the-token", sent);
    try {
      const result = await client.callTool({
        name: "terminal-execute",
        arguments: { command: "echo run >> log.txt" },
      });
      expect(result.isError).toBeFalsy();
      const retry = sent.find((s) => s.body.includes('"inputResponses"'));
      expect(retry).toBeDefined();
      for (const id of [1001, 1002]) {
        expect(await resend(http, retry!, id)).toContain("This approval was already used");
      }
      expect(await readFile(join(workspace.path, "log.txt"), "utf8")).toBe("run\n");
      // The call has its row; the replays add none.
      const rows = (await runtime.store.audit.query({ limit: 100 })).entries.filter(
        (e) => e.toolName === "terminal-execute",
      );
      expect(rows.map((r) => r.status)).toEqual(["completed"]);
    } finally {
      await client.close();
      await http.close();
    }
  });

  it("refuses one user's answered retry sent with another user's token (2026 requests have no session)", async () => {
    const http = await serveMcpHttp(mcp, { verifier: aliceAndBob });
    const sent: { body: string; headers: Record<string, string> }[] = [];
    // Alice is asked; her client answers the form (say, through a shared relay Bob can read).
    const alice = await modernClient(http, "alice-token", sent);
    try {
      const first = sent.length;
      await alice.callTool({
        name: "terminal-execute",
        arguments: { command: "echo alice >> log.txt" },
      });
      const retry = sent.slice(first).find((s) => s.body.includes('"inputResponses"'));
      expect(retry).toBeDefined();
      const asBob = await resend(http, retry!, 2001, "Bearer bob-token");
      expect(asBob).toContain('"error"');
      expect(asBob).not.toContain("Result: Success");
      expect(await readFile(join(workspace.path, "log.txt"), "utf8")).toBe("alice\n");
    } finally {
      await alice.close();
      await http.close();
    }
  });
});

describe("a 2025-era HTTP session belongs to the user who opened it", () => {
  it("answers another user's request on a session id it did not open as an unknown session", async () => {
    const http = await serveMcpHttp(mcp, { verifier: aliceAndBob });
    const post = (token: string, body: unknown, sessionId?: string) =>
      postLegacy(http.url, body, { token, ...(sessionId === undefined ? {} : { sessionId }) });
    try {
      const opened = await post(
        "alice-token",
        legacyInitialize("alice", { elicitation: { form: {} } }),
      );
      expect(opened.status).toBe(200);
      await opened.text();
      const sessionId = opened.headers.get("mcp-session-id");
      expect(sessionId).toBeTruthy();
      const list = { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} };
      const asBob = await post("bob-token", list, sessionId!);
      expect(asBob.status).toBe(404);
      expect(await asBob.text()).toContain("Session not found");
      const asAlice = await post("alice-token", list, sessionId!);
      expect(asAlice.status).toBe(200);
      expect(await asAlice.text()).toContain("terminal-execute");
    } finally {
      await http.close();
    }
  });
});

describe("a web page of another site against the loopback HTTP server", () => {
  it("refuses a request whose Origin is another site (403), also without a token to guess", async () => {
    const http = await serveMcpHttp(mcp, { token: false });
    const initialize = (origin?: string) =>
      fetch(http.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(origin === undefined ? {} : { origin }),
        },
        body: JSON.stringify(legacyInitialize("page")),
      });
    try {
      const evil = await initialize("https://attacker.example");
      expect(evil.status).toBe(403);
      expect((await initialize("http://localhost.attacker.example:8080")).status).toBe(403);
      expect((await initialize("http://localhost:6274")).status).toBe(200);
      expect((await initialize()).status).toBe(200);
    } finally {
      await http.close();
    }
  });
});

describe("a malformed 2026-07-28 request", () => {
  it("gets one line naming the field at fault, as a 2025-era one does", async () => {
    const http = await serveMcpHttp(mcp, { token: "the-token" });
    const sent: { body: string; headers: Record<string, string> }[] = [];
    const client = await modernClient(http, "the-token", sent);
    try {
      await client.callTool({ name: "list-directory", arguments: { path: "." } });
      const call = sent.find((s) => s.body.includes('"tools/call"'));
      expect(call).toBeDefined();
      const body = JSON.parse(call!.body) as { params: Record<string, unknown> };
      body.params.name = 42;
      const answer = await resend(http, { ...call!, body: JSON.stringify(body) }, 2001);
      expect(JSON.parse(answer)).toMatchObject({
        id: 2001,
        error: {
          code: -32602,
          message: "Invalid tools/call request: params.name: expected string, received number",
        },
      });
    } finally {
      await client.close();
      await http.close();
    }
  });
});
