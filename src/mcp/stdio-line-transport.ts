import type { Readable, Writable } from "node:stream";
import {
  INVALID_REQUEST,
  type JSONRPCMessage,
  PARSE_ERROR,
  parseJSONRPCMessage,
  type Transport,
} from "@modelcontextprotocol/server";
import { nestsDeeperThan } from "../core/index.js";
import { MAX_MESSAGE_DEPTH, tooDeepMessage } from "./message-depth.js";
import { RequestAdmission } from "./request-admission.js";
import { hasMethod, requestId, requestShapeProblem } from "./request-shape.js";
import { StdioLineFraming } from "./stdio-line-framing.js";

/** Requests with the server at a time; the others wait in the transport (see RequestAdmission). */
const MAX_REQUESTS_IN_FLIGHT = 64;
/** Requests waiting past which no more input is read until some are handed on. */
const MAX_REQUESTS_WAITING = 16_384;

/**
 * The MCP stdio transport `aintern mcp` serves on: one JSON-RPC message per line, cut from the
 * input by {@link StdioLineFraming} (whole lines only, each copied once), written one line per
 * message. Unlike the SDK's stdio transport, a line that is not a message is answered, as
 * JSON-RPC asks, instead of being dropped in silence: not JSON gets a parse error (-32700), a
 * batch, an object that is not a request or a line past `maxMessageBytes` (dropped as it
 * arrives, unread) an invalid-request error (-32600), with the request's id when it has a usable
 * one and `null` otherwise. An object without a method but with an id, a result or an error is
 * taken for a malformed response (the client's answer to a request of ours) and only reported
 * through `onerror`: its id is one of ours, and an answer to an answer could loop. Errors thrown
 * by `onerror` or `onmessage` are caught: one bad line never stops the reading. Requests reach
 * the server through a {@link RequestAdmission}: at most 64 at a time, none while the output waits
 * to drain (no input is read then either), and one whose id is still in flight is refused.
 *
 * @internal
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #framing: StdioLineFraming;
  #started = false;
  #closed = false;
  /** The output is full: resolves when it drains (no input is read meanwhile). */
  #waitingForDrain: Promise<void> | undefined;
  readonly #admission: RequestAdmission;

  /**
   * @param stdin the client's messages.
   * @param stdout where the answers go.
   */
  constructor(stdin: Readable, stdout: Writable, options: { readonly maxMessageBytes: number }) {
    this.#stdin = stdin;
    this.#stdout = stdout;
    this.#admission = new RequestAdmission(MAX_REQUESTS_IN_FLIGHT, MAX_REQUESTS_WAITING, {
      deliver: (message) => {
        try {
          this.onmessage?.(message);
        } catch (error) {
          this.#report(error);
        }
      },
      duplicate: (id) =>
        this.#answer(
          id,
          INVALID_REQUEST,
          `Invalid Request: a request with id ${JSON.stringify(id)} is still in flight; give each request an id of its own`,
        ),
      roomAgain: () => {
        if (!this.#closed && this.#waitingForDrain === undefined) this.#stdin.resume();
      },
    });
    const limit = options.maxMessageBytes;
    this.#framing = new StdioLineFraming(limit, (bytes) => {
      const more = `more than the ${limit} a message may have`;
      this.#answer(
        null,
        INVALID_REQUEST,
        `Invalid Request: a message of ${bytes} bytes was dropped unread, ${more}`,
      );
      this.#report(
        new Error(
          `Dropped a message of ${bytes} bytes: ${more} (it cannot be answered by its id: it was not read)`,
        ),
      );
    });
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error("The stdio transport is already started");
    this.#started = true;
    const stdin = this.#stdin;
    if (stdin.readableEnded || stdin.destroyed) {
      setImmediate(this.#onEnd);
      return;
    }
    stdin.on("data", this.#onData);
    stdin.on("error", this.#onStreamError);
    stdin.on("end", this.#onEnd);
    stdin.on("close", this.#onClose);
    this.#stdout.on("error", this.#onStdoutError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return Promise.reject(new Error("The stdio transport is closed"));
    const stdout = this.#stdout;
    if (stdout.destroyed || stdout.writableEnded) {
      return Promise.reject(new Error("The stdio transport's output is closed"));
    }
    // One write of one string: measured a little faster than the message and its newline as two
    // pieces of a corked write (a `writev`), the joined string's extra copy included.
    const room = stdout.write(`${JSON.stringify(message)}\n`);
    // A stream reports a failed write with an `error` event, never from `write` itself.
    const drained = room ? Promise.resolve() : this.#drained();
    this.#admission.sent(message);
    return drained;
  }

  /**
   * Resolves when the output has taken what waits for it. Meanwhile no input is read: a client
   * that sends requests but never reads the answers would otherwise make the server hold every
   * answer in memory until it runs out (backpressure, as a pipe gives). One wait for all sends.
   */
  #drained(): Promise<void> {
    if (this.#waitingForDrain !== undefined) return this.#waitingForDrain;
    const stdout = this.#stdout;
    this.#stdin.pause();
    this.#admission.blocked = true;
    this.#waitingForDrain = new Promise<void>((resolve, reject) => {
      const done = (error?: Error): void => {
        stdout.off("drain", onDrain);
        stdout.off("error", onError);
        stdout.off("close", onClose);
        this.#waitingForDrain = undefined;
        if (!this.#closed && !this.#admission.full) this.#stdin.resume();
        this.#admission.blocked = false;
        if (error === undefined) resolve();
        else reject(error);
      };
      const onDrain = (): void => done();
      const onError = (error: Error): void => done(error);
      const onClose = (): void => done(new Error("The stdio transport's output closed"));
      stdout.on("drain", onDrain);
      stdout.on("error", onError);
      stdout.on("close", onClose);
    });
    return this.#waitingForDrain;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#admission.close();
    const stdin = this.#stdin;
    stdin.off("data", this.#onData);
    stdin.off("error", this.#onStreamError);
    stdin.off("end", this.#onEnd);
    stdin.off("close", this.#onClose);
    // A write failing after the close (the client gone: EPIPE) must not crash the process; one
    // such listener serves every transport that used the stream.
    this.#stdout.off("error", this.#onStdoutError);
    if (!this.#stdout.listeners("error").includes(ignore)) this.#stdout.on("error", ignore);
    if (stdin.listenerCount("data") === 0) stdin.pause();
    this.onclose?.();
  }

  readonly #onData = (chunk: Buffer | string): void => {
    const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
    this.#framing.push(bytes, this.#onLines);
  };

  /** Whole lines, each ending with a newline. */
  readonly #onLines = (lines: Buffer): void => {
    const text = lines.toString("utf8");
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      if (this.#closed) return;
      this.#line(text.slice(start, end));
      start = end + 1;
    }
    if (this.#admission.full) this.#stdin.pause();
  };

  /** The input ended: a last line without its newline is still a message. */
  readonly #onEnd = (): void => {
    const last = this.#framing.end();
    if (last !== undefined && !this.#closed) this.#line(last.toString("utf8"));
    void this.close();
  };

  /** The input closed without ending (destroyed, an error): a line cut short is dropped. */
  readonly #onClose = (): void => {
    this.#framing.end();
    void this.close();
  };

  readonly #onStreamError = (error: Error): void => {
    this.#report(error);
  };

  readonly #onStdoutError = (error: Error): void => {
    if (this.#closed) return;
    this.#report(error);
    void this.close();
  };

  #report(error: unknown): void {
    try {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    } catch {
      // A reporter that throws must not stop the reading.
    }
  }

  /** One line: a message passed on, or the error it gets, or nothing for a blank line. */
  #line(raw: string): void {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      this.#answer(null, PARSE_ERROR, `Parse error: the line is not JSON (${describe(error)})`);
      return;
    }
    if (nestsDeeperThan(value, MAX_MESSAGE_DEPTH)) {
      this.#answer(requestId(value), INVALID_REQUEST, tooDeepMessage);
      return;
    }
    if (Array.isArray(value)) {
      this.#answer(
        null,
        INVALID_REQUEST,
        "Invalid Request: JSON-RPC batches are not supported; send one message per line",
      );
      return;
    }
    const shapeProblem = hasMethod(value) ? requestShapeProblem(value) : undefined;
    if (shapeProblem !== undefined) {
      this.#answer(requestId(value), INVALID_REQUEST, `Invalid Request: ${shapeProblem}`);
      return;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(value);
    } catch (error) {
      const problem = `not a JSON-RPC message (${firstIssue(error)})`;
      if (isResponseLike(value)) this.#report(new Error(`A line is ${problem}`));
      else this.#answer(requestId(value), INVALID_REQUEST, `Invalid Request: ${problem}`);
      return;
    }
    this.#admission.accept(message);
  }

  #answer(id: string | number | null, code: number, message: string): void {
    // JSON-RPC's error response for a request whose id could not be read has `id: null`, which
    // the SDK's message type does not allow: written here as it is.
    const line = `${JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } })}\n`;
    try {
      if (!this.#stdout.write(line)) this.#drained().catch(ignore);
    } catch (error) {
      this.#report(error);
    }
  }
}

function ignore(): void {}

function describe(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

/** The first problem a schema error names, `path: message`, briefly. */
function firstIssue(error: unknown): string {
  type Issue = { path?: readonly PropertyKey[]; message?: string; errors?: Issue[][] };
  let issues = (error as { issues?: Issue[] } | undefined)?.issues;
  // A union's own issue says only "invalid input": its members' say what was wrong, and the
  // member with the fewest problems (a request's, for a request) is the one meant.
  for (let depth = 0; depth < 8 && issues?.[0]?.errors !== undefined; depth++) {
    const members = issues[0].errors;
    if (members.length === 0) break;
    issues = members.reduce((best, member) => (member.length < best.length ? member : best));
  }
  const issue = issues?.[0];
  if (issue?.message === undefined) return describe(error);
  const path = issue.path !== undefined && issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return describe(`${path}${issue.message}`);
}

/**
 * An object without a method but with an id, a result or an error: a response (to a request
 * of ours), however malformed.
 */
function isResponseLike(value: unknown): boolean {
  if (typeof value !== "object" || value === null || "method" in value) return false;
  return "id" in value || "result" in value || "error" in value;
}
