import { parseArgs } from "node:util";
import { displayText, jsonLine, riskLevelName } from "../core/index.js";
import { AinternMcpServer } from "../mcp/index.js";
import { openMcpRuntime, upstreamRiskOption } from "./mcp-runtime.js";

export const toolsUsage = `Usage:
  aintern tools [--json] [--tools builtin|readonly|MODULE]... [--upstream "CMD ARGS"]... [--upstream-risk LEVEL]
                [--workspace DIR] [--db URL] [--config FILE]

  What an MCP client of 'aintern mcp' will see: each tool's MCP name, risk and annotations
  (upstreams are started to list theirs).
`;

/** `aintern tools`. Returns the exit code. */
export async function runToolsCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      json: { type: "boolean" },
      tools: { type: "string", multiple: true },
      upstream: { type: "string", multiple: true },
      "upstream-risk": { type: "string" },
      workspace: { type: "string" },
      db: { type: "string" },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(toolsUsage);
    return 0;
  }
  const upstreamRiskGiven = upstreamRiskOption(values["upstream-risk"]);
  if ("problem" in upstreamRiskGiven) {
    process.stderr.write(`${displayText(upstreamRiskGiven.problem)}\n`);
    return 2;
  }
  const upstreamRisk = upstreamRiskGiven.risk;
  const runtime = await openMcpRuntime({
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.db === undefined ? {} : { db: values.db }),
    ...(values.config === undefined ? {} : { config: values.config }),
    ...(values.tools === undefined
      ? {}
      : { tools: values.tools.flatMap((t) => t.split(",")).filter((t) => t !== "") }),
    ...(values.upstream === undefined ? {} : { upstreams: values.upstream }),
    ...(upstreamRisk === undefined ? {} : { upstreamRisk }),
    onError: (error) => process.stderr.write(`aintern tools: ${displayText(error.message)}\n`),
  });
  try {
    const server = new AinternMcpServer({
      registry: runtime.registry,
      processor: runtime.processor,
    });
    const listed = server.listTools();
    // Names and descriptions come from tool modules and upstream servers: a terminal escape or a
    // bidirectional override in one is printed as text, so it cannot redraw the list (a
    // destructive tool shown as Safe) or write to the clipboard.
    if (values.json === true || !process.stdout.isTTY) {
      for (const tool of listed) {
        const id = server.names.idOf(tool.name)!;
        const risk = runtime.registry.getTool(id)!.defaultRiskLevel;
        process.stdout.write(`${jsonLine({ id, risk: riskLevelName(risk), ...tool })}\n`);
      }
      return 0;
    }
    for (const tool of listed) {
      const id = server.names.idOf(tool.name)!;
      const risk = riskLevelName(runtime.registry.getTool(id)!.defaultRiskLevel);
      const hints = Object.entries(tool.annotations ?? {})
        .filter(([key, value]) => key.endsWith("Hint") && value === true)
        .map(([key]) => key.replace(/Hint$/, ""));
      process.stdout.write(
        `${displayText(tool.name).padEnd(28)} ${risk.padEnd(8)} ${hints.join(",").padEnd(34)} ${displayText((tool.description ?? "").split("\n")[0]!).slice(0, 60)}\n`,
      );
    }
    return 0;
  } finally {
    await runtime.close();
  }
}
