#!/usr/bin/env node
import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { displayText } from "../core/index.js";
import { allToolCallFormats, type ToolCallFormat } from "../providers/index.js";
import { redactStoreUrl } from "../store/index.js";
import { runAuditCommand } from "./audit-command.js";
import { printableMessage } from "./config-trust.js";
import { consoleUsage, runConsoleCommand } from "./console-command.js";
import { runDoctorCommand } from "./doctor-command.js";
import { runMcpCommand } from "./mcp-command.js";
import { runPermissionsCommand } from "./permissions-command.js";
import { readRecordedResponse, runTurn } from "./run-turn.js";
import { createSampleWorkspace } from "./sample-workspace.js";
import { claimDefaultStore } from "./store-origin.js";
import { flagApprovalHandler, TerminalApprovalHandler } from "./terminal-approval-handler.js";
import { runToolsCommand } from "./tools-command.js";
import { runTrustCommand } from "./trust-command.js";

const usage = `aintern: run tools the way an agent's model asks for them

Usage:
  aintern mcp [--workspace DIR] [--db URL] [--tools builtin|readonly|MODULE]... [--config FILE]
              [--http HOST:PORT] [--upstream "CMD ARGS"]...
              [--approvals elicit|console|deny] [--console [HOST:PORT]]
  aintern audit [--tool T] [--status S] [--session ID] [--since 1h] [--json|--csv] [--follow]
  aintern permissions [list|revoke ID]
  aintern tools
  aintern doctor
  aintern trust [--workspace DIR] [--config FILE]
  aintern turn <response.json> [--workspace <dir>] [--db <url>] [--format <format>]
                               [--approve ask|all|none] [--session <id>]

  mcp          Serves the tools to any MCP client, guarded (aintern mcp --help).
  audit        The audit log: a table in a terminal, JSON lines or CSV when piped.
  permissions  Lists or revokes remembered approvals.
  tools        What an MCP client will see: names, risk and annotations.
  doctor       Checks the store, the workspace, the configuration and the upstreams.
  trust        Trusts the workspace's aintern.config.json (needed when it runs commands,
               loads modules, allows calls, moves the workspace or the store, or names
               the console's operator).
  (mcp, audit, permissions, tools and doctor take --workspace, --db and --config.)

  turn    Runs one agent turn: parses the recorded model response, applies the approval
          policy (asking on the terminal, or answering with --approve), runs the approved
          calls with the built-in tools, and prints the messages for the model and the
          audit rows.

${consoleUsage.replace("Usage:\n", "")}
Options of turn:
  --workspace  The workspace the tools may touch (default: a fresh sample project).
  --db         Store URL: sqlite:<file>, sqlite::memory: or postgres://... (default:
               sqlite:<workspace>.aintern.db). Calls are idempotent by their call id: a
               call already completed in this store is answered from it, not run again.
  --format     ${allToolCallFormats.join(", ")} (default: detected).
  --approve    ask (default in a terminal), all, or none (default otherwise).
  --session    Session id for remembered approvals.
`;

/** The `aintern` command. Returns the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const command = subcommands.get(argv[0] ?? "");
  if (command !== undefined) {
    try {
      return await command(argv.slice(1));
    } catch (error) {
      // The message may name a configuration's keys or an upstream's tools: printed as text.
      process.stderr.write(
        `aintern ${displayText(argv[0] ?? "")}: ${printableMessage(error, { multiline: true })}\n`,
      );
      return error instanceof TypeError && "code" in error ? 2 : 1;
    }
  }
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help === true || positionals[0] !== "turn" || positionals[1] === undefined) {
    process.stdout.write(usage);
    return values.help === true ? 0 : 2;
  }
  const approve = values.approve ?? (process.stdin.isTTY ? "ask" : "none");
  if (approve !== "ask" && approve !== "all" && approve !== "none") {
    process.stderr.write(`--approve must be ask, all or none, not '${approve}'\n`);
    return 2;
  }
  const format = values.format as ToolCallFormat | undefined;
  if (format !== undefined && !allToolCallFormats.includes(format)) {
    process.stderr.write(`--format must be one of ${allToolCallFormats.join(", ")}\n`);
    return 2;
  }
  const workspacePath = values.workspace ?? (await createSampleWorkspace());
  // Beside the workspace, not in it: the database is one of the files tools must not touch
  // (`resolve`: `--workspace .` named `..aintern.db`, a file of the workspace). Beside a folder
  // of a repository is still in the repository: aintern must have made it.
  let storeUrl = values.db;
  if (storeUrl === undefined) {
    const file = `${resolve(workspacePath)}.aintern.db`;
    try {
      await claimDefaultStore(file, "Delete it, or name another store with --db");
    } catch (error) {
      process.stderr.write(`aintern turn: ${printableMessage(error, { multiline: true })}\n`);
      return 1;
    }
    storeUrl = `sqlite:${file}`;
  }
  const result = await runTurn({
    response: await readRecordedResponse(positionals[1]),
    ...(format === undefined ? {} : { format }),
    workspacePath,
    storeUrl,
    approvalHandler:
      approve === "ask" ? new TerminalApprovalHandler() : flagApprovalHandler(approve),
    ...(values.session === undefined ? {} : { sessionId: values.session }),
  });
  const out = process.stdout;
  out.write(`\nWorkspace: ${workspacePath}\nStore: ${redactStoreUrl(storeUrl)}\n`);
  out.write("\n== Calls\n");
  for (const s of result.statuses)
    out.write(
      `  ${displayText(s.callId).padEnd(16)} ${displayText(s.toolId).padEnd(18)} ${s.status}\n`,
    );
  out.write("\n== Messages for the model\n");
  out.write(
    `${displayText(JSON.stringify(result.messages, null, 2), { multiline: true, keepBackslashes: true })}\n`,
  );
  out.write("\n== Audit rows\n");
  for (const row of result.auditRows) {
    out.write(
      `  ${row.startedAt.toISOString()}  ${displayText(row.toolName).padEnd(18)} ${row.status.padEnd(18)} ${String(Math.round(row.durationMs)).padStart(5)} ms  ${row.errorCode ?? ""}\n`,
    );
  }
  return 0;
}

const subcommands = new Map<string, (argv: readonly string[]) => Promise<number>>([
  ["mcp", runMcpCommand],
  ["audit", runAuditCommand],
  ["permissions", runPermissionsCommand],
  ["tools", runToolsCommand],
  ["doctor", runDoctorCommand],
  ["console", runConsoleCommand],
  ["trust", runTrustCommand],
]);

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      workspace: { type: "string" },
      db: { type: "string" },
      format: { type: "string" },
      approve: { type: "string" },
      session: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}

const invokedDirectly =
  process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `aintern: ${displayText(error instanceof Error ? error.message : String(error), { multiline: true })}\n`,
      );
      process.exitCode = 1;
    },
  );
}
