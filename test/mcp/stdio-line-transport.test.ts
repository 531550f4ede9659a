// The stdio transport of `aintern mcp` on its own, fed by hand: what it passes on, what it
// answers itself, and how it stays up when its callers or its input misbehave.
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { StdioLineTransport } from "../../src/mcp/stdio-line-transport.js";

function open(maxMessageBytes = 1024) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StdioLineTransport(stdin, stdout, { maxMessageBytes });
  const messages: unknown[] = [];
  const errors: string[] = [];
  transport.onmessage = (message) => messages.push(message);
  transport.onerror = (error) => errors.push(error.message);
  const answers = (): Record<string, unknown>[] => {
    const text = (stdout.read() as Buffer | null)?.toString() ?? "";
    return text
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  };
  return { stdin, stdout, transport, messages, errors, answers };
}

const ping = (id: unknown) => `${JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })}\n`;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("StdioLineTransport", () => {
  it("passes messages on, CRLF or not, several in a chunk or one cut in many", async () => {
    const { stdin, transport, messages, answers } = open();
    await transport.start();
    stdin.write(`${ping(1).trimEnd()}\r\n${ping(2)}`);
    const third = ping("three");
    for (const char of third) stdin.write(char);
    await settle();
    expect(messages.map((m) => (m as { id: unknown }).id)).toEqual([1, 2, "three"]);
    expect(answers()).toEqual([]);
  });

  it("answers what is not a request, with the id only when it can carry it back exactly", async () => {
    const { stdin, transport, messages, errors, answers } = open();
    await transport.start();
    stdin.write("not json\n");
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 7, method: 5 })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 8.5, method: 5 })}\n`);
    stdin.write(`{"jsonrpc":"2.0","id":9007199254740993,"method":5}\n`);
    stdin.write(`${JSON.stringify([{ jsonrpc: "2.0", id: 9, method: "ping" }])}\n`);
    // No method but an id, a result or an error: a malformed answer to one of our requests.
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 0 })}\n`);
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", result: {} })}\n`);
    await settle();
    const got = answers();
    expect(got.map((a) => [a.id, (a.error as { code: number }).code])).toEqual([
      [null, -32700],
      [7, -32600],
      [8.5, -32600],
      [null, -32600], // 2^53 + 1 would come back as 2^53: another request's id
      [null, -32600],
    ]);
    // The problem named, not a dump of the schema's report.
    const messageOf = (answer: Record<string, unknown> | undefined) =>
      (answer?.error as { message?: string } | undefined)?.message ?? "";
    expect(messageOf(got[1])).toMatch(/^Invalid Request: .*method/);
    expect(messageOf(got[1]).length).toBeLessThan(400);
    expect(messageOf(got[4])).toMatch(/batches/);
    expect(messages).toEqual([]);
    expect(errors).toHaveLength(2);
  });

  it("keeps reading when its error reporter or its message handler throws", async () => {
    const { stdin, transport, answers } = open(64);
    const seen: unknown[] = [];
    transport.onerror = () => {
      throw new Error("a reporter that throws");
    };
    transport.onmessage = (message) => {
      seen.push((message as { id: unknown }).id);
      throw new Error("a handler that throws");
    };
    await transport.start();
    stdin.write(`${"x".repeat(100)}\nnot json\n${ping(1)}`);
    stdin.write(ping(2));
    await settle();
    expect(seen).toEqual([1, 2]);
    expect(answers().map((a) => (a.error as { message: string }).message)).toEqual([
      expect.stringMatching(/of 101 bytes was dropped unread/),
      expect.stringMatching(/^Parse error/),
    ]);
  });

  it("drops a line cut short when the input closes without ending, and reads a last one when it ends", async () => {
    const cut = open();
    await cut.transport.start();
    cut.stdin.write(ping(1).trimEnd()); // a whole object, but no newline yet
    cut.stdin.destroy(new Error("EIO"));
    await settle();
    expect(cut.messages).toEqual([]);
    expect(cut.answers()).toEqual([]);

    const ended = open();
    await ended.transport.start();
    ended.stdin.end(ping(2).trimEnd());
    await settle();
    expect(ended.messages).toEqual([{ jsonrpc: "2.0", id: 2, method: "ping" }]);
  });

  it("leaves one error listener on a stdout that transport after transport used", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    for (let i = 0; i < 12; i++) {
      const transport = new StdioLineTransport(stdin, stdout, { maxMessageBytes: 1024 });
      await transport.start();
      await transport.close();
    }
    expect(stdout.listenerCount("error")).toBe(1);
  });

  it("writes each message as one line, and waits for a full output to drain", async () => {
    const written: string[] = [];
    let release: (() => void) | undefined;
    const stdout = new Writable({
      highWaterMark: 16,
      writev(chunks, done) {
        written.push(chunks.map((c) => c.chunk.toString()).join(""));
        release = done;
      },
      write(chunk, _encoding, done) {
        written.push(chunk.toString());
        release = done;
      },
    });
    const transport = new StdioLineTransport(new PassThrough(), stdout, { maxMessageBytes: 1024 });
    await transport.start();
    let sent = false;
    const sending = transport.send({ jsonrpc: "2.0", id: 1, result: { text: "x".repeat(64) } });
    void sending.then(() => {
      sent = true;
    });
    await settle();
    expect(sent).toBe(false); // the output holds more than it takes: the send waits
    while (release !== undefined) {
      const done = release;
      release = undefined;
      done();
      await settle();
    }
    await sending;
    expect(written.join("")).toBe(
      `${JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "x".repeat(64) } })}\n`,
    );
  });

  it("refuses to send on an output that is closed or fails, without waiting", async () => {
    const ended = new PassThrough();
    const transport = new StdioLineTransport(new PassThrough(), ended, { maxMessageBytes: 1024 });
    await transport.start();
    ended.destroy();
    await expect(transport.send({ jsonrpc: "2.0", id: 1, result: {} })).rejects.toThrow(/closed/);

    const failing = new Writable({
      highWaterMark: 1,
      write(_chunk, _encoding, done) {
        done(new Error("EPIPE"));
      },
    });
    const other = new StdioLineTransport(new PassThrough(), failing, { maxMessageBytes: 1024 });
    await other.start();
    await expect(other.send({ jsonrpc: "2.0", id: 2, result: {} })).rejects.toThrow(/EPIPE/);
  });
});
