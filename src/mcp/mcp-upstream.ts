import type { CallToolResult } from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { RiskLevel } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import { importMcpTools, type ListedMcpTool, type McpToolClient } from "./import-mcp-tools.js";

/** An upstream MCP server started as a child process (stdio). */
export interface StdioUpstreamConfig {
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Prefix of the imported tools' ids. Default `<name>_`. */
  readonly prefix?: string;
  /** Risk per upstream tool name, overriding its annotations. */
  readonly risk?: Readonly<Record<string, RiskLevel>>;
}

/** An upstream MCP server reached over Streamable HTTP. */
export interface HttpUpstreamConfig {
  readonly name: string;
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly prefix?: string;
  readonly risk?: Readonly<Record<string, RiskLevel>>;
}

/** One upstream of the gateway. */
export type McpUpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

/** Construction options of {@link McpUpstream} beyond its config. */
export interface McpUpstreamOptions {
  /** Restarts allowed per minute before calls fail instead. Default 5. */
  readonly maxRestartsPerMinute?: number;
  readonly onError?: (error: Error) => void;
}

/**
 * One upstream MCP server, kept running: started on {@link McpUpstream.start}, started again when
 * it dies (its calls in flight fail: the SDK rejects them when the connection closes), at most
 * `maxRestartsPerMinute` times a minute. Implements {@link McpToolClient}, so the tools
 * {@link McpUpstream.importTools} makes always call the current process.
 */
export class McpUpstream implements McpToolClient {
  readonly config: McpUpstreamConfig;
  /** How many times the server was started again after it died. */
  restarts = 0;
  readonly #options: McpUpstreamOptions;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #closed = false;
  readonly #restartTimes: number[] = [];

  constructor(config: McpUpstreamConfig, options: McpUpstreamOptions = {}) {
    this.config = config;
    this.#options = options;
  }

  /** The prefix of this upstream's tool ids. */
  get prefix(): string {
    return this.config.prefix ?? `${this.config.name}_`;
  }

  /** Whether a connection is up now. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /** Starts the server and connects to it. */
  async start(): Promise<void> {
    await this.#connected();
  }

  /** The upstream's tools as aintern tools (prefixed, risk from annotations or the config). */
  async importTools(): Promise<Tool[]> {
    return importMcpTools(this, {
      prefix: this.prefix,
      ...(this.config.risk === undefined ? {} : { risk: this.config.risk }),
      tags: ["mcp", `upstream:${this.config.name}`],
    });
  }

  async listTools(): Promise<{ readonly tools: readonly ListedMcpTool[] }> {
    const client = await this.#connected();
    return client.listTools();
  }

  async callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: Parameters<McpToolClient["callTool"]>[1],
  ): Promise<CallToolResult> {
    const client = await this.#connected();
    return client.callTool(params, options);
  }

  /** Stops the server; no more restarts. */
  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    await client?.close().catch(() => undefined);
  }

  async #connected(): Promise<Client> {
    if (this.#client !== undefined) return this.#client;
    if (this.#closed) throw new Error(`The upstream MCP server '${this.config.name}' was closed`);
    this.#connecting ??= this.#connect().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(): Promise<Client> {
    const client = new Client({ name: "aintern-gateway", version: "0.1.0" });
    const transport =
      "command" in this.config
        ? new StdioClientTransport({
            command: this.config.command,
            args: [...(this.config.args ?? [])],
            ...(this.config.env === undefined
              ? {}
              : { env: { ...(process.env as Record<string, string>), ...this.config.env } }),
            ...(this.config.cwd === undefined ? {} : { cwd: this.config.cwd }),
            stderr: "inherit",
          })
        : new StreamableHTTPClientTransport(new URL(this.config.url), {
            requestInit: { headers: { ...(this.config.headers ?? {}) } },
          });
    client.onerror = (error) => this.#options.onError?.(error);
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      if (this.#closed) return;
      // It died: the next call starts it again, within the restart budget.
      this.#options.onError?.(
        new Error(`The upstream MCP server '${this.config.name}' stopped; it will be restarted`),
      );
    };
    if (this.#everConnected) {
      const now = Date.now();
      while (this.#restartTimes.length > 0 && now - this.#restartTimes[0]! > 60_000) {
        this.#restartTimes.shift();
      }
      if (this.#restartTimes.length >= (this.#options.maxRestartsPerMinute ?? 5)) {
        throw new Error(
          `The upstream MCP server '${this.config.name}' keeps stopping (restarted ${this.#restartTimes.length} times in a minute); not restarted`,
        );
      }
      this.#restartTimes.push(now);
      this.restarts++;
    }
    this.#everConnected = true;
    await client.connect(transport);
    this.#client = client;
    return client;
  }
  #everConnected = false;
}
