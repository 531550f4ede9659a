// `aintern mcp` over stdio fed raw JSON-RPC lines, as a broken or flooding client would send them.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliArgs, fixtureTools, makeWorkspace, repoRoot } from "./mcp-support.js";

describe("aintern mcp over stdio, raw JSON-RPC", () => {
  let workspace: Awaited<ReturnType<typeof makeWorkspace>>;
  let child: ReturnType<typeof spawn>;
  const waiting = new Map<number | string | null, (message: Record<string, unknown>) => void>();
  const unanswered: Record<string, unknown>[] = [];
  let nextId = 1;
  /** What the server wrote on stderr so far. */
  let log = "";

  const send = (message: unknown): void => {
    child.stdin!.write(`${typeof message === "string" ? message : JSON.stringify(message)}\n`);
  };
  const request = (method: string, params: unknown): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const answer = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    send({ jsonrpc: "2.0", id, method, params });
    return answer;
  };

  beforeAll(async () => {
    workspace = await makeWorkspace();
    child = spawn(
      process.execPath,
      cliArgs("mcp", "--workspace", workspace.path, "--tools", fixtureTools),
      {
        cwd: repoRoot,
        stdio: ["pipe", "pipe", "pipe"],
      },
    );
    child.stderr!.setEncoding("utf8").on("data", (text: string) => {
      log += text;
    });
    createInterface({ input: child.stdout! }).on("line", (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      const id = message.id as number | string | null;
      const resolve = waiting.get(id);
      if (resolve === undefined) unanswered.push(message);
      else {
        waiting.delete(id);
        resolve(message);
      }
    });
    const init = await request("initialize", {
      protocolVersion: "2025-06-18",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    expect(init.result).toBeDefined();
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
  }, 60_000);

  afterAll(async () => {
    child?.stdin?.end();
    await new Promise((resolve) => child?.once("exit", resolve));
    await workspace?.remove();
  });

  it("answers malformed JSON-RPC with the error JSON-RPC names (not JSON, not a request, a batch, wrong params) and keeps serving", async () => {
    const before = unanswered.length;
    send("this is not json");
    send('{"jsonrpc":"2.0","id":');
    send({ hello: "world" });
    send([{ jsonrpc: "2.0", id: 90, method: "ping" }]);
    send("");
    send({ jsonrpc: "2.0", result: {} }); // a malformed answer to us: reported, never answered
    const badMethod = new Promise<Record<string, unknown>>((resolve) => waiting.set(91, resolve));
    send({ jsonrpc: "2.0", id: 91, method: 5 });
    expect((await badMethod).error).toMatchObject({
      code: -32600,
      message: expect.stringMatching(/^Invalid Request: /),
    });
    await expect.poll(() => unanswered.length - before).toBe(4);
    const errors = unanswered.slice(before).map((m) => [m.id, (m.error as { code: number }).code]);
    expect(errors).toEqual([
      [null, -32700],
      [null, -32700],
      [null, -32600],
      [null, -32600],
    ]);
    expect((unanswered[before + 3]!.error as { message: string }).message).toMatch(/batches/);
    const badParams = await request("tools/call", { name: 42 });
    expect(badParams.error).toMatchObject({ code: -32602 });
    const unknownMethod = await request("no/such/method", {});
    expect(unknownMethod.error).toMatchObject({ code: -32601 });
    const ok = await request("tools/call", { name: "echo", arguments: { text: "alive" } });
    expect((ok.result as { structuredContent: unknown }).structuredContent).toEqual({
      text: "alive",
    });
  });

  it("names the field at fault in one line, never a schema dump, for every malformed part of a request", async () => {
    // The SDK dropped these unanswered (a progress token that is not a string or an integer) or
    // answered with zod's multi-line JSON dump, or as an internal error (a list's params).
    const cases: [string, unknown, number, RegExp][] = [
      [
        "tools/call",
        { name: 42 },
        -32602,
        /^Invalid tools\/call request: params\.name: expected string, received number$/,
      ],
      [
        "tools/call",
        { name: "echo", arguments: "x" },
        -32602,
        /params\.arguments: expected record, received string$/,
      ],
      [
        "tools/call",
        { name: "echo", arguments: [1] },
        -32602,
        /params\.arguments: expected record, received array$/,
      ],
      [
        "tools/call",
        undefined,
        -32602,
        /^Invalid tools\/call request: params: expected object, received undefined$/,
      ],
      [
        "tools/list",
        { cursor: 5 },
        -32602,
        /^Invalid params: params\.cursor: expected string, received number$/,
      ],
      [
        "tools/call",
        { name: "echo", arguments: { text: "x" }, _meta: { progressToken: { a: 1 } } },
        -32600,
        /^Invalid Request: params\._meta\.progressToken: expected a string or an integer, received an object$/,
      ],
      [
        "tools/call",
        { name: "echo", _meta: { progressToken: true } },
        -32600,
        /progressToken: expected a string or an integer, received a boolean$/,
      ],
      [
        "tools/call",
        { name: "echo", _meta: { progressToken: 1.5 } },
        -32600,
        /progressToken: expected a string or an integer, received a number that is not an integer$/,
      ],
      [
        "tools/call",
        { name: "echo", _meta: [] },
        -32600,
        /^Invalid Request: params\._meta: expected an object, received an array$/,
      ],
      [
        "tools/list",
        [1, 2],
        -32600,
        /^Invalid Request: params: expected an object, received an array$/,
      ],
      ["tools/list", 5, -32600, /^Invalid Request: params: expected an object, received a number$/],
      [
        "tools/call",
        { name: "echo", _meta: { progressToken: 1e300 } },
        -32600,
        /progressToken: expected a string or an integer, received an integer too large to be exact$/,
      ],
    ];
    for (const [method, params, code, message] of cases) {
      const answer = await request(method, params);
      const error = answer.error as { code: number; message: string };
      expect([method, params, error.code]).toEqual([method, params, code]);
      expect(error.message).toMatch(message);
      expect(error.message).not.toMatch(/\n|"code":/);
    }
    // A malformed notification is an invalid request whose id cannot be known (JSON-RPC): answered
    // with id null, the field named.
    const before = unanswered.length;
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { _meta: [] } });
    await expect.poll(() => unanswered.length - before).toBe(1);
    expect(unanswered[before]).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: {
        code: -32600,
        message: "Invalid Request: params._meta: expected an object, received an array",
      },
    });
    const ok = await request("tools/call", {
      name: "echo",
      arguments: { text: "alive" },
      _meta: { progressToken: 7 },
    });
    expect((ok.result as { structuredContent: unknown }).structuredContent).toEqual({
      text: "alive",
    });
  });

  it("reports a notification that fails its schema on stderr in one line naming the field, and answers nothing", async () => {
    const before = unanswered.length;
    send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: {}, progress: 1 },
    });
    send({
      jsonrpc: "2.0",
      method: "notifications/progress",
      params: { progressToken: 7, progress: "half" },
    });
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: [1] } });
    // Answered after the notifications before it were handled (stdio keeps the order).
    expect((await request("ping", {})).result).toEqual({});
    await expect.poll(() => log, { timeout: 5_000 }).toContain("params.requestId");
    expect(log).toContain("params.progressToken: expected string or number, received object");
    expect(log).toContain("params.progress: expected number, received string");
    expect(log).toContain("params.requestId: expected string or number, received array");
    expect(log).not.toMatch(/invalid_union|"expected"|"path"/);
    expect(unanswered.length).toBe(before);
  });

  it("answers every one of 10,000 calls in flight from one client, then serves the next", async () => {
    const answers = Array.from({ length: 10_000 }, (_, i) =>
      request("tools/call", { name: "echo", arguments: { text: `n${i}` } }),
    );
    const results = await Promise.all(answers);
    let ok = 0;
    results.forEach((message, i) => {
      const result = message.result as {
        isError?: boolean;
        structuredContent?: unknown;
        content: { text: string }[];
      };
      expect(result).toBeDefined();
      if (result.isError === true) expect(result.content[0]!.text).toMatch(/\w/);
      else {
        expect(result.structuredContent).toEqual({ text: `n${i}` });
        ok++;
      }
    });
    expect(ok).toBeGreaterThan(0);
    const after = await request("tools/call", { name: "echo", arguments: { text: "after" } });
    expect((after.result as { structuredContent: unknown }).structuredContent).toEqual({
      text: "after",
    });
  }, 240_000);

  it("refuses a message nested too deep, and tells the model about arguments nested past their limit", async () => {
    // Written as text: JSON.stringify itself overflows the stack on such a value.
    const nested = (levels: number) => `${'{"a":'.repeat(levels)}"x"${"}".repeat(levels)}`;
    const call = (id: number, levels: number) =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${nested(levels)}}}}`;
    // 5,000 levels overflowed the stack: -32603 "Maximum call stack size exceeded".
    const deep = new Promise<Record<string, unknown>>((resolve) => waiting.set(801, resolve));
    send(call(801, 5_000));
    expect((await deep).error).toMatchObject({
      code: -32600,
      message: expect.stringContaining("nests more than"),
    });
    // Within the message's limit but past the arguments': a result the model can act on.
    const past = new Promise<Record<string, unknown>>((resolve) => waiting.set(802, resolve));
    send(call(802, 258));
    const result = (await past).result as { isError?: boolean; content: { text: string }[] };
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("nest more than 256 levels deep");
    const after = await request("tools/call", { name: "echo", arguments: { text: "after" } });
    expect((after.result as { structuredContent: unknown }).structuredContent).toEqual({
      text: "after",
    });
  });

  it("refuses a request whose id is one still in flight, and answers the first on its own", async () => {
    // Red team (session 19): both ran and both were answered under the one id, and a
    // cancellation stopped only one of them.
    const id = "dup-1";
    const first = new Promise<Record<string, unknown>>((resolve) => waiting.set(id, resolve));
    const before = unanswered.length;
    send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "hang", arguments: {} } });
    send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "2" } },
    });
    const refusal = (await first) as { error?: { code: number; message: string } };
    expect(refusal.error).toMatchObject({
      code: -32600,
      message: expect.stringContaining("is still in flight"),
    });
    // The first (hung) call is cancelled by its id and answers nothing more; the id is free again.
    send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: id } });
    const again = await new Promise<Record<string, unknown>>((resolve) => {
      waiting.set(id, resolve);
      send({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "echo", arguments: { text: "3" } },
      });
    });
    expect((again.result as { structuredContent: unknown }).structuredContent).toEqual({
      text: "3",
    });
    expect(unanswered.length).toBe(before);
  }, 60_000);
});
