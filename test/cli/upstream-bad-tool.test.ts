// An upstream whose tools the registry refuses (a schema that is not JSON Schema, a name taken
// twice): its other tools are served, the refused ones are named, nothing stops.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openMcpRuntime } from "../../src/cli/mcp-runtime.js";

let dir: string;
let server: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "aintern-bad-upstream-"));
  server = join(dir, "upstream.mjs");
  // A raw stdio MCP server (no SDK): it lists whatever it likes.
  await writeFile(
    server,
    `import readline from "node:readline";
const send = (o) => process.stdout.write(JSON.stringify(o) + "\\n");
const tools = [
  { name: "good", description: "fine", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: "bad_schema", description: "x", inputSchema: { type: "object", properties: { a: { type: "bogus" } } } },
  { name: "twice", description: "first", inputSchema: { type: "object" } },
  { name: "twice", description: "second", inputSchema: { type: "object" } },
];
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") send({ jsonrpc: "2.0", id: m.id, result: { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "odd", version: "1" } } });
  else if (m.method === "tools/list") send({ jsonrpc: "2.0", id: m.id, result: { tools } });
  else if (m.method === "tools/call") send({ jsonrpc: "2.0", id: m.id, result: { content: [{ type: "text", text: "ran " + m.params.name }] } });
  else if (m.id !== undefined) send({ jsonrpc: "2.0", id: m.id, result: {} });
});
`,
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("an upstream with a tool the registry refuses", () => {
  it("serves its other tools and names the one left out, instead of not starting", async () => {
    const errors: string[] = [];
    const runtime = await openMcpRuntime({
      workspace: dir,
      db: "sqlite::memory:",
      upstreams: [`"${process.execPath}" ${server}`],
      onError: (error) => errors.push(error.message),
    });
    try {
      const ids = runtime.registry.tools.map((t) => t.id);
      expect(ids.some((id) => id.endsWith("good"))).toBe(true);
      expect(ids.some((id) => id.endsWith("bad_schema"))).toBe(false);
      expect(errors.join("\n")).toMatch(/tool '.*bad_schema' left out: .*not a valid JSON Schema/);
      const good = ids.find((id) => id.endsWith("good")) as string;
      const result = await runtime.processor.processCall({ toolId: good, parameters: {} });
      expect(result.content).toContain("ran good");
    } finally {
      await runtime.close();
    }
  }, 60_000);
});
