import type { Readable, Writable } from "node:stream";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";
import type { AinternMcpServer } from "./aintern-mcp-server.js";
import { StdioLineFraming } from "./stdio-line-framing.js";

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
  const maxMessageBytes = options.maxMessageBytes ?? 64 * 1024 * 1024;
  const stdin = options.stdin ?? process.stdin;
  // Whole lines only reach the SDK's reader (it scans all it holds on every chunk), and a line
  // past the limit is dropped as it arrives, with the connection kept (the SDK's own limit would
  // close it).
  const lines = new StdioLineFraming(maxMessageBytes, (bytes) =>
    options.onError?.(
      new Error(
        `Dropped a message of ${bytes} bytes: more than the ${maxMessageBytes} a message may have (it cannot be answered: its id is not read)`,
      ),
    ),
  );
  stdin.on("error", (error) => lines.destroy(error));
  stdin.pipe(lines);
  const transport = new StdioServerTransport(lines, options.stdout, {
    // Each chunk it gets is whole lines, read at once: the limit above is the one that counts.
    maxBufferSize: Number.POSITIVE_INFINITY,
  });
  return serveStdio((ctx) => mcp.createServer(ctx), {
    transport,
    ...(options.onError === undefined ? {} : { onerror: options.onError }),
  });
}
