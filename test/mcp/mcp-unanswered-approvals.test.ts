// A call whose person is asked and that ends without an answer (the client cancels it, leaves, or
// nobody answers in time) is in the audit like every other call. The real runtime of `aintern mcp`
// (built-in tools, SQLite store) in process, over the SDK client on both protocol eras.
import {
  Client,
  InMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type McpRuntime, openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import type { AuditEntry } from "../../src/execution/index.js";
import { AinternMcpServer, serveMcpHttp } from "../../src/mcp/index.js";
import { eventually, makeWorkspace, textOf } from "./mcp-support.js";

let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
let runtime: McpRuntime;
let mcp: AinternMcpServer;

const approvalTimeoutMs = 400;

beforeEach(async () => {
  workspace = await makeWorkspace();
  runtime = await openMcpRuntime({ workspace: workspace.path });
  mcp = new AinternMcpServer({
    registry: runtime.registry,
    processor: runtime.processor,
    approvalTimeoutMs,
  });
});

afterEach(async () => {
  await mcp.close();
  await runtime.close();
  await workspace.remove();
});

type Answer = { action: "accept" | "decline"; content?: Record<string, string> };

/** A 2025-era SDK client in process that shows forms, answering each with `answer`. */
async function formClient(answer: () => Promise<Answer>): Promise<Client> {
  const client = new Client(
    { name: "unanswered", version: "1" },
    { capabilities: { elicitation: { form: {} } } },
  );
  client.setRequestHandler("elicitation/create", () => answer());
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.createServer().connect(serverSide);
  await client.connect(clientSide);
  return client;
}

/** The audit rows of `terminal-execute` calls. */
async function rows(): Promise<AuditEntry[]> {
  const page = await runtime.store.audit.query({ limit: 100 });
  return page.entries.filter((e) => e.toolName === "terminal-execute");
}

const touchCall = { name: "terminal-execute", arguments: { command: "touch a.txt" } };

/** Resolves when the form is shown; the answer never comes. */
function formShown(): { shown: Promise<void>; answer: () => Promise<Answer> } {
  let show!: () => void;
  const shown = new Promise<void>((resolve) => {
    show = resolve;
  });
  return {
    shown,
    answer: () => {
      show();
      return new Promise<Answer>(() => undefined);
    },
  };
}

describe("a 2025-era call that ends while its form is open is audited", () => {
  it("records a call the client cancels while the form is open as cancelled", async () => {
    const form = formShown();
    const client = await formClient(form.answer);
    const cancel = new AbortController();
    const call = client.callTool(touchCall, { signal: cancel.signal });
    await form.shown;
    cancel.abort();
    await expect(call).rejects.toThrow();
    const [row] = await eventually(async () => {
      const found = await rows();
      expect(found).toHaveLength(1);
      return found;
    });
    expect(row).toMatchObject({ status: "cancelled", decision: "cancelled" });
    await client.close();
  });

  it("records a call whose client disconnects while the form is open as cancelled", async () => {
    const form = formShown();
    const client = await formClient(form.answer);
    const call = client.callTool(touchCall).catch((error: unknown) => error);
    await form.shown;
    await client.close();
    await call;
    const found = await eventually(async () => {
      const found = await rows();
      expect(found).toHaveLength(1);
      return found;
    });
    expect(found[0]).toMatchObject({ status: "cancelled", decision: "cancelled" });
  });

  it("denies a call nobody answers within approvalTimeoutMs, tells the model so, and records it as a timeout", async () => {
    const form = formShown();
    const client = await formClient(form.answer);
    const result = await client.callTool(touchCall);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("Nobody approved the call within 400 ms");
    expect(textOf(result)).not.toContain("Request timed out");
    const found = await rows();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ status: "denied", decision: "denied", decidedBy: "timeout" });
    await client.close();
  });
});

describe("a 2026-07-28 input_required round is audited once", () => {
  it("records a round never retried as denied by timeout, and answers its late retry without a second row", async () => {
    const http = await serveMcpHttp(mcp, { token: "the-token" });
    let lateBy = approvalTimeoutMs + 1_500;
    const client = new Client(
      { name: "late-2026", version: "1" },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      },
    );
    const offered: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      const params = request.params as { requestedSchema: { properties: Record<string, unknown> } };
      const schema = params.requestedSchema as { properties: { decision: { enum: string[] } } };
      offered.push(...schema.properties.decision.enum);
      await new Promise((resolve) => setTimeout(resolve, lateBy));
      return { action: "accept", content: { decision: "approve_once" } };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { Authorization: "Bearer the-token" } },
      }),
    );
    try {
      const late = await client.callTool(touchCall);
      expect(late.isError).toBe(true);
      expect(textOf(late)).toContain("This approval came too late");
      const found = await rows();
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({ status: "denied", decidedBy: "timeout" });

      // Answered in time: it runs, and its only row is the run's.
      lateBy = 0;
      const inTime = await client.callTool(touchCall);
      expect(inTime.isError).toBeFalsy();
      await new Promise((resolve) => setTimeout(resolve, approvalTimeoutMs + 1_200));
      const after = await rows();
      expect(after).toHaveLength(2);
      expect(after.map((r) => r.status).sort()).toEqual(["completed", "denied"]);

      // "Approve for this session" would last one request on this era: it is not offered.
      expect(offered).toContain("approve_once");
      expect(offered).not.toContain("approve_session");
    } finally {
      await client.close();
      await http.close();
    }
  });
});

describe("approval rounds waiting at once", () => {
  it("denies, audited and without asking, a call beyond the most rounds that may wait", async () => {
    await mcp.close();
    mcp = new AinternMcpServer({
      registry: runtime.registry,
      processor: runtime.processor,
      approvalTimeoutMs: 5_000,
      maxOpenApprovalRounds: 1,
    });
    const http = await serveMcpHttp(mcp, { token: "the-token" });
    let asked = 0;
    // The first elicitation is answered once the test has looked (released after its checks,
    // or in finally), not after a fixed 3 s: its round stays open all the while.
    let answerNow: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => {
      answerNow = resolve;
    });
    const client = new Client(
      { name: "flood-2026", version: "1" },
      {
        capabilities: { elicitation: { form: {} } },
        versionNegotiation: { mode: { pin: "2026-07-28" } },
      },
    );
    client.setRequestHandler("elicitation/create", async () => {
      asked++;
      // Never answered while the test looks: its round stays open.
      await answered;
      return { action: "decline" };
    });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(http.url), {
        requestInit: { headers: { Authorization: "Bearer the-token" } },
      }),
    );
    try {
      const waiting = client.callTool(touchCall).catch(() => undefined);
      await eventually(() => expect(asked).toBe(1));
      const second = await client.callTool({
        name: "terminal-execute",
        arguments: { command: "touch b.txt" },
      });
      expect(second.isError).toBe(true);
      expect(textOf(second)).toContain("already wait for a person's approval");
      expect(asked).toBe(1);
      await eventually(async () => expect((await rows()).map((r) => r.status)).toContain("denied"));
      answerNow();
      await waiting;
    } finally {
      answerNow();
      await client.close();
      await http.close();
    }
  }, 15_000);
});
