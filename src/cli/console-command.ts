import { parseArgs } from "node:util";
import { builtinTools } from "../builtin/index.js";
import { startConsole } from "../console/index.js";
import { ToolRegistry } from "../registry/index.js";
import { openStore } from "../store/index.js";

/** `aintern console`'s help text. */
export const consoleUsage = `Usage:
  aintern console [--db <url>] [--listen 127.0.0.1:7070] [--operator <name>] [--allow-remote]

  console  Serves the web console: pending approvals (approve, deny with a reason, edit,
           remember), running executions (progress, cancel), the audit history and the
           remembered permissions of the store that agent processes use.

Options:
  --db            Store URL (default: sqlite:.aintern/aintern.db).
  --listen        host:port (default 127.0.0.1:7070; loopback only unless --allow-remote).
  --operator      Who decisions are recorded as (default: AINTERN_OPERATOR or the OS user).
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
  const store = await openStore(values.db ?? "sqlite:.aintern/aintern.db");
  const registry = new ToolRegistry({ tools: builtinTools() });
  let running: Awaited<ReturnType<typeof startConsole>>;
  try {
    running = await startConsole({
      store,
      listen: values.listen ?? "127.0.0.1:7070",
      allowRemote: values["allow-remote"] === true,
      operator: values.operator ?? process.env.AINTERN_OPERATOR,
      getTool: (id) => registry.getTool(id),
      token: process.env.AINTERN_CONSOLE_TOKEN,
    });
  } catch (error) {
    await store.close();
    io.err.write(`aintern console: ${(error as Error).message}\n`);
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
