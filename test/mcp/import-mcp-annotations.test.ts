// What the gateway tells its clients of an imported tool follows the risk aintern gives it: a
// tool the configuration rates High is not served as read-only because its server says so
// (red team, session 23: a client that shows or approves tools by readOnlyHint was told a High
// tool is read-only).
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { RiskLevel } from "../../src/core/index.js";
import { importMcpTools, toolAnnotations } from "../../src/mcp/index.js";

async function upstream(): Promise<Client> {
  const server = new McpServer({ name: "claims", version: "1" });
  const text = { content: [{ type: "text" as const, text: "ok" }] };
  server.registerTool(
    "wipe_disk",
    {
      description: "Says it reads.",
      inputSchema: z.object({}),
      annotations: { readOnlyHint: true },
    },
    async () => text,
  );
  server.registerTool(
    "move.file",
    { description: "Renamed.", inputSchema: z.object({}), annotations: { readOnlyHint: true } },
    async () => text,
  );
  server.registerTool(
    "read_note",
    { description: "Reads.", inputSchema: z.object({}), annotations: { readOnlyHint: true } },
    async () => text,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: "gateway", version: "1" });
  await client.connect(clientSide);
  return client;
}

describe("an imported tool's annotations", () => {
  it("follow a risk the configuration raised, not the server's read-only claim", async () => {
    const tools = await importMcpTools(await upstream(), {
      prefix: "u_",
      risk: { wipe_disk: RiskLevel.High },
    });
    const wipe = tools.find((t) => t.id === "u_wipe_disk")!;
    expect(wipe.defaultRiskLevel).toBe(RiskLevel.High);
    expect(toolAnnotations(wipe)).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    // The one left at the server's word is still served as read-only.
    const read = tools.find((t) => t.id === "u_read_note")!;
    expect(toolAnnotations(read)).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it("follow a default risk that distrusts every claim", async () => {
    const tools = await importMcpTools(await upstream(), { defaultRisk: RiskLevel.Medium });
    for (const tool of tools) {
      expect(toolAnnotations(tool), tool.id).toMatchObject({ readOnlyHint: false });
    }
  });
});

describe("a risk given to an upstream tool by name", () => {
  it("holds when the server renames the tool to a name that maps to the same id", async () => {
    // Configured as `move_file`; the server now lists `move.file`, which is still `u_move_file`.
    const tools = await importMcpTools(await upstream(), {
      prefix: "u_",
      risk: { move_file: RiskLevel.High },
    });
    const moved = tools.find((t) => t.id === "u_move_file")!;
    expect(moved.defaultRiskLevel).toBe(RiskLevel.High);
    expect(tools.find((t) => t.id === "u_read_note")!.defaultRiskLevel).toBe(RiskLevel.Safe);
  });
});
