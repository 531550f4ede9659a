import type { CallToolResult, Transport } from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { z } from "zod";
import type { RiskLevel } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import { importMcpTools, type McpToolClient } from "./import-mcp-tools.js";
import { ReportLimiter } from "./report-limiter.js";
import { UpstreamStdioTransport } from "./upstream-stdio-transport.js";

/** What every upstream's configuration can say. */
interface UpstreamCommonConfig {
  readonly name: string;
  /** Prefix of the imported tools' ids. Default `<name>_`. */
  readonly prefix?: string;
  /** Risk per upstream tool name, overriding its annotations (and `defaultRisk`). */
  readonly risk?: Readonly<Record<string, RiskLevel>>;
  /** Risk of every tool `risk` does not name, instead of what its annotations claim. */
  readonly defaultRisk?: RiskLevel;
  /** Longest wait for the server to start, initialize and list its tools. Default 30 s. */
  readonly startTimeoutMs?: number;
}

/** An upstream MCP server started as a child process (stdio). */
export interface StdioUpstreamConfig extends UpstreamCommonConfig {
  readonly command: string;
  readonly args?: readonly string[];
  /**
   * Environment variables for the server, added to the few it always gets (the SDK's default:
   * `HOME`, `LOGNAME`, `PATH`, `SHELL`, `TERM`, `USER`). Nothing else of aintern's environment
   * (API keys, `AINTERN_CONSOLE_TOKEN`) is passed on. `AINTERN_CALL` is always the server's own
   * random marker (how its processes are found when it stops), whatever `env` says.
   */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

/** An upstream MCP server reached over Streamable HTTP. */
export interface HttpUpstreamConfig extends UpstreamCommonConfig {
  readonly url: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One upstream of the gateway. */
export type McpUpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

/** Construction options of {@link McpUpstream} beyond its config. */
export interface McpUpstreamOptions {
  /** Restarts allowed per minute before calls fail instead. Default 5. */
  readonly maxRestartsPerMinute?: number;
  /**
   * Start the server again as soon as it stops, or when it failed to start, without waiting for
   * a call (within `maxRestartsPerMinute`, retrying when the budget allows again). Default true.
   */
  readonly restartInBackground?: boolean;
  /**
   * Told the upstream's tools each time they are listed: after every (re)start, and when the
   * server sends `notifications/tools/list_changed`.
   */
  readonly onTools?: (tools: Tool[]) => void | Promise<void>;
  readonly onError?: (error: Error) => void;
}

/** Default of {@link UpstreamCommonConfig.startTimeoutMs}. */
export const DEFAULT_UPSTREAM_START_TIMEOUT_MS = 30_000;

/** Most `tools/list` pages read from one server. */
const MAX_TOOL_PAGES = 100;

/** A `tools/list` result read loosely: each tool is checked on its own by the import. */
const looseToolList = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

/**
 * One upstream MCP server, kept running: started on {@link McpUpstream.start}, started again when
 * its process exits (its calls in flight fail at once, naming it), at most `maxRestartsPerMinute`
 * times a minute. A start that does not finish within `startTimeoutMs` is abandoned and its
 * process stopped. After each start, and on `notifications/tools/list_changed`, its tools are
 * listed again and given to `onTools`. Implements {@link McpToolClient}, so the tools
 * {@link McpUpstream.importTools} makes always call the current process.
 */
export class McpUpstream implements McpToolClient {
  readonly config: McpUpstreamConfig;
  /** How many times the server was started again after it stopped or failed to start. */
  restarts = 0;
  readonly #options: McpUpstreamOptions;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  /** The transport of a start in progress, stopped by {@link McpUpstream.close}. */
  #starting: Transport | undefined;
  #closed = false;
  #everStarted = false;
  /** Starts that failed in a row. */
  #failures = 0;
  #lastExit: string | undefined;
  #retry: NodeJS.Timeout | undefined;
  readonly #restartTimes: number[] = [];
  /** What the SDK's client reports of the connection (lines it cannot read, ...), limited. */
  readonly #transportErrors: ReportLimiter;

  constructor(config: McpUpstreamConfig, options: McpUpstreamOptions = {}) {
    this.config = config;
    this.#options = options;
    this.#transportErrors = new ReportLimiter(
      (error) => this.#options.onError?.(error),
      `upstream '${config.name}'`,
    );
  }

  /** The prefix of this upstream's tool ids. */
  get prefix(): string {
    return this.config.prefix ?? `${this.config.name}_`;
  }

  /** Whether a connection is up now. */
  get connected(): boolean {
    return this.#client !== undefined;
  }

  /**
   * Starts the server, connects to it and lists its tools (to `onTools`). When it fails, the
   * error names the upstream; with `restartInBackground` it is tried again later.
   */
  async start(): Promise<void> {
    try {
      await this.#connected();
    } catch (error) {
      this.#failures++;
      this.#scheduleRestart();
      throw error;
    }
  }

  /** The upstream's tools as aintern tools (prefixed, risk from annotations or the config). */
  async importTools(onToolLeftOut?: (name: string, problem: string) => void): Promise<Tool[]> {
    return this.#importFrom(this, onToolLeftOut);
  }

  /** The server's `tools/list`, every page, each entry as sent (checked by the import). */
  async listTools(): Promise<{ readonly tools: readonly unknown[] }> {
    return listAllTools(await this.#connected());
  }

  async callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: Parameters<McpToolClient["callTool"]>[1],
  ): Promise<CallToolResult> {
    const client = await this.#connected();
    try {
      return await client.callTool(params, options);
    } catch (error) {
      if (this.#client === client || this.#closed || options?.signal?.aborted === true) throw error;
      throw new Error(
        `The upstream MCP server '${this.config.name}' stopped during the call (${this.#lastExit ?? "connection closed"}); it is started again for the next call`,
        { cause: error },
      );
    }
  }

  /**
   * Stops the server (also one still starting) and, for a stdio one, every process it started
   * (see {@link UpstreamStdioTransport}); no more restarts.
   */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    const starting = this.#starting;
    this.#starting = undefined;
    await Promise.all([
      client?.close().catch(() => undefined),
      starting === undefined ? undefined : stopTransport(starting),
    ]);
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
    const name = this.config.name;
    if (this.#everStarted) {
      const waitMs = this.#budgetWaitMs();
      if (waitMs > 0) {
        throw new Error(
          `Upstream '${name}' keeps stopping (started again ${this.#restartTimes.length} times in a minute); not started again for ${Math.ceil(waitMs / 1000)} s`,
        );
      }
      this.#restartTimes.push(Date.now());
      this.restarts++;
    }
    this.#everStarted = true;
    const client = new Client({ name: "aintern-gateway", version: "0.1.0" });
    const transport = this.#transport();
    this.#starting = transport;
    client.onerror = (error) => this.#transportErrors.report(error);
    client.onclose = () => {
      if (this.#client !== client) return;
      this.#client = undefined;
      this.#lastExit =
        transport instanceof UpstreamStdioTransport ? transport.exitDescription : undefined;
      if (this.#closed) return;
      this.#options.onError?.(
        new Error(
          `Upstream '${name}' stopped${this.#lastExit === undefined ? "" : ` (${this.#lastExit})`}; it will be started again`,
        ),
      );
      this.#scheduleRestart();
    };
    let changedWhileStarting = false;
    client.setNotificationHandler("notifications/tools/list_changed", () => {
      if (this.#client === client) this.#relist(client);
      else changedWhileStarting = true;
    });
    const timeoutMs = this.config.startTimeoutMs ?? DEFAULT_UPSTREAM_START_TIMEOUT_MS;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      void stopTransport(transport);
    }, timeoutMs);
    let tools: Tool[];
    try {
      await client.connect(transport);
      tools = await this.#importFrom(client);
    } catch (error) {
      await stopTransport(transport);
      const why = timedOut
        ? `no answer within ${timeoutMs} ms (startTimeoutMs)`
        : (error as Error).message;
      throw new Error(`Upstream '${name}' did not start: ${why}`, { cause: error });
    } finally {
      clearTimeout(timer);
      if (this.#starting === transport) this.#starting = undefined;
    }
    if (this.#closed) {
      await client.close().catch(() => undefined);
      throw new Error(`The upstream MCP server '${name}' was closed`);
    }
    // The registry is brought up to date before any call reaches the new process: a tool it
    // changed (say, read-only before, destructive now) is judged by its new definition.
    await this.#options.onTools?.(tools);
    this.#client = client;
    this.#failures = 0;
    if (changedWhileStarting) this.#relist(client);
    return client;
  }

  /**
   * Lists `client`'s tools again for `onTools`, one listing after another (never out of order).
   * A change announced while a listing waits to start is covered by it: a flood of
   * `list_changed` makes one listing behind the one running, not one per notification.
   */
  #relist(client: Client): void {
    if (this.#relistQueued) return;
    this.#relistQueued = true;
    this.#listing = this.#listing
      .then(async () => {
        this.#relistQueued = false;
        if (this.#client !== client) return;
        const tools = await this.#importFrom(client);
        if (this.#client === client) await this.#options.onTools?.(tools);
      })
      .catch((error: Error) =>
        this.#options.onError?.(
          new Error(
            `Upstream '${this.config.name}': its changed tool list could not be read: ${error.message}`,
          ),
        ),
      );
  }
  #listing: Promise<void> = Promise.resolve();
  /** A listing is queued and has not started: later announcements need none of their own. */
  #relistQueued = false;

  /** Imports the tools `lister` lists; the tools call this upstream (its current process). */
  #importFrom(
    lister: Client | McpUpstream,
    onToolLeftOut?: (name: string, problem: string) => void,
  ): Promise<Tool[]> {
    const source: McpToolClient = {
      listTools: () => (lister instanceof Client ? listAllTools(lister) : lister.listTools()),
      callTool: (params, options) => this.callTool(params, options),
    };
    const leftOut =
      onToolLeftOut ??
      ((tool: string, problem: string) =>
        this.#options.onError?.(
          new Error(`Upstream '${this.config.name}': tool '${tool}' left out: ${problem}`),
        ));
    return importMcpTools(source, {
      prefix: this.prefix,
      ...(this.config.risk === undefined ? {} : { risk: this.config.risk }),
      ...(this.config.defaultRisk === undefined ? {} : { defaultRisk: this.config.defaultRisk }),
      tags: ["mcp", `upstream:${this.config.name}`],
      onToolLeftOut: leftOut,
    });
  }

  #transport(): Transport {
    if ("command" in this.config) {
      return new UpstreamStdioTransport({
        command: this.config.command,
        args: [...(this.config.args ?? [])],
        // Only the SDK's few safe variables and the configured ones: never the gateway's secrets.
        env: { ...getDefaultEnvironment(), ...(this.config.env ?? {}) },
        ...(this.config.cwd === undefined ? {} : { cwd: this.config.cwd }),
        stderr: "inherit",
      });
    }
    return new StreamableHTTPClientTransport(new URL(this.config.url), {
      requestInit: { headers: { ...(this.config.headers ?? {}) } },
    });
  }

  /** How long until one more restart fits in the budget (0: now). */
  #budgetWaitMs(): number {
    const now = Date.now();
    while (this.#restartTimes.length > 0 && now - this.#restartTimes[0]! > 60_000) {
      this.#restartTimes.shift();
    }
    if (this.#restartTimes.length < (this.#options.maxRestartsPerMinute ?? 5)) return 0;
    return this.#restartTimes[0]! + 60_000 - now + 1;
  }

  #scheduleRestart(): void {
    if (this.#closed || this.#retry !== undefined || this.#options.restartInBackground === false) {
      return;
    }
    // At once after a running server stopped; after 1 s, 2 s, 4 s ... (at most a minute) while
    // starts fail; and never beyond the restart budget.
    const backoffMs = this.#failures === 0 ? 0 : Math.min(60_000, 1000 * 2 ** (this.#failures - 1));
    const delayMs = Math.max(backoffMs, this.#budgetWaitMs());
    this.#retry = setTimeout(() => {
      this.#retry = undefined;
      if (this.#closed || this.#client !== undefined) return;
      this.#connected().then(
        () => this.#options.onError?.(new Error(`Upstream '${this.config.name}' is running again`)),
        (error: Error) => {
          this.#failures++;
          this.#options.onError?.(error);
          this.#scheduleRestart();
        },
      );
    }, delayMs);
    // A gateway that is done must not stay up for a retry.
    this.#retry.unref();
  }
}

/** Every page of a server's `tools/list`, read loosely (each tool is checked by the import). */
async function listAllTools(client: Client): Promise<{ readonly tools: readonly unknown[] }> {
  const tools: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const result = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      looseToolList,
    );
    tools.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined) break;
  }
  return { tools };
}

/** Stops a transport's server now: a stdio one is sent SIGTERM first rather than waited for. */
async function stopTransport(transport: Transport): Promise<void> {
  if (transport instanceof UpstreamStdioTransport) await transport.terminate();
  else await transport.close().catch(() => undefined);
}
