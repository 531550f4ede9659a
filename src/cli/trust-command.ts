import { lstat, realpath } from "node:fs/promises";
import { parseArgs } from "node:util";
import { displayText } from "../core/index.js";
import { configWidenings, trustConfig, trustFilePath } from "./config-trust.js";
import { findMcpConfig } from "./mcp-runtime.js";

export const trustUsage = `Usage:
  aintern trust [--workspace DIR] [--config FILE]

  Trusts the aintern.config.json in the workspace (--workspace DIR, else the current
  directory), with its current content: aintern mcp, tools, doctor, audit, permissions and
  console then use it even though it starts upstream servers (each command line is printed),
  loads tool modules, allows calls without asking, moves the workspace or the store, sets HTTP
  authentication, or names the console's operator (who decisions are recorded as). A file that
  only restricts needs no trust.
  After any change to the file, read it and trust it again. Trust is given to the file where it
  is found: a symbolic link to a file trusted elsewhere needs trusting in its own folder (its
  relative paths resolve from there). Trusted files are recorded in
  $AINTERN_HOME/trusted-configs.json (default ~/.aintern).
`;

/** `aintern trust`. Returns the exit code. */
export async function runTrustCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workspace: { type: "string" },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(trustUsage);
    return 0;
  }
  const config = await findMcpConfig({
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.config === undefined ? {} : { config: values.config }),
  });
  if (config.file === undefined) {
    const where = values.workspace === undefined ? "the current directory" : values.workspace;
    process.stderr.write(`No aintern.config.json in ${displayText(where)}.\n`);
    return 1;
  }
  const reasons = await configWidenings(config);
  await trustConfig(config.file);
  // A link is trusted where it is, with this folder's relative paths (those printed below), not
  // where it leads: say so, so that no one takes it for the file they trusted elsewhere.
  // The reasons are escaped already (configWidenings); the paths are escaped here.
  const name = (await lstat(config.file)).isSymbolicLink()
    ? `${displayText(config.file)} (a link to ${displayText(await realpath(config.file))}; trusted here, with this folder's paths)`
    : displayText(config.file);
  process.stdout.write(
    reasons.length === 0
      ? `Trusted ${name} (it only restricts; it needed no trust).\n`
      : `Trusted ${name}, which ${reasons.join("; ")}.\nRecorded in ${trustFilePath()}; a change to the file needs trusting again.\n`,
  );
  return 0;
}
