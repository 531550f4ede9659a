// 2025-era sessions over HTTP: a POST its client drops before the answer, and two POSTs with one
// request id (red team, session 19: the first kept running to the end and was audited as
// completed with an answer nobody got; the second made the first POST hang for minutes).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type McpRuntime, openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { AinternMcpServer, type McpHttpHandle, serveMcpHttp } from "../../src/mcp/index.js";
import { eventually, legacyInitialize, makeWorkspace, postLegacy } from "./mcp-support.js";

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let runtime: McpRuntime;
let mcp: AinternMcpServer;
let http: McpHttpHandle;
const token = "the-dropping-token";

beforeEach(async () => {
  workspace = await makeWorkspace();
  runtime = await openMcpRuntime({ workspace: workspace.path, approvals: "deny" });
  mcp = new AinternMcpServer({ registry: runtime.registry, processor: runtime.processor });
  http = await serveMcpHttp(mcp, { token });
});

afterEach(async () => {
  await http.close();
  await mcp.close();
  await runtime.close();
  await workspace.remove();
});

async function openSession(): Promise<string> {
  const response = await postLegacy(http.url, legacyInitialize("dropping"), { token });
  expect(response.status).toBe(200);
  await response.text();
  const sessionId = response.headers.get("mcp-session-id") as string;
  await postLegacy(
    http.url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { token, sessionId },
  );
  return sessionId;
}

/** Resolves when the executor has started a call (the POST is with the server by then). */
function started(): Promise<void> {
  return new Promise((resolve) => {
    const off = runtime.executor.events.on("executionStarted", () => {
      off();
      resolve();
    });
  });
}

const sleepCall = (id: number, seconds: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "terminal-execute", arguments: { command: `sleep ${seconds}` } },
});

describe("aintern mcp over HTTP, 2025-era sessions", () => {
  it("cancels a call whose client dropped its POST, and audits it so", async () => {
    const sessionId = await openSession();
    const drop = new AbortController();
    const began = Date.now();
    const running = started();
    const pending = postLegacy(http.url, sleepCall(7, 20), {
      token,
      sessionId,
      signal: drop.signal,
    });
    // The call is running (its command sleeps 20 s) when the client gives up on it.
    await running;
    drop.abort();
    await pending.then((r) => r.text()).catch(() => undefined);
    const row = await eventually(async () => {
      const { entries } = await runtime.store.audit.query({});
      expect(entries).toHaveLength(1);
      return entries[0]!;
    });
    expect(row.status).toBe("cancelled");
    expect(Date.now() - began).toBeLessThan(15_000);
  }, 30_000);

  it("refuses a body nested too deep with 400 and -32600, not a 500", async () => {
    const sessionId = await openSession();
    // Written as text: JSON.stringify itself overflows the stack on such a value.
    const deep = `${'{"a":'.repeat(5_000)}"x"${"}".repeat(5_000)}`;
    const response = await fetch(http.url, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2025-11-25",
        "mcp-session-id": sessionId,
      },
      body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"file-read","arguments":{"path":${deep}}}}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("nests more than") },
    });
  });

  it("closes the connection after a body over the limit, so the client's next request gets a fresh one", async () => {
    // Red team (session 19): the 413 said keep-alive, and the next request on that socket was
    // reset (fetch) or never answered.
    const small = await serveMcpHttp(mcp, { token, maxRequestBytes: 1024 });
    try {
      const big = await postLegacy(
        small.url,
        { ...legacyInitialize("big"), pad: "x".repeat(4096) },
        { token },
      );
      expect(big.status).toBe(413);
      expect(big.headers.get("connection")).toBe("close");
      await big.text();
      const next = await postLegacy(small.url, legacyInitialize("next"), { token });
      expect(next.status).toBe(200);
      await next.text();
    } finally {
      await small.close();
    }
  });

  it("refuses a second POST with the id of a request still in flight, and answers the first", async () => {
    const sessionId = await openSession();
    const running = started();
    const first = postLegacy(http.url, sleepCall(9, 2), { token, sessionId });
    await running;
    const second = await postLegacy(http.url, sleepCall(9, 0), { token, sessionId });
    expect(second.status).toBe(409);
    expect(await second.json()).toMatchObject({
      id: 9,
      error: { code: -32600, message: expect.stringContaining("is still in flight") },
    });
    const answer = await first;
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain('"id":9');
    // Answered, the id is free again.
    const third = await postLegacy(http.url, sleepCall(9, 0), { token, sessionId });
    expect(third.status).toBe(200);
    expect(await third.text()).toContain('"id":9');
  }, 30_000);
});
