// A gateway's tools/list in pages: upstreams that list many large tools made the answer outgrow
// what clients read (the official SDK closes the connection on a message over 10 MB), and every
// tool, built-in ones too, was lost to them (red team, session 23).
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { ToolCallProcessor } from "../../src/calls/index.js";
import { RiskLevel } from "../../src/core/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { AinternMcpServer, listedToolProblem } from "../../src/mcp/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { defineTool } from "../../src/tools/index.js";

function tool(id: string, description = `Tool ${id}.`) {
  return defineTool({
    id,
    name: id,
    description,
    riskLevel: RiskLevel.Safe,
    inputSchema: { type: "object", properties: {}, required: [] },
    execute: () => id,
  });
}

async function clientOf(registry: ToolRegistry): Promise<Client> {
  const executor = new ToolExecutor({ registry });
  const mcp = new AinternMcpServer({ registry, processor: new ToolCallProcessor({ executor }) });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.createServer().connect(serverSide);
  const client = new Client({ name: "pages", version: "1" });
  await client.connect(clientSide);
  return client;
}

/**
 * Every page of tools/list, one request each (the SDK client's `listTools()` with no cursor
 * follows the pages itself; with one it asks for that page only).
 */
async function allPages(client: Client): Promise<{ names: string[]; pages: number[] }> {
  const names: string[] = [];
  const pages: number[] = [];
  // The first page's cursor is the one for tool 0 (the same page as no cursor).
  let cursor: string | undefined = Buffer.from("tools:0").toString("base64url");
  do {
    const page = await client.listTools({ cursor });
    names.push(...page.tools.map((t) => t.name));
    pages.push(JSON.stringify(page).length);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return { names, pages };
}

describe("tools/list", () => {
  it("answers a usual listing in one page", async () => {
    const client = await clientOf(new ToolRegistry({ tools: [tool("a"), tool("b")] }));
    const page = await client.listTools();
    expect(page.tools.map((t) => t.name)).toEqual(["a", "b"]);
    expect(page.nextCursor).toBeUndefined();
  });

  it("splits many tools into pages a client follows to the last", async () => {
    const ids = Array.from({ length: 1_200 }, (_, i) => `t${i}`);
    const client = await clientOf(new ToolRegistry({ tools: ids.map((id) => tool(id)) }));
    const { names, pages } = await allPages(client);
    expect(names).toEqual(ids);
    expect(pages.length).toBe(3);
    // The official client's listTools() follows them: every tool, in order.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(ids);
  });

  it("keeps each page of large tools well under what a client reads", async () => {
    const big = "d".repeat(60_000);
    const ids = Array.from({ length: 200 }, (_, i) => `big${i}`);
    const client = await clientOf(new ToolRegistry({ tools: ids.map((id) => tool(id, big)) }));
    const { names, pages } = await allPages(client);
    expect(names).toEqual(ids);
    expect(pages.length).toBeGreaterThan(1);
    for (const size of pages) expect(size).toBeLessThan(5_000_000);
  });

  it("refuses a cursor it did not give, saying what to pass", async () => {
    const client = await clientOf(new ToolRegistry({ tools: [tool("a")] }));
    for (const cursor of ["nope", Buffer.from("tools:99").toString("base64url"), ""]) {
      await expect(client.listTools({ cursor })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Invalid cursor: pass the nextCursor/),
      });
    }
  });
});

describe("an upstream's listed tool", () => {
  const schema = { type: "object", properties: {} };
  it.each([
    [{ name: "n".repeat(1_001), inputSchema: schema }, /its name is 1001 characters long/],
    [{ name: "x", title: "t".repeat(1_001), inputSchema: schema }, /its title is 1001/],
    [
      { name: "x", description: "d".repeat(65_537), inputSchema: schema },
      /its description is 65537 characters long, more than 65536/,
    ],
    [
      {
        name: "x",
        inputSchema: { type: "object", properties: { a: { description: "s".repeat(1_000_000) } } },
      },
      /its inputSchema is \d+ characters of JSON, more than 1000000/,
    ],
    [
      { name: "x", inputSchema: schema, outputSchema: { type: "object", title: "o".repeat(1e6) } },
      /its outputSchema is \d+ characters of JSON/,
    ],
  ])("is left out when too large to serve again (%#)", (entry, problem) => {
    expect(listedToolProblem(entry)).toMatch(problem);
  });

  it("is taken at the largest sizes allowed", () => {
    expect(
      listedToolProblem({
        name: "n".repeat(1_000),
        title: "t".repeat(1_000),
        description: "d".repeat(65_536),
        inputSchema: schema,
      }),
    ).toBeUndefined();
  });
});
