import type { Readable, Writable } from "node:stream";
import { serveStdio } from "@modelcontextprotocol/server/stdio";
import type { AinternMcpServer } from "./aintern-mcp-server.js";
import { StdioLineTransport } from "./stdio-line-transport.js";

/** Options of {@link serveMcpStdio}. */
export interface ServeMcpStdioOptions {
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. */
  readonly stdout?: Writable;
  /**
   * The largest message accepted. Default 64 MiB: a larger line is dropped as it arrives, unread,
   * answered with an invalid-request error whose id is `null` (its own id was not read), and
   * reported to `onError`.
   */
  readonly maxMessageBytes?: number;
  /** Told of what goes wrong on the connection: dropped lines, malformed responses, write errors. */
  readonly onError?: (error: Error) => void;
}

/** A running stdio server. */
export interface McpStdioHandle {
  close(): Promise<void>;
}

/**
 * Serves `mcp` over stdio: one connection, 2025-era clients (`initialize`) and 2026-07-28 ones
 * alike. Requests in flight when stdin closes are cancelled (and audited as such). A line that
 * is not JSON gets a parse error (-32700), one that is not a JSON-RPC request (a batch, an object
 * without a method) an invalid-request error (-32600); the server keeps serving.
 */
export function serveMcpStdio(
  mcp: AinternMcpServer,
  options: ServeMcpStdioOptions = {},
): McpStdioHandle {
  const maxMessageBytes = options.maxMessageBytes ?? 64 * 1024 * 1024;
  const stdin = options.stdin ?? process.stdin;
  // Ours, not the SDK's: lines are cut once (the SDK rescans all it holds on every chunk), a line
  // past the limit is dropped as it arrives with the connection kept (the SDK's limit closes it),
  // and a line that is not a message is answered (the SDK drops it in silence).
  const transport = new StdioLineTransport(stdin, options.stdout ?? process.stdout, {
    maxMessageBytes,
  });
  return serveStdio((ctx) => mcp.createServer(ctx), {
    transport,
    ...(options.onError === undefined ? {} : { onerror: options.onError }),
  });
}
