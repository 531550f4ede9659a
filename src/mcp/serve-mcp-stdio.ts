import type { Readable, Writable } from "node:stream";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import type { AinternMcpServer } from "./aintern-mcp-server.js";

/** Options of {@link serveMcpStdio}. */
export interface ServeMcpStdioOptions {
  /** Default `process.stdin`. */
  readonly stdin?: Readable;
  /** Default `process.stdout`. */
  readonly stdout?: Writable;
  /**
   * The largest message accepted. Default 64 MiB: a larger line cannot be answered (it has no
   * readable id) and is dropped with an error report.
   */
  readonly maxMessageBytes?: number;
  readonly onError?: (error: Error) => void;
}

/** A running stdio server. */
export interface McpStdioHandle {
  close(): Promise<void>;
}

/**
 * Serves `mcp` over stdio: one connection, 2025-era clients (`initialize`) and 2026-07-28 ones
 * alike. Requests in flight when stdin closes are cancelled (and audited as such).
 */
export function serveMcpStdio(
  mcp: AinternMcpServer,
  options: ServeMcpStdioOptions = {},
): McpStdioHandle {
  const transport = new StdioServerTransport(options.stdin, options.stdout, {
    maxBufferSize: options.maxMessageBytes ?? 64 * 1024 * 1024,
  });
  return serveStdio((ctx) => mcp.createServer(ctx), {
    transport,
    ...(options.onError === undefined ? {} : { onerror: options.onError }),
  });
}
