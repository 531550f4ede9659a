// The stdio reader of `aintern mcp`: whole lines only, each copied once; a line past the limit
// dropped as it arrives, the connection kept.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ToolCallProcessor } from "../../src/calls/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { AinternMcpServer, serveMcpStdio } from "../../src/mcp/index.js";
import { StdioLineFraming } from "../../src/mcp/stdio-line-framing.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { defineTool } from "../../src/tools/index.js";

/** What the framing passes on for `input` cut into pieces of the given sizes, and what it dropped. */
function frame(
  input: Buffer,
  sizes: number[],
  maxLineBytes: number,
): { out: Buffer[]; dropped: number[] } {
  const dropped: number[] = [];
  const framing = new StdioLineFraming(maxLineBytes, (bytes) => dropped.push(bytes));
  const out: Buffer[] = [];
  let at = 0;
  for (let i = 0; at < input.length; i++) {
    const size = sizes[i % sizes.length] as number;
    framing.push(input.subarray(at, at + size), (lines) => out.push(lines));
    at += size;
  }
  const last = framing.end();
  if (last !== undefined) out.push(last);
  return { out, dropped };
}

describe("StdioLineFraming", () => {
  const lines = ["a", "", '{"x":1}', "b".repeat(300), "c".repeat(70), "end"];
  const text = Buffer.from(`${lines.join("\n")}\n`);

  it("passes on the same bytes, every chunk ending at a newline, however the input is cut", async () => {
    for (const sizes of [[1], [2, 5], [7], [64], [1000], [3, 1, 200]]) {
      const { out, dropped } = frame(text, sizes, 1_000);
      expect(Buffer.concat(out).equals(text), `cut ${sizes}`).toBe(true);
      for (const chunk of out) expect(chunk.at(-1)).toBe(10);
      expect(dropped).toEqual([]);
    }
  });

  it("drops a line past the limit as it arrives, reports its length, and passes the next ones", async () => {
    const long = "x".repeat(500);
    const input = Buffer.from(`first\n${long}\nafter\n`);
    for (const sizes of [[1], [9], [100], [1000]]) {
      const { out, dropped } = frame(input, sizes, 100);
      expect(Buffer.concat(out).toString(), `cut ${sizes}`).toBe("first\nafter\n");
      expect(dropped).toEqual([501]);
    }
  });

  it("passes a last line without its newline as it is", async () => {
    const { out } = frame(Buffer.from("one\ntwo"), [3], 100);
    expect(Buffer.concat(out).toString()).toBe("one\ntwo");
  });
});

describe("serveMcpStdio and a message past its limit", () => {
  it("drops that message, says so, and keeps the connection serving", async () => {
    const registry = new ToolRegistry({
      tools: [
        defineTool({
          id: "echo",
          name: "Echo",
          description: "Echoes text",
          inputSchema: { type: "object", properties: { text: { type: "string" } }, required: [] },
          execute: async (input) => ({ text: (input as { text?: string }).text ?? "" }),
        }),
      ],
    });
    const mcp = new AinternMcpServer({
      registry,
      processor: new ToolCallProcessor({ executor: new ToolExecutor({ registry }) }),
    });
    const toServer = new PassThrough();
    const fromServer = new PassThrough();
    const errors: string[] = [];
    const handle = serveMcpStdio(mcp, {
      stdin: toServer,
      stdout: fromServer,
      maxMessageBytes: 64 * 1024,
      onError: (error) => errors.push(error.message),
    });
    const answers: Record<string, unknown>[] = [];
    let buffered = "";
    fromServer.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let nl = buffered.indexOf("\n"); nl !== -1; nl = buffered.indexOf("\n")) {
        answers.push(JSON.parse(buffered.slice(0, nl)) as Record<string, unknown>);
        buffered = buffered.slice(nl + 1);
      }
    });
    const answered = async (id: number) => {
      await expect.poll(() => answers.find((a) => a.id === id), { timeout: 10_000 }).toBeDefined();
      return answers.find((a) => a.id === id) as Record<string, unknown>;
    };
    const send = (message: unknown) => toServer.write(`${JSON.stringify(message)}\n`);
    try {
      send({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      });
      await answered(1);
      send({ jsonrpc: "2.0", method: "notifications/initialized" });
      const huge = "y".repeat(200 * 1024);
      send({
        jsonrpc: "2.0",
        id: 2,
        method: "tools/call",
        params: { name: "echo", arguments: { text: huge } },
      });
      send({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "small" } },
      });
      const small = await answered(3);
      expect(JSON.stringify(small.result)).toContain("small");
      expect(answers.find((a) => a.id === 2)).toBeUndefined();
      // Answered all the same, with the null id JSON-RPC uses when a request's id is unknown.
      expect(answers.find((a) => a.id === null)).toMatchObject({
        error: { code: -32600, message: expect.stringMatching(/of \d+ bytes was dropped unread/) },
      });
      expect(errors.join("\n")).toMatch(/Dropped a message of \d+ bytes: more than the 65536/);
    } finally {
      await handle.close();
    }
  });
});
