import { parseArgs } from "node:util";
import {
  consoleApprovalPages,
  parseListen,
  type RunningConsole,
  startConsole,
} from "../console/index.js";
import { displayText } from "../core/index.js";
import {
  AinternMcpServer,
  bearerTokenProblem,
  introspectionVerifier,
  serveMcpHttp,
  serveMcpStdio,
} from "../mcp/index.js";
import { redactStoreUrl } from "../store/index.js";
import { type McpRuntime, openMcpRuntime, upstreamRiskOption } from "./mcp-runtime.js";

/** Where `--console` without an address (and no `console.listen` in the config) listens. */
const DEFAULT_CONSOLE_LISTEN = "127.0.0.1:7070";

export const mcpUsage = `Usage:
  aintern mcp [--workspace DIR] [--db URL] [--tools builtin|readonly|MODULE]... [--config FILE]
              [--http HOST:PORT [--token T|none]] [--upstream "CMD ARGS"]... [--upstream-risk LEVEL]
              [--approvals elicit|console|deny] [--console [HOST:PORT]]

  Serves tools to any MCP client (stdio by default, Streamable HTTP with --http), every call
  through aintern's policy, approvals (asked by elicitation) and audit log.

  --workspace  The folder tools may touch (default: the config's, else the current directory).
  --db         Store URL (default sqlite:<workspace>/.aintern/audit.db).
  --tools      builtin (default), readonly, or a module exporting defineTool() tools; repeatable.
  --config     A configuration file (default: aintern.config.json in --workspace DIR when
               it is given, else in the current directory, if any).
  --http       Serve Streamable HTTP on HOST:PORT (loopback by default; a bearer token is printed).
  --upstream   Start an MCP server and serve its tools guarded (prefix up1_, up2_, ...); repeatable.
               Its tools' risk comes from their annotations (destructive High, read-only Safe,
               else Medium); the config's upstreams take "risk" per tool and "defaultRisk".
  --upstream-risk  Safe, Low, Medium, High or Critical: the risk of every --upstream tool,
               instead of what its annotations claim.
  --token      With --http: the bearer token to require (default: a random one, printed), or
               none (no token; refused unless the host is loopback).
  --approvals  How a call that needs approval is asked:
                 elicit   (default) through the client: the web console's page when the client
                          supports URL elicitation and --console runs, else a form; a client
                          that can do neither gets the headless rule (denied, saying why);
                 console  in the web console (this process's --console, or \`aintern console\`
                          on the same --db), for clients that cannot elicit;
                 deny     never ask: such calls are denied (the headless rule).
  --console    Run the web console in this process, on the same store (default 127.0.0.1:7070,
               loopback only; another free port if that one is taken). Its sign-in link is
               printed on stderr. The operator name comes from the config's console.operator,
               else AINTERN_OPERATOR, else the OS user.
`;

/** `aintern mcp`: resolves when the server stopped. Returns the exit code. */
export async function runMcpCommand(argv: readonly string[]): Promise<number> {
  const { argv: rest, console: consoleFlag } = takeConsoleFlag(argv);
  const { values } = parseArgs({
    args: rest,
    options: {
      workspace: { type: "string" },
      db: { type: "string" },
      tools: { type: "string", multiple: true },
      config: { type: "string" },
      http: { type: "string" },
      upstream: { type: "string", multiple: true },
      "upstream-risk": { type: "string" },
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
  if (
    approvals !== undefined &&
    approvals !== "elicit" &&
    approvals !== "console" &&
    approvals !== "deny"
  ) {
    process.stderr.write(`--approvals must be elicit, console or deny, not '${approvals}'\n`);
    return 2;
  }
  if (consoleFlag !== undefined && consoleFlag !== true) {
    const problem = consoleListenProblem(consoleFlag);
    if (problem !== undefined) {
      process.stderr.write(`${problem}\n`);
      return 2;
    }
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
  const tokenProblem =
    values.token === undefined || values.token === "none"
      ? undefined
      : bearerTokenProblem(values.token);
  if (tokenProblem !== undefined) {
    process.stderr.write(`--token ${tokenProblem} (or leave it out for a random one)\n`);
    return 2;
  }
  const upstreamRiskGiven = upstreamRiskOption(values["upstream-risk"]);
  if ("problem" in upstreamRiskGiven) {
    process.stderr.write(`${displayText(upstreamRiskGiven.problem)}\n`);
    return 2;
  }
  const upstreamRisk = upstreamRiskGiven.risk;
  const log = (line: string): void => {
    // Lines name upstreams and their tools (an upstream's error text): printed as text.
    process.stderr.write(`aintern mcp: ${displayText(line)}\n`);
  };
  const runtime = await openMcpRuntime({
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.db === undefined ? {} : { db: values.db }),
    ...(values.tools === undefined
      ? {}
      : { tools: values.tools.flatMap((t) => t.split(",")).filter((t) => t !== "") }),
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(values.upstream === undefined ? {} : { upstreams: values.upstream }),
    ...(upstreamRisk === undefined ? {} : { upstreamRisk }),
    ...(approvals === undefined ? {} : { approvals }),
    console: consoleFlag !== undefined,
    onError: (error) => log(error.message),
  });
  let running: RunningConsole | undefined;
  if (consoleFlag !== undefined) {
    try {
      running = await startMcpConsole(runtime, consoleFlag === true ? undefined : consoleFlag, log);
    } catch (error) {
      await runtime.close();
      process.stderr.write(`aintern mcp: --console: ${displayText((error as Error).message)}\n`);
      return 2;
    }
  } else if (runtime.approvals === "console") {
    log(
      `approvals wait in the store for the web console: run \`aintern console --db ${redactStoreUrl(runtime.storeUrl)}\`, or add --console`,
    );
  }
  const pages =
    running === undefined || runtime.consoleApprovals === undefined
      ? undefined
      : consoleApprovalPages(runtime.consoleApprovals, running.url);
  const server = new AinternMcpServer({
    registry: runtime.registry,
    processor: runtime.processor,
    approvals: runtime.approvals === "console" ? "handler" : runtime.approvals,
    ...(pages === undefined ? {} : { approvalPages: pages }),
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
      await running?.close();
      await runtime.close();
    })();
    return stopping;
  };
  const tools = runtime.registry.tools.length;
  log(
    `${tools} tools, workspace ${runtime.workspacePath}, audit ${redactStoreUrl(runtime.storeUrl)}`,
  );
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
      ...(configured?.maxSessions === undefined ? {} : { maxSessions: configured.maxSessions }),
      ...(configured?.sessionIdleMs === undefined
        ? {}
        : { sessionIdleMs: configured.sessionIdleMs }),
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
    // The terminal or the client that started it went away: stop as on SIGTERM, so the
    // upstreams' processes end too (by default SIGHUP would end the process at once).
    process.once("SIGHUP", resolve);
  });
  await handle.close();
  await stop();
  return 0;
}

/**
 * Takes `--console`, `--console=HOST:PORT` or `--console HOST:PORT` out of `argv` (parseArgs has
 * no option with an optional value): `true` for the bare flag, the address when one is given.
 */
export function takeConsoleFlag(argv: readonly string[]): {
  argv: string[];
  console: true | string | undefined;
} {
  const out: string[] = [];
  let found: true | string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === "--") {
      out.push(...argv.slice(i));
      break;
    }
    if (arg.startsWith("--console=")) {
      found = arg.slice("--console=".length);
      continue;
    }
    if (arg !== "--console") {
      out.push(arg);
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith("-")) {
      found = next;
      i++;
    } else {
      found = true;
    }
  }
  return { argv: out, console: found };
}

function consoleListenProblem(value: string): string | undefined {
  const listen = /^\d{1,5}$/.test(value) ? `127.0.0.1:${value}` : value;
  try {
    const { host } = parseListen(listen);
    if (!isLoopback(host)) {
      return `--console binds to loopback only (asked for ${host}); run \`aintern console --allow-remote\` on the same --db to listen elsewhere`;
    }
  } catch {
    return `--console must be HOST:PORT or PORT (for example 127.0.0.1:7070), not '${value}'`;
  }
  return undefined;
}

function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1" || host.startsWith("127.");
}

/**
 * Starts the web console on the runtime's store, printing its sign-in link on stderr (stdout is
 * the MCP stream on stdio). Without an explicit address, a taken default port falls back to a
 * free one.
 */
async function startMcpConsole(
  runtime: McpRuntime,
  given: string | undefined,
  log: (line: string) => void,
): Promise<RunningConsole> {
  const configured = runtime.config.console?.listen;
  const asked = given ?? configured ?? DEFAULT_CONSOLE_LISTEN;
  const listen = /^\d{1,5}$/.test(asked) ? `127.0.0.1:${asked}` : asked;
  const problem = consoleListenProblem(listen);
  if (problem !== undefined) throw new Error(problem);
  const start = (address: string) =>
    startConsole({
      store: runtime.store,
      listen: address,
      getTool: (id) => runtime.registry.getTool(id),
      ...optionalOperator(runtime.config.console?.operator ?? process.env.AINTERN_OPERATOR),
      ...(process.env.AINTERN_CONSOLE_TOKEN === undefined
        ? {}
        : { token: process.env.AINTERN_CONSOLE_TOKEN }),
    });
  let running: RunningConsole;
  try {
    running = await start(listen);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || given !== undefined) throw error;
    const { host } = parseListen(listen);
    log(`${listen} is taken; the console listens on another port`);
    running = await start(`${host.includes(":") ? `[${host}]` : host}:0`);
  }
  log(`web console on ${running.url} (operator: ${running.operator})`);
  log(`console sign-in link: ${running.loginUrl}`);
  return running;
}

function optionalOperator(operator: string | undefined): { operator?: string } {
  return operator === undefined || operator.trim() === "" ? {} : { operator };
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
    process.once("SIGHUP", () => resolve());
  });
}
