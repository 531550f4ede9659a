/**
 * The floor of the file-read figure in mcp.bench.ts: an MCP server built on the same SDK and
 * stdio transport as `aintern mcp`, whose one tool reads a workspace file with `readFileSync`
 * and answers its text and `{ content }` as the official filesystem server does. No policy, no
 * validation, no audit: what is left when aintern's guard is taken away.
 *
 *   node --import tsx bench/bare-read-server.ts WORKSPACE
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Server } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import { StdioLineTransport } from "../src/mcp/stdio-line-transport.js";

const workspace = process.argv[2];
if (workspace === undefined) throw new Error("usage: bare-read-server.ts WORKSPACE");
const transport = new StdioLineTransport(process.stdin, process.stdout, {
  maxMessageBytes: 64 * 1024 * 1024,
});
serveStdio(
  () => {
    const server = new Server({ name: "bare-read", version: "1" }, { capabilities: { tools: {} } });
    server.setRequestHandler("tools/list", () => ({
      tools: [{ name: "read", inputSchema: { type: "object" } }],
    }));
    server.setRequestHandler("tools/call", (request) => {
      const path = String((request.params.arguments as { path?: unknown } | undefined)?.path);
      const text = readFileSync(join(workspace, path), "utf8");
      return { content: [{ type: "text", text }], structuredContent: { content: text } };
    });
    return server;
  },
  { transport },
);
