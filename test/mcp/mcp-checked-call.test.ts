// `tools/call` checks whether the call needs approval before it runs it: the processor's check
// (coercion, risk, validation, the policy with its protected-path check) is reused by the run, so
// a call the policy lets run is judged once, and audited as if judged again.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ApprovalPolicy, type PolicyCall, type PolicyDecision } from "../../src/approval/index.js";
import { ToolCallProcessor } from "../../src/calls/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { AinternMcpServer } from "../../src/mcp/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import { defineTool } from "../../src/tools/index.js";
import { textOf } from "./mcp-support.js";

class CountingPolicy extends ApprovalPolicy {
  decisions = 0;
  override decide(call: PolicyCall): PolicyDecision {
    this.decisions++;
    return super.decide(call);
  }
}

const ran: unknown[] = [];

const echo = defineTool({
  id: "echo",
  name: "Echo",
  description: "Answers with its text.",
  riskLevel: RiskLevel.Safe,
  inputSchema: z.object({ text: z.string(), times: z.number().optional() }),
  execute: (input) => {
    ran.push(input);
    return { echoed: input.text };
  },
});

const pay = defineTool({
  id: "pay",
  name: "Pay",
  description: "Pays an amount.",
  riskLevel: RiskLevel.Medium,
  inputSchema: z.object({ amount: z.number() }),
  execute: (input) => {
    ran.push(input);
    return { paid: input.amount };
  },
});

let store: Store;

beforeEach(async () => {
  ran.length = 0;
  store = await openStore("sqlite::memory:");
});
afterEach(async () => {
  await store.close();
});

async function connected(options: { forms?: boolean } = {}) {
  const registry = new ToolRegistry({ tools: [echo, pay] });
  const policy = new CountingPolicy();
  const processor = new ToolCallProcessor({
    executor: new ToolExecutor({ registry, audit: store.audit }),
    policy,
  });
  const mcp = new AinternMcpServer({ registry, processor });
  const client = new Client(
    { name: "checked", version: "1" },
    options.forms === true ? { capabilities: { elicitation: { form: {} } } } : {},
  );
  let asked = 0;
  if (options.forms === true) {
    client.setRequestHandler("elicitation/create", async () => {
      asked++;
      return { action: "decline" };
    });
  }
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.createServer().connect(serverSide);
  await client.connect(clientSide);
  return {
    client,
    policy,
    asked: () => asked,
    close: async () => {
      await client.close();
      await mcp.close();
    },
  };
}

describe("aintern's MCP server judging a call once", () => {
  it("runs the policy once for a call it lets run, with the coerced arguments, audited as decided by the policy", async () => {
    const { client, policy, close } = await connected();
    const result = await client.callTool({ name: "echo", arguments: { text: "hi", times: "2" } });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain("hi");
    expect(policy.decisions).toBe(1);
    expect(ran).toEqual([{ text: "hi", times: 2 }]);
    const [row] = (await store.audit.query({ toolName: "echo" })).entries;
    expect(row).toMatchObject({ status: "completed", decision: "approved", decidedBy: "policy" });
    expect(row?.callId).toBeTruthy();
    await close();
  });

  it("still asks about a call that needs approval, and runs nothing when the person declines", async () => {
    const { client, asked, close } = await connected({ forms: true });
    const result = await client.callTool({ name: "pay", arguments: { amount: 5 } });
    expect(asked()).toBe(1);
    expect(result.isError).toBe(true);
    expect(ran).toEqual([]);
    await close();
  });

  it("tells the model about invalid arguments, as before", async () => {
    const { client, close } = await connected();
    const result = await client.callTool({ name: "echo", arguments: { text: 5 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("text");
    expect(ran).toEqual([]);
    await close();
  });
});
