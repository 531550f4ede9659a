// The server in process, its processor asking an ApprovalHandler (the hook the web console plugs
// into), over the SDK's linked in-memory transports.
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  ApprovalDecision,
  type ApprovalHandler,
  ToolCallProcessor,
} from "../../src/calls/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { AinternMcpServer } from "../../src/mcp/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { defineTool } from "../../src/tools/index.js";
import { touch } from "./fixtures/mcp-tools.js";

/** A Safe tool whose execution fails. */
const broken = defineTool({
  id: "broken",
  name: "Broken",
  description: "Always fails.",
  riskLevel: RiskLevel.Safe,
  inputSchema: z.object({}),
  execute() {
    throw new Error("the disk is on fire");
  },
});

async function connected(
  handler: ApprovalHandler,
  config: { approvalKeepAliveMs?: number } = {},
): Promise<Client> {
  const registry = new ToolRegistry({ tools: [touch, broken] });
  const executor = new ToolExecutor({ registry });
  const mcp = new AinternMcpServer({
    registry,
    processor: new ToolCallProcessor({ executor, approvalHandler: handler }),
    approvals: "handler",
    ...config,
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.createServer().connect(serverSide);
  const client = new Client({ name: "in-process", version: "1" });
  await client.connect(clientSide);
  return client;
}

describe("AinternMcpServer with approvals from the processor's ApprovalHandler", () => {
  it("asks the handler about a call that needs approval and honours its decision", async () => {
    const seen: string[] = [];
    const client = await connected({
      requestApproval(request, _signal, details) {
        seen.push(`${request.toolId} ${details?.reason ?? ""}`);
        return request.parameters.path === "ok"
          ? ApprovalDecision.approve()
          : ApprovalDecision.deny("not that one");
      },
    });
    const approved = await client.callTool({ name: "touch", arguments: { path: "ok" } });
    expect(approved.structuredContent).toEqual({ touched: "ok" });
    const denied = await client.callTool({ name: "touch", arguments: { path: "no" } });
    expect(denied.isError).toBe(true);
    expect(JSON.stringify(denied.content)).toContain("not that one");
    expect(seen).toHaveLength(2);
    await client.close();
  });

  it("denies when the handler throws", async () => {
    const client = await connected({
      requestApproval() {
        throw new Error("console is down");
      },
    });
    const result = await client.callTool({ name: "touch", arguments: { path: "x" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain("console is down");
    await client.close();
  });

  it("answers a tool that fails with an isError result carrying its message, and keeps serving", async () => {
    const client = await connected({ requestApproval: () => ApprovalDecision.approve() });
    const failed = await client.callTool({ name: "broken", arguments: {} });
    expect(failed.isError).toBe(true);
    expect(JSON.stringify(failed.content)).toContain("the disk is on fire");
    expect(failed.structuredContent).toMatchObject({ status: "Failed" });
    const next = await client.callTool({ name: "touch", arguments: { path: "still" } });
    expect(next.structuredContent).toEqual({ touched: "still" });
    await client.close();
  });

  it("keeps a call alive with progress while it waits for a person, for a client that resets its timeout on progress", async () => {
    const client = await connected(
      {
        async requestApproval(request) {
          await new Promise((resolve) => setTimeout(resolve, 1_500));
          return ApprovalDecision.approve().bindTo(request);
        },
      },
      { approvalKeepAliveMs: 100 },
    );
    const notes: string[] = [];
    // Without the keep-alive this request would time out after 500 ms.
    const result = await client.callTool(
      { name: "touch", arguments: { path: "slow" } },
      {
        timeout: 500,
        resetTimeoutOnProgress: true,
        onprogress: (p) => notes.push(p.message ?? ""),
      },
    );
    expect(result.structuredContent).toEqual({ touched: "slow" });
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.every((n) => n === "Waiting for a person's approval")).toBe(true);
    await client.close();
  });
});
