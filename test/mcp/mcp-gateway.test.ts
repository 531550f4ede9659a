// `aintern mcp` as a gateway: a small SDK-built upstream (--upstream) and the official filesystem
// server (from the configuration file), served with aintern's policy, approvals and audit.
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  connectStdio,
  type ElicitAnswer,
  eventually,
  makeWorkspace,
  newClient,
  runCli,
  textOf,
} from "./mcp-support.js";

const upstreamFixture = fileURLToPath(new URL("./fixtures/upstream-server.ts", import.meta.url));
const filesystemServer = createRequire(import.meta.url).resolve(
  "@modelcontextprotocol/server-filesystem/dist/index.js",
);

describe("aintern mcp as a gateway to other MCP servers", () => {
  let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
  let db: string;
  let config: string;
  let client: Client;
  const asked: string[] = [];
  const answer: { current: ElicitAnswer | undefined } = {
    current: (params) => {
      asked.push(String(params.message));
      return { action: "accept", content: { decision: "approve_once" } };
    },
  };

  beforeAll(async () => {
    workspace = await makeWorkspace();
    db = `sqlite:${workspace.path}/.aintern/audit.db`;
    await writeFile(join(workspace.path, "readme.txt"), "guarded\n");
    config = join(workspace.path, "aintern.config.json");
    await writeFile(
      config,
      JSON.stringify({
        tools: [],
        upstreams: {
          fs: { command: process.execPath, args: [filesystemServer, workspace.path] },
        },
      }),
    );
    client = newClient(answer);
    await connectStdio(client, [
      "--config",
      config,
      "--workspace",
      workspace.path,
      "--upstream",
      `"${process.execPath}" --import tsx ${upstreamFixture}`,
    ]);
  }, 90_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await workspace?.remove();
  });

  it("serves the upstreams' tools under their prefixes, a dotted name mapped to a valid id", async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "fs_read_text_file",
        "fs_write_file",
        "up1_read_note",
        "up1_erase_note",
        "up1_get_info",
      ]),
    );
    const info = await client.callTool({ name: "up1_get_info", arguments: {} });
    expect(info.structuredContent).toMatchObject({ pid: expect.any(Number) });
  });

  it("asks for destructive upstream tools, not for read-only ones, and audits every call", async () => {
    const before = asked.length;
    const read = await client.callTool({
      name: "fs_read_text_file",
      arguments: { path: join(workspace.path, "readme.txt") },
    });
    expect(textOf(read)).toContain("guarded");
    const note = await client.callTool({ name: "up1_read_note", arguments: { name: "hello" } });
    expect(textOf(note)).toContain("Hello from upstream");
    expect(asked.length).toBe(before);

    const written = await client.callTool({
      name: "fs_write_file",
      arguments: { path: join(workspace.path, "new.txt"), content: "x" },
    });
    expect(written.isError).toBeFalsy();
    const erased = await client.callTool({ name: "up1_erase_note", arguments: { name: "hello" } });
    expect(textOf(erased)).toContain("erased hello");
    expect(asked.length).toBe(before + 2);
    expect(asked.at(-1)).toMatch(/High risk/);

    // Read from another process (`aintern audit`): the server inserts the rows it wrote ahead to
    // its journal within 20 ms, or later when that process's open held the write lock.
    const wanted = ["fs_read_text_file", "up1_read_note", "fs_write_file", "up1_erase_note"];
    let audited = new Set<unknown>();
    for (let attempt = 0; attempt < 20; attempt++) {
      audited = new Set((await auditRows(db)).map((r) => r.toolName));
      if (wanted.every((tool) => audited.has(tool))) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    for (const tool of wanted) expect(audited).toContain(tool);
  });

  it("passes an upstream's error through as an isError result", async () => {
    const result = await client.callTool({ name: "up1_fail", arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("upstream says no");
  });

  it("fails the calls of an upstream that dies, never hangs, and restarts it for the next call", async () => {
    const crashed = await client.callTool({ name: "up1_crash", arguments: {} });
    expect(crashed.isError).toBe(true);
    const first = await client.callTool({ name: "up1_get_info", arguments: {} });
    const again = await eventually(async () => {
      const result = await client.callTool({ name: "up1_read_note", arguments: { name: "x" } });
      expect(result.isError).toBeFalsy();
      return result;
    });
    expect(textOf(again)).toContain("no note x");
    expect(first).toBeDefined();
  }, 60_000);

  it("doctor checks the configuration, the store and each upstream", async () => {
    const { code, stdout } = await runCli([
      "doctor",
      "--config",
      config,
      "--workspace",
      workspace.path,
    ]);
    expect(stdout).toMatch(/ok\s+upstream\s+fs: \d+ tools/);
    expect(stdout).toMatch(/ok\s+store/);
    expect(code).toBe(0);
  }, 60_000);
});
