import { parseArgs } from "node:util";
import {
  AinternMcpServer,
  introspectionVerifier,
  serveMcpHttp,
  serveMcpStdio,
} from "../mcp/index.js";
import { openMcpRuntime } from "./mcp-runtime.js";

export const mcpUsage = `Usage:
  aintern mcp [--workspace DIR] [--db URL] [--tools builtin|readonly|MODULE]... [--config FILE]
              [--http HOST:PORT [--token T|none]] [--upstream "CMD ARGS"]... [--approvals elicit|deny]

  Serves tools to any MCP client (stdio by default, Streamable HTTP with --http), every call
  through aintern's policy, approvals (asked by elicitation) and audit log.

  --workspace  The folder tools may touch (default: the config's, else the current directory).
  --db         Store URL (default sqlite:<workspace>/.aintern/audit.db).
  --tools      builtin (default), readonly, or a module exporting defineTool() tools; repeatable.
  --config     A configuration file (default: aintern.config.json in the workspace, if any).
  --http       Serve Streamable HTTP on HOST:PORT (loopback by default; a bearer token is printed).
  --upstream   Start an MCP server and serve its tools guarded (prefix up1_, up2_, ...); repeatable.
  --token      With --http: the bearer token to require (default: a random one, printed), or
               none (no token; refused unless the host is loopback).
  --approvals  elicit (default: ask the person through the client) or deny (never ask).
`;

/** `aintern mcp`: resolves when the server stopped. Returns the exit code. */
export async function runMcpCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workspace: { type: "string" },
      db: { type: "string" },
      tools: { type: "string", multiple: true },
      config: { type: "string" },
      http: { type: "string" },
      upstream: { type: "string", multiple: true },
      approvals: { type: "string" },
      token: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(mcpUsage);
    return 0;
  }
  const approvals = values.approvals;
  if (approvals !== undefined && approvals !== "elicit" && approvals !== "deny") {
    process.stderr.write(`--approvals must be elicit or deny, not '${approvals}'\n`);
    return 2;
  }
  let http: { host: string; port: number } | undefined;
  if (values.http !== undefined) {
    const parsed = parseHostPort(values.http);
    if (parsed === undefined) {
      process.stderr.write(`--http must be HOST:PORT or PORT, not '${values.http}'\n`);
      return 2;
    }
    http = parsed;
  }
  const loopback = http === undefined || ["127.0.0.1", "localhost", "::1"].includes(http.host);
  if (values.token === "none" && !loopback) {
    process.stderr.write("--token none is only allowed on a loopback host\n");
    return 2;
  }
  const log = (line: string): void => {
    process.stderr.write(`aintern mcp: ${line}\n`);
  };
  const runtime = await openMcpRuntime({
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.db === undefined ? {} : { db: values.db }),
    ...(values.tools === undefined
      ? {}
      : { tools: values.tools.flatMap((t) => t.split(",")).filter((t) => t !== "") }),
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(values.upstream === undefined ? {} : { upstreams: values.upstream }),
    onError: (error) => log(error.message),
  });
  const server = new AinternMcpServer({
    registry: runtime.registry,
    processor: runtime.processor,
    approvals: (approvals as "elicit" | "deny" | undefined) ?? runtime.config.approvals ?? "elicit",
    ...(runtime.config.approvalTimeoutMs === undefined
      ? {}
      : { approvalTimeoutMs: runtime.config.approvalTimeoutMs }),
    ...(runtime.config.policy === undefined ? {} : { parameterKinds: runtime.config.policy }),
    onError: (error) => log(error.message),
  });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      await server.close();
      await runtime.close();
    })();
    return stopping;
  };
  const tools = runtime.registry.tools.length;
  log(`${tools} tools, workspace ${runtime.workspacePath}, audit ${runtime.storeUrl}`);
  if (http !== undefined) {
    const configured = runtime.config.http;
    const handle = await serveMcpHttp(server, {
      host: http.host,
      port: http.port,
      ...(configured?.oauth === undefined
        ? {}
        : { verifier: introspectionVerifier(configured.oauth) }),
      ...(values.token === "none"
        ? { token: false as const }
        : values.token !== undefined
          ? { token: values.token }
          : configured?.token === undefined
            ? {}
            : { token: configured.token }),
      onError: (error) => log(error.message),
    });
    log(`Streamable HTTP on ${handle.url}`);
    if (handle.token !== undefined) log(`bearer token: ${handle.token}`);
    await waitForSignal();
    await handle.close();
    await stop();
    return 0;
  }
  const handle = serveMcpStdio(server, { onError: (error) => log(error.message) });
  await new Promise<void>((resolve) => {
    process.stdin.once("end", resolve);
    process.stdin.once("close", resolve);
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  await handle.close();
  await stop();
  return 0;
}

function parseHostPort(value: string): { host: string; port: number } | undefined {
  const match = /^(?:(.+):)?(\d{1,5})$/.exec(value.trim());
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port > 65535) return undefined;
  const host = (match[1] ?? "127.0.0.1").replace(/^\[(.*)\]$/, "$1");
  return { host, port };
}

function waitForSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
}
