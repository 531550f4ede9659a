import type { ChildProcess } from "node:child_process";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
import {
  StdioClientTransport,
  type StdioServerParameters,
} from "@modelcontextprotocol/client/stdio";

/** How often the process is looked for when the SDK does not expose it (see below). */
const PID_POLL_MS = 250;

/**
 * The SDK's stdio client transport, closed as soon as the server process exits. The SDK's own
 * closes only when the process's stdio streams close, and a process the server started (a
 * grandchild) that inherited its stdout keeps them open after the server is gone: the calls in
 * flight, and every later one, would then wait for their timeouts. Here the process's `exit`
 * closes the connection at once (`onclose` fires, so the client fails the calls in flight), and
 * {@link UpstreamStdioTransport.exitDescription} says how it ended.
 *
 * @internal
 */
export class UpstreamStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** How the process ended (`exit code 1`, `signal SIGKILL`), once it has. */
  exitDescription: string | undefined;
  readonly #inner: StdioClientTransport;
  #closed = false;
  #poll: NodeJS.Timeout | undefined;

  constructor(params: StdioServerParameters) {
    this.#inner = new StdioClientTransport(params);
    this.#inner.onmessage = (message) => this.onmessage?.(message);
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => this.#closeOnce();
  }

  /** The server process's id, once started. */
  get pid(): number | null {
    return this.#inner.pid;
  }

  async start(): Promise<void> {
    await this.#inner.start();
    // The SDK keeps the child private; its `exit` event is what tells the process is gone.
    const child = Reflect.get(this.#inner, "_process") as ChildProcess | undefined;
    if (child !== undefined && typeof child.once === "function") {
      child.once("exit", (code, signal) => {
        this.exitDescription = signal === null ? `exit code ${code}` : `signal ${signal}`;
        // The pipes a grandchild holds open would keep this process alive; they are done.
        child.stdout?.destroy();
        child.stdin?.destroy();
        this.#closeOnce();
      });
      return;
    }
    // A later SDK without that field: look for the process by its id.
    const pid = this.#inner.pid;
    if (pid === null) return;
    this.#poll = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        this.exitDescription = "exited";
        this.#closeOnce();
      }
    }, PID_POLL_MS);
    this.#poll.unref();
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#inner.send(message);
  }

  /** Stops the server (stdin closed, then SIGTERM, then SIGKILL) and closes the connection. */
  async close(): Promise<void> {
    try {
      await this.#inner.close();
    } finally {
      this.#closeOnce();
    }
  }

  /** Stops the server now (SIGTERM, then as {@link UpstreamStdioTransport.close}), not waiting for it to read its closed stdin. */
  async terminate(): Promise<void> {
    const child = Reflect.get(this.#inner, "_process") as ChildProcess | undefined;
    try {
      child?.kill?.("SIGTERM");
    } catch {
      // Already gone.
    }
    await this.close().catch(() => undefined);
  }

  #closeOnce(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#poll);
    this.onclose?.();
  }
}
