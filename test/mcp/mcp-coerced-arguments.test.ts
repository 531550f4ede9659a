// A model that sends numbers as strings ("5" for 5): processCall coerces them before judging the
// call, so asking about it (needsApproval, the form, the console's page) must judge and bind the
// same coerced call, or the person is never asked, or approves a row the call does not wait on.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApprovalDecision, ToolCallProcessor } from "../../src/calls/index.js";
import {
  ConsoleApprovalHandler,
  consoleApprovalPages,
  PendingApprovalStatus,
} from "../../src/console/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { AinternMcpServer } from "../../src/mcp/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { defineTool } from "../../src/tools/index.js";
import { textOf } from "./mcp-support.js";

const paid: unknown[] = [];

/** A Medium-risk tool with a number parameter: asks every time. */
const pay = defineTool({
  id: "pay",
  name: "Pay",
  description: "Pays an amount.",
  riskLevel: RiskLevel.Medium,
  inputSchema: z.object({ amount: z.number(), to: z.string() }),
  execute: (input) => {
    paid.push(input);
    return { paid: input.amount };
  },
});

let store: Store;
const registry = new ToolRegistry({ tools: [pay] });

beforeEach(async () => {
  paid.length = 0;
  store = await openStore("sqlite::memory:");
});

afterEach(async () => {
  await store.close();
});

describe("needsApproval on arguments processCall coerces", () => {
  it("asks about {amount: '5'} as processCall would, and a decision bound to its hash runs the call", async () => {
    const processor = new ToolCallProcessor({ executor: new ToolExecutor({ registry }) });
    const need = await processor.needsApproval("pay", { amount: "5", to: "bob" });
    expect(need).not.toBe(false);
    if (need === false) return;
    const result = await processor.processCall({
      toolId: "pay",
      parameters: { amount: "5", to: "bob" },
      decision: ApprovalDecision.approve({ argumentsHash: need.argumentsHash }),
    });
    expect(result.status).toBe("Completed");
    expect(paid).toEqual([{ amount: 5, to: "bob" }]);
  });

  it("still refuses that decision for other arguments", async () => {
    const processor = new ToolCallProcessor({ executor: new ToolExecutor({ registry }) });
    const need = await processor.needsApproval("pay", { amount: "5", to: "bob" });
    if (need === false) throw new Error("expected to be asked");
    const result = await processor.processCall({
      toolId: "pay",
      parameters: { amount: "500", to: "bob" },
      decision: ApprovalDecision.approve({ argumentsHash: need.argumentsHash }),
    });
    expect(result.status).not.toBe("Completed");
    expect(paid).toEqual([]);
  });
});

describe("aintern's MCP server asking about a call with coerced arguments", () => {
  it("asks a form client (instead of denying for want of a handler) and runs the call once", async () => {
    const processor = new ToolCallProcessor({ executor: new ToolExecutor({ registry }) });
    const mcp = new AinternMcpServer({ registry, processor });
    const client = new Client(
      { name: "form", version: "1" },
      { capabilities: { elicitation: { form: {} } } },
    );
    let asked = 0;
    client.setRequestHandler("elicitation/create", async () => {
      asked++;
      return { action: "accept", content: { decision: "approve_once" } };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.createServer().connect(serverSide);
    await client.connect(clientSide);
    const result = await client.callTool({ name: "pay", arguments: { amount: "5", to: "bob" } });
    expect(textOf(result)).not.toContain("No approval handler");
    expect(result.isError).toBeFalsy();
    expect(asked).toBe(1);
    expect(paid).toEqual([{ amount: 5, to: "bob" }]);
    await client.close();
    await mcp.close();
  });

  it("sends the console page of the row the call waits on: approving it there runs the call", async () => {
    const handler = new ConsoleApprovalHandler({
      approvals: store.approvals,
      getTool: (id) => registry.getTool(id),
      timeoutMs: 20_000,
    });
    const processor = new ToolCallProcessor({
      executor: new ToolExecutor({ registry }),
      approvalHandler: handler,
      store: store.calls,
    });
    const mcp = new AinternMcpServer({
      registry,
      processor,
      approvalPages: consoleApprovalPages(handler, "http://127.0.0.1:1"),
    });
    const client = new Client(
      { name: "url", version: "1" },
      { capabilities: { elicitation: { url: {} } } },
    );
    client.setRequestHandler("elicitation/create", async (request) => {
      const url = (request.params as { url: string }).url;
      const id = decodeURIComponent(url.slice(url.lastIndexOf("/") + 1));
      // The person approves the page they were sent, a moment later.
      setTimeout(() => void store.approvals.decide(id, { approved: true }, "ada"), 200);
      return { action: "accept" };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.createServer().connect(serverSide);
    await client.connect(clientSide);
    const result = await client.callTool(
      { name: "pay", arguments: { amount: "5", to: "bob" } },
      { timeout: 15_000 },
    );
    expect(textOf(result)).not.toContain("another call");
    expect(result.isError).toBeFalsy();
    expect(paid).toEqual([{ amount: 5, to: "bob" }]);
    // One row, the one the person was sent and approved: none left waiting unseen.
    const rows = await store.approvals.list();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe(PendingApprovalStatus.Approved);
    await client.close();
    await mcp.close();
  }, 30_000);
});
