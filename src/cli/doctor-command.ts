import { access, constants, stat } from "node:fs/promises";
import { parseArgs } from "node:util";
import { displayText, isJsonObject } from "../core/index.js";
import { McpUpstream } from "../mcp/index.js";
import { ToolRegistry } from "../registry/index.js";
import { openStore, redactStoreUrl } from "../store/index.js";
import type { Tool } from "../tools/index.js";
import { printableMessage } from "./config-trust.js";
import { loadTools, registrationProblem, resolveMcpPlaces } from "./mcp-runtime.js";

export const doctorUsage = `Usage:
  aintern doctor [--workspace DIR] [--db URL] [--config FILE] [--tools ...]...

  Checks what 'aintern mcp' needs: the configuration, the workspace, the store (opens it,
  migrates it, counts its audit rows), the tools, and each upstream (starts it and lists its
  tools). Exits 1 when a check fails.
`;

/** `aintern doctor`. Returns the exit code. */
export async function runDoctorCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workspace: { type: "string" },
      db: { type: "string" },
      config: { type: "string" },
      tools: { type: "string", multiple: true },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(doctorUsage);
    return 0;
  }
  let failed = 0;
  /** One line, its `shown` detail escaped already. */
  const reportShown = (ok: boolean, what: string, shown: string): void => {
    if (!ok) failed++;
    process.stdout.write(`${ok ? "ok  " : "FAIL"}  ${what.padEnd(12)} ${shown}\n`);
  };
  // Details name upstreams, tools and paths from the configuration and the upstreams' answers:
  // printed as text, so an escape in one cannot turn a FAIL into "ok".
  const report = (ok: boolean, what: string, detail: string): void =>
    reportShown(ok, what, displayText(detail));
  const warn = (what: string, detail: string): void => {
    process.stdout.write(`warn  ${what.padEnd(12)} ${displayText(detail)}\n`);
  };
  let places: Awaited<ReturnType<typeof resolveMcpPlaces>>;
  try {
    places = await resolveMcpPlaces({
      ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
      ...(values.db === undefined ? {} : { db: values.db }),
      ...(values.config === undefined ? {} : { config: values.config }),
    });
  } catch (error) {
    reportShown(false, "config", printableMessage(error));
    return 1;
  }
  report(true, "config", places.config.file ?? "none (defaults)");

  try {
    if (!(await stat(places.workspacePath)).isDirectory()) throw new Error("is not a folder");
    await access(places.workspacePath, constants.R_OK | constants.W_OK);
    report(true, "workspace", places.workspacePath);
  } catch (error) {
    report(false, "workspace", `${places.workspacePath}: ${(error as Error).message}`);
  }

  try {
    const store = await openStore(places.storeUrl);
    try {
      const rows = await store.audit.count({});
      const grants = await store.permissions.list();
      report(
        true,
        "store",
        `${redactStoreUrl(places.storeUrl)} (${rows} audit rows, ${grants.length} remembered permissions)`,
      );
    } finally {
      await store.close();
    }
  } catch (error) {
    report(false, "store", `${redactStoreUrl(places.storeUrl)}: ${(error as Error).message}`);
  }

  try {
    const specs = values.tools ?? places.config.tools ?? ["builtin"];
    const tools = await loadTools(specs);
    report(true, "tools", `${tools.length} (${specs.join(", ")})`);
  } catch (error) {
    report(false, "tools", (error as Error).message);
  }

  for (const config of places.config.upstreams ?? []) {
    let tools: Tool[] = [];
    const leftOut: string[] = [];
    const upstream = new McpUpstream(config, {
      restartInBackground: false,
      onTools: (listed) => {
        tools = listed;
      },
      onError: (error) => {
        if (/ left out: /.test(error.message))
          leftOut.push(error.message.replace(/^Upstream '[^']*': /, ""));
      },
    });
    try {
      // The upstream's own start timeout (default 30 s) applies, and close() stops a server that
      // is still starting: a server that never answers cannot keep doctor waiting.
      await upstream.start();
      // What `aintern mcp` would leave out: each tool is registered as it would be.
      const registry = new ToolRegistry();
      const refused = [
        ...leftOut,
        ...tools.flatMap((tool) => {
          const problem = registrationProblem(registry, tool);
          return problem === undefined ? [] : [`tool '${tool.id}' left out: ${problem}`];
        }),
      ];
      report(
        refused.length === 0,
        "upstream",
        `${config.name}: ${tools.length} tools (prefix ${upstream.prefix})${refused.map((r) => `; ${r}`).join("")}`,
      );
      // A `risk` key that names no tool is most likely a typo, and its override silently unused.
      const names = new Set(
        (await upstream.listTools()).tools.flatMap((t) =>
          isJsonObject(t) && typeof t.name === "string" ? [t.name] : [],
        ),
      );
      const unknown = Object.keys(config.risk ?? {}).filter((name) => !names.has(name));
      if (unknown.length > 0) {
        warn(
          "upstream",
          `${config.name}: risk names tools it does not list (${unknown.map((n) => `'${n}'`).join(", ")}); their overrides apply to nothing`,
        );
      }
    } catch (error) {
      report(false, "upstream", `${config.name}: ${(error as Error).message}`);
    } finally {
      await upstream.close();
    }
  }
  process.stdout.write(failed === 0 ? "\nAll checks passed.\n" : `\n${failed} check(s) failed.\n`);
  return failed === 0 ? 0 : 1;
}
