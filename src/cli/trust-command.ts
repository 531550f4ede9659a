import { lstat, realpath } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { displayText } from "../core/index.js";
import {
  configWidenings,
  isWithin,
  realPathOf,
  trustConfig,
  trustFilePath,
} from "./config-trust.js";
import { findMcpConfig } from "./mcp-runtime.js";
import { adoptStore, knownStoresFolder } from "./store-origin.js";

export const trustUsage = `Usage:
  aintern trust [--workspace DIR] [--config FILE]
  aintern trust --store [--workspace DIR]

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

  --store adopts the workspace's store (.aintern/audit.db) as yours: aintern uses a store
  there only when it made it for you, since one that came with a repository could hold
  remembered approvals nobody here gave. Adopt one made by an earlier aintern, or your own
  workspace copied or restored (check what it remembers with aintern permissions list).
  Adopted stores are recorded in $AINTERN_HOME/stores.
`;

/** `aintern trust`. Returns the exit code. */
export async function runTrustCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      workspace: { type: "string" },
      config: { type: "string" },
      store: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(trustUsage);
    return 0;
  }
  if (values.store === true) return adoptWorkspaceStore(values.workspace ?? ".");
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

/** `aintern trust --store`: the workspace's `.aintern/audit.db` adopted as the user's own. */
async function adoptWorkspaceStore(workspace: string): Promise<number> {
  const workspacePath = await realPathOf(workspace);
  const file =
    workspacePath === undefined ? undefined : join(workspacePath, ".aintern", "audit.db");
  const real = file === undefined ? undefined : await realPathOf(file);
  if (workspacePath === undefined || file === undefined || real === undefined) {
    process.stderr.write(`No store at ${displayText(join(workspace, ".aintern", "audit.db"))}.\n`);
    return 1;
  }
  if (!isWithin(workspacePath, real)) {
    process.stderr.write(
      `${displayText(file)} leads out of the workspace, to ${displayText(real)}: not adopted. Remove the link, or name the store with --db.\n`,
    );
    return 1;
  }
  try {
    await adoptStore(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    process.stderr.write(`No store at ${displayText(file)}.\n`);
    return 1;
  }
  process.stdout.write(
    `Adopted ${displayText(file)} as your store: the approvals it remembers are honoured (see them with aintern permissions list).\nRecorded in ${displayText(knownStoresFolder())}.\n`,
  );
  return 0;
}
