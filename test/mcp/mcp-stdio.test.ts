// `aintern mcp` over stdio, driven by the official SDK client, as an MCP host would: one server
// process for the whole file (its startup under tsx is the slow part), one behaviour per test.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditRows,
  connectStdio,
  type ElicitAnswer,
  eventually,
  fixtureTools,
  makeWorkspace,
  newClient,
  runCli,
  textOf,
} from "./mcp-support.js";

describe("aintern mcp over stdio", () => {
  let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
  let db: string;
  let client: Client;
  const answer: { current: ElicitAnswer | undefined } = { current: undefined };
  const asked: Record<string, unknown>[] = [];

  beforeAll(async () => {
    workspace = await makeWorkspace();
    db = `sqlite:${workspace.path}/.aintern/audit.db`;
    client = newClient(answer);
    await connectStdio(client, [
      "--workspace",
      workspace.path,
      "--tools",
      "builtin",
      "--tools",
      fixtureTools,
    ]);
  }, 60_000);

  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await workspace?.remove();
  });

  const ask = (decide: ElicitAnswer): void => {
    answer.current = (params) => {
      asked.push(params);
      return decide(params);
    };
  };

  it("lists the tools with input and output schemas, annotations from their metadata", async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(["file-read", "file-delete", "terminal-execute", "echo", "touch"]),
    );
    expect(byName.get("echo")?.outputSchema).toMatchObject({
      type: "object",
      properties: { text: {} },
    });
    expect(byName.get("echo")?.inputSchema).toMatchObject({ type: "object", required: ["text"] });
    expect(byName.get("file-read")?.annotations).toMatchObject({
      readOnlyHint: true,
      idempotentHint: true,
    });
    expect(byName.get("file-delete")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("terminal-execute")?.annotations).toMatchObject({ openWorldHint: true });
  });

  it("calls a tool and answers with text content plus structuredContent", async () => {
    const result = await client.callTool({ name: "echo", arguments: { text: "hi" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ text: "hi" });
    expect(textOf(result)).toContain("Result: Success");
  });

  it("answers a file read with the file's text as it is for the model, and all of its data as structuredContent", async () => {
    const text = 'const quote = "a\\b";\n\tindented\n';
    await writeFile(join(workspace.path, "quoted.ts"), text);
    const result = await client.callTool({ name: "file-read", arguments: { path: "quoted.ts" } });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ path: "quoted.ts", content: text });
    const shown = textOf(result);
    // The text itself, not an escaped JSON string; the other fields stay as data.
    expect(shown.endsWith(`\nContent:\n${text}`)).toBe(true);
    expect(shown).toMatch(/^Data: \{"path":"quoted\.ts","startLine":1,"endLine":2,/m);
    expect(shown).not.toContain('"content"');
  });

  it("answers bad arguments with an isError result that names the problem", async () => {
    const result = await client.callTool({ name: "echo", arguments: { txt: 1 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/text/);
    expect(textOf(result)).toMatch(/Missing required parameter 'text'/);
  });

  it("refuses a path outside the workspace as an isError result", async () => {
    const result = await client.callTool({
      name: "file-read",
      arguments: { path: "../../etc/passwd" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/outside the workspace/);
  });

  it("answers an unknown tool with a protocol error naming the tools there are, and audits the call", async () => {
    await expect(
      client.callTool({ name: "ecko", arguments: { probe: "unknown-tool-call" } }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/Tool 'ecko' not found\. Did you mean 'echo'/),
    });
    // A probing model leaves a trace (red team, session 23: no row was written).
    const row = await eventually(async () => {
      const found = (await auditRows(db)).find((r) => r.toolName === "ecko");
      expect(found).toBeDefined();
      return found!;
    });
    expect(row.status).not.toBe("completed");
    expect(JSON.stringify(row.parameters)).toContain("unknown-tool-call");
  });

  it("asks the person by form elicitation: an approval runs the call, a denial returns their reason", async () => {
    ask(() => ({ action: "accept", content: { decision: "approve_once" } }));
    const approved = await client.callTool({ name: "touch", arguments: { path: "src/a.ts" } });
    expect(approved.isError).toBeFalsy();
    expect(approved.structuredContent).toEqual({ touched: "src/a.ts" });
    const form = asked.at(-1)!;
    expect(form.message).toMatch(/Touch src\/a\.ts/);
    expect(form.requestedSchema).toMatchObject({
      properties: {
        decision: {
          enum: expect.arrayContaining([
            "approve_once",
            "approve_session",
            "approve_always",
            "approve_pattern",
            "deny",
          ]),
        },
        pattern: { default: "src/**" },
      },
    });

    ask(() => ({ action: "accept", content: { decision: "deny", reason: "not on a Friday" } }));
    const denied = await client.callTool({ name: "touch", arguments: { path: "src/b.ts" } });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toMatch(/denied.*not on a Friday/s);

    ask(() => ({ action: "decline" }));
    const declined = await client.callTool({ name: "touch", arguments: { path: "src/c.ts" } });
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toMatch(/declined/);
  });

  it("remembers 'for this session' without asking again, and 'always for a pattern' in the store until revoked", async () => {
    ask(() => ({ action: "accept", content: { decision: "approve_session" } }));
    await client.callTool({ name: "touch", arguments: { path: "x" } });
    const before = asked.length;
    const again = await client.callTool({ name: "touch", arguments: { path: "y" } });
    expect(again.structuredContent).toEqual({ touched: "y" });
    expect(asked.length).toBe(before);

    // The form suggests the command exactly; the person widens it to `touch *` themselves.
    const suggested: string[] = [];
    ask((params) => {
      suggested.push(
        String(
          (params.requestedSchema as { properties: { pattern: { default: string } } }).properties
            .pattern.default,
        ),
      );
      return { action: "accept", content: { decision: "approve_pattern", pattern: "touch *" } };
    });
    const first = await client.callTool({
      name: "terminal-execute",
      arguments: { command: "touch one.tmp" },
    });
    expect(first.isError).toBeFalsy();
    expect(suggested).toEqual(["touch one.tmp"]);
    const count = asked.length;
    const second = await client.callTool({
      name: "terminal-execute",
      arguments: { command: "touch two.tmp" },
    });
    expect(second.isError).toBeFalsy();
    expect(asked.length).toBe(count);

    const listed = await runCli(["permissions", "list", "--json", "--db", db]);
    const grants = listed.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { id: string; toolId: string; pattern?: string });
    const grant = grants.find((g) => g.toolId === "terminal-execute");
    expect(grant?.pattern).toBe("touch *");
    expect((await runCli(["permissions", "revoke", grant!.id, "--db", db])).code).toBe(0);
    ask(() => ({ action: "decline" }));
    const third = await client.callTool({
      name: "terminal-execute",
      arguments: { command: "touch three.tmp" },
    });
    expect(third.isError).toBe(true);
    expect(asked.length).toBe(count + 1);
  });

  it("sends notifications/progress from the tool's reports when the call has a progress token", async () => {
    const seen: number[] = [];
    const result = await client.callTool(
      { name: "count", arguments: { steps: 4 } },
      { onprogress: (p) => seen.push(p.progress) },
    );
    expect(result.structuredContent).toEqual({ counted: 4 });
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it("cancels a hung process-isolated tool on notifications/cancelled: its process is killed and the row says cancelled, not timeout", async () => {
    const controller = new AbortController();
    let pid: number | undefined;
    const call = client.callTool(
      { name: "hang", arguments: {} },
      {
        signal: controller.signal,
        onprogress: (p) => {
          pid = (JSON.parse(p.message ?? "{}") as { pid?: number }).pid;
          controller.abort();
        },
      },
    );
    await expect(call).rejects.toThrow();
    expect(pid).toBeGreaterThan(0);
    const row = await eventually(async () => {
      const found = (await auditRows(db)).find((r) => r.toolName === "hang");
      expect(found).toBeDefined();
      return found!;
    });
    // The tool's timeout is 5 s: a row that says cancelled ended before it.
    expect(row.status).toBe("cancelled");
    expect(row.durationMs as number).toBeLessThan(5_000 + 100);
    await eventually(() => expect(() => process.kill(pid!, 0)).toThrow());
  });

  it("answers a 10 MB argument with a clear validation error, then keeps serving", async () => {
    const result = await client.callTool({
      name: "echo",
      arguments: { text: "x".repeat(10 * 1024 * 1024) },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/text/);
    expect(
      (await client.callTool({ name: "echo", arguments: { text: "still here" } }))
        .structuredContent,
    ).toEqual({ text: "still here" });
  }, 60_000);

  it("cancels and audits the call in flight when the client goes away", async () => {
    const pending = client
      .callTool({ name: "echo", arguments: { text: "late", delayMs: 30_000 } })
      .catch(() => undefined);
    await new Promise((r) => setTimeout(r, 1_000));
    await client.close();
    await pending;
    const row = await eventually(async () => {
      const found = (await auditRows(db)).find(
        (r) => r.toolName === "echo" && r.status !== "completed" && r.status !== "failed",
      );
      expect(found).toBeDefined();
      return found!;
    });
    expect(row.status).toBe("cancelled");
  }, 60_000);
});
