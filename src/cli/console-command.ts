import { parseArgs } from "node:util";
import { builtinTools } from "../builtin/index.js";
import { startConsole } from "../console/index.js";
import { displayText } from "../core/index.js";
import { ToolRegistry } from "../registry/index.js";
import { openStore } from "../store/index.js";
import { printableMessage } from "./config-trust.js";
import { resolveMcpPlaces } from "./mcp-runtime.js";

/** `aintern console`'s help text. */
export const consoleUsage = `Usage:
  aintern console [--db <url>] [--listen 127.0.0.1:7070] [--operator <name>] [--allow-remote]
                  [--workspace <dir>] [--config <file>]

  console  Serves the web console: pending approvals (approve, deny with a reason, edit,
           remember), running executions (progress, cancel), the audit history and the
           remembered permissions of the store that agent processes use.

Options:
  --db            Store URL (default: the config's db, else sqlite:<workspace>/.aintern/audit.db,
                  the store \`aintern mcp\` uses in the same workspace).
  --workspace     The workspace whose store to open (default: the current directory).
  --config        A configuration file (default: aintern.config.json in --workspace DIR
                  when it is given, else in the current directory, if any).
  --listen        host:port (default 127.0.0.1:7070; loopback only unless --allow-remote).
  --operator      Who decisions are recorded as (default: the config's console.operator, else
                  AINTERN_OPERATOR, else the OS user).
  --allow-remote  Listen on a non-loopback address (every request still needs the token).
`;

/**
 * Runs `aintern console` until SIGINT / SIGTERM (or `signal`). Prints the sign-in link, which
 * carries the access token. Returns the exit code.
 */
export async function runConsoleCommand(
  argv: readonly string[],
  io: { out: NodeJS.WritableStream; err: NodeJS.WritableStream; signal?: AbortSignal } = {
    out: process.stdout,
    err: process.stderr,
  },
): Promise<number> {
  let values: {
    db?: string;
    workspace?: string;
    config?: string;
    listen?: string;
    operator?: string;
    "allow-remote"?: boolean;
    help?: boolean;
  };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        db: { type: "string" },
        workspace: { type: "string" },
        config: { type: "string" },
        listen: { type: "string" },
        operator: { type: "string" },
        "allow-remote": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    }));
  } catch (error) {
    io.err.write(`${(error as Error).message}\n\n${consoleUsage}`);
    return 2;
  }
  if (values.help === true) {
    io.out.write(consoleUsage);
    return 0;
  }
  // The same places `aintern mcp` resolves, so the two meet on one store by default.
  let places: Awaited<ReturnType<typeof resolveMcpPlaces>>;
  try {
    places = await resolveMcpPlaces({
      ...(values.db === undefined ? {} : { db: values.db }),
      ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
      ...(values.config === undefined ? {} : { config: values.config }),
    });
  } catch (error) {
    io.err.write(`aintern console: ${printableMessage(error)}\n`);
    return 2;
  }
  const store = await openStore(places.storeUrl);
  const registry = new ToolRegistry({ tools: builtinTools() });
  let running: Awaited<ReturnType<typeof startConsole>>;
  try {
    running = await startConsole({
      store,
      listen: values.listen ?? "127.0.0.1:7070",
      allowRemote: values["allow-remote"] === true,
      operator: values.operator ?? places.config.console?.operator ?? process.env.AINTERN_OPERATOR,
      getTool: (id) => registry.getTool(id),
      token: process.env.AINTERN_CONSOLE_TOKEN,
    });
  } catch (error) {
    await store.close();
    io.err.write(`aintern console: ${displayText((error as Error).message)}\n`);
    return 2;
  }
  io.out.write(
    `aintern console on ${running.url} (store: ${store.dialect}, operator: ${running.operator})\nOpen: ${running.loginUrl}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    io.signal?.addEventListener("abort", stop, { once: true });
  });
  await running.close();
  await store.close();
  return 0;
}
