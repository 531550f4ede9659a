// `aintern mcp --http` driven by the official SDK client over Streamable HTTP.
import type { Client } from "@modelcontextprotocol/client";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  connectHttp,
  type ElicitAnswer,
  eventually,
  fixtureTools,
  type HttpServerProcess,
  makeWorkspace,
  newClient,
  startHttpServer,
  textOf,
} from "./mcp-support.js";

describe("aintern mcp over Streamable HTTP", () => {
  let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
  let server: HttpServerProcess;
  let db: string;
  const clients: Client[] = [];

  const connected = async (answer?: { current: ElicitAnswer | undefined }): Promise<Client> => {
    const client = newClient(answer);
    await connectHttp(client, server);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    workspace = await makeWorkspace();
    db = `sqlite:${workspace.path}/.aintern/audit.db`;
    server = await startHttpServer(["--workspace", workspace.path, "--tools", fixtureTools]);
  }, 60_000);

  /** The headers of a raw JSON-RPC POST with the server's token, plus `extra`. */
  const postHeaders = (extra: Record<string, string> = {}): Record<string, string> => ({
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
    Authorization: `Bearer ${server.token}`,
    ...extra,
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    await server?.stop();
    await workspace?.remove();
  });

  it("refuses a request without the bearer token printed at start", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/Bearer/);
    expect(server.token).toMatch(/^\S{20,}$/);
  });

  it("lists and calls tools in a session", async () => {
    const client = await connected();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["count", "echo", "hang", "touch"]);
    const result = await client.callTool({ name: "echo", arguments: { text: "over http" } });
    expect(result.structuredContent).toEqual({ text: "over http" });
  });

  it("keeps two clients with the same request ids apart", async () => {
    const [a, b] = await Promise.all([connected(), connected()]);
    // Both clients number their requests the same way; each must get its own answers.
    for (let round = 0; round < 3; round++) {
      const [ra, rb] = await Promise.all([
        a!.callTool({ name: "echo", arguments: { text: `A${round}`, delayMs: 50 } }),
        b!.callTool({ name: "echo", arguments: { text: `B${round}`, delayMs: 10 } }),
      ]);
      expect(ra.structuredContent).toEqual({ text: `A${round}` });
      expect(rb.structuredContent).toEqual({ text: `B${round}` });
    }
  });

  it("asks by form elicitation over HTTP and honours the answer", async () => {
    const answer: { current: ElicitAnswer | undefined } = {
      current: () => ({ action: "accept", content: { decision: "approve_once" } }),
    };
    const client = await connected(answer);
    const approved = await client.callTool({ name: "touch", arguments: { path: "a" } });
    expect(approved.structuredContent).toEqual({ touched: "a" });
    answer.current = () => ({ action: "accept", content: { decision: "deny", reason: "no" } });
    const denied = await client.callTool({ name: "touch", arguments: { path: "b" } });
    expect(denied.isError).toBe(true);
  });

  it("denies what needs approval for a client that cannot show forms, saying how to allow it", async () => {
    const client = await connected();
    const result = await client.callTool({ name: "touch", arguments: { path: "c" } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /needs approval.*does not support form elicitation.*aintern\.config\.json/s,
    );
  });

  it("answers malformed JSON with a parse error and keeps serving", async () => {
    const response = await fetch(server.url, {
      method: "POST",
      headers: postHeaders(),
      body: '{"jsonrpc":"2.0","id":1,"method":',
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: -32700 } });
    const client = await connected();
    expect(
      (await client.callTool({ name: "echo", arguments: { text: "ok" } })).structuredContent,
    ).toEqual({ text: "ok" });
  });

  it("names the field at fault in one line, never a schema dump, for a malformed request in a session", async () => {
    const client = await connected();
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    /** POSTs `body` on the session; its status and the JSON-RPC answer (from JSON or SSE). */
    const postRaw = async (body: unknown, version = "2025-06-18") => {
      const response = await fetch(server.url, {
        method: "POST",
        headers: postHeaders({ "Mcp-Session-Id": sessionId, "Mcp-Protocol-Version": version }),
        body: JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        answer: JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text),
      };
    };
    const post = async (id: number, method: string, params: unknown) => {
      const { status, answer } = await postRaw({ jsonrpc: "2.0", id, method, params });
      return { status, error: (answer as { error: { code: number; message: string } }).error };
    };
    const badName = await post(1, "tools/call", { name: 42 });
    expect(badName.error).toEqual({
      code: -32602,
      message: "Invalid tools/call request: params.name: expected string, received number",
    });
    const badCursor = await post(2, "tools/list", { cursor: 5 });
    expect(badCursor.error).toEqual({
      code: -32602,
      message: "Invalid params: params.cursor: expected string, received number",
    });
    const badToken = await post(3, "tools/call", {
      name: "echo",
      arguments: { text: "x" },
      _meta: { progressToken: { a: 1 } },
    });
    expect(badToken).toEqual({
      status: 400,
      error: {
        code: -32600,
        message:
          "Invalid Request: params._meta.progressToken: expected a string or an integer, received an object",
      },
    });
    // A batch with one malformed member is refused whole, each of its requests answered.
    const batch = await postRaw(
      [
        { jsonrpc: "2.0", id: 4, method: "ping" },
        { jsonrpc: "2.0", id: 5, method: "ping", params: { _meta: { progressToken: 1.5 } } },
        {
          jsonrpc: "2.0",
          method: "notifications/progress",
          params: { progressToken: 1, progress: 1 },
        },
      ],
      "2025-03-26",
    );
    expect(batch.status).toBe(400);
    expect(batch.answer).toEqual([
      {
        jsonrpc: "2.0",
        id: 4,
        error: {
          code: -32600,
          message: "Invalid Request: not run, another message of its batch is malformed",
        },
      },
      {
        jsonrpc: "2.0",
        id: 5,
        error: {
          code: -32600,
          message:
            "Invalid Request: params._meta.progressToken: expected a string or an integer, received a number that is not an integer",
        },
      },
    ]);
    expect(
      (await client.callTool({ name: "echo", arguments: { text: "ok" } })).structuredContent,
    ).toEqual({ text: "ok" });
  });

  it("cancels and audits a call whose client ends its session mid-call", async () => {
    const client = newClient();
    const transport = new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: { Authorization: `Bearer ${server.token}` } },
    });
    await client.connect(transport);
    const pending = client
      .callTool({ name: "echo", arguments: { text: "abandoned", delayMs: 30_000 } })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 500));
    await transport.terminateSession();
    await client.close();
    await pending;
    const row = await eventually(async () => {
      const found = (await auditRows(db)).find(
        (r) => r.toolName === "echo" && r.status === "cancelled",
      );
      expect(found).toBeDefined();
      return found!;
    });
    expect(row.wasCancelled).toBe(true);
  }, 60_000);
});
