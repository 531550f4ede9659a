import { createHash } from "node:crypto";
import { lstat, mkdir, readFile, realpath, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { AinternError, type DisplayTextOptions, displayText } from "../core/index.js";
import type { McpConfig, McpUpstreamConfig } from "../mcp/index.js";
import { redactStoreUrl } from "../store/index.js";

/**
 * A configuration found in the workspace (not named with `--config`) that would run code or
 * widen what the model may do, and that the user has not trusted (`aintern trust`).
 */
export class UntrustedConfigError extends AinternError {
  readonly file: string;
  readonly reasons: readonly string[];

  /**
   * `reasons` come from {@link configWidenings}, printable as they are (the names, commands and
   * paths in them are already escaped with `displayText`).
   */
  constructor(file: string, reasons: readonly string[]) {
    super(
      "UNTRUSTED_MCP_CONFIG",
      `${displayText(file)} was found in the workspace and is not trusted: it ${reasons.join("; ")}. ` +
        "A repository you cloned could have put it there. If you wrote it (or read it), trust it with " +
        "`aintern trust` in that folder (again after each change), or name it with --config FILE.",
    );
    this.name = "UntrustedConfigError";
    this.file = file;
    this.reasons = reasons;
  }
}

/**
 * `error`'s message for the terminal, escaped with `displayText` once: an
 * {@link UntrustedConfigError}'s is escaped already, and escaping it again would double its
 * escapes' backslashes (an ESC in an upstream's name would read as the text `\\u001b`).
 */
export function printableMessage(error: unknown, options: DisplayTextOptions = {}): string {
  if (error instanceof UntrustedConfigError) return error.message;
  return displayText(error instanceof Error ? error.message : String(error), options);
}

/**
 * What a configuration file does beyond restricting the model: starting processes (each with its
 * command line, so the person trusting it sees what will run), loading code, allowing calls
 * without asking, moving the workspace or the store, setting who may connect, naming who decides
 * in the audit log (`console.operator`). A file that does none of these (deny rules, ask rules,
 * limits) needs no trust. Whether a path stays inside the file's folder is judged on real paths
 * (symbolic links followed), as the path will be used. The reasons are ready to print: every name,
 * command and path in them is escaped with `displayText`, so a terminal escape in the file cannot
 * rewrite what the person reads.
 */
export async function configWidenings(config: McpConfig): Promise<string[]> {
  const reasons: string[] = [];
  const folder = config.file === undefined ? undefined : await realPathOf(dirname(config.file));
  const started = (config.upstreams ?? []).filter((u) => "command" in u);
  if (started.length > 0) {
    const base = config.file === undefined ? undefined : dirname(config.file);
    const commands = started.map((u) => `${displayText(u.name)}: ${upstreamCommandLine(u, base)}`);
    reasons.push(`starts upstream MCP servers (${commands.join("; ")})`);
  }
  const remote = (config.upstreams ?? []).filter((u) => "url" in u);
  if (remote.length > 0) {
    const urls = remote.map(
      (u) => `${displayText(u.name)}: ${displayText("url" in u ? u.url : "")}`,
    );
    reasons.push(`connects to upstream MCP servers (${urls.join("; ")})`);
  }
  const modules = (config.tools ?? []).filter((t) => t !== "builtin" && t !== "readonly");
  if (modules.length > 0) {
    reasons.push(`loads tool modules (${modules.map((m) => displayText(m)).join(", ")})`);
  }
  const policy = config.policy;
  if ((policy?.allow ?? []).length > 0) reasons.push("allows calls without asking (policy.allow)");
  for (const key of ["tools", "categories", "riskLevels"] as const) {
    const settings = Object.values(policy?.[key] ?? {});
    if (settings.includes("allow")) reasons.push(`allows calls without asking (policy.${key})`);
  }
  if (policy?.protectedPaths !== undefined) reasons.push("replaces the protected paths");
  if (policy?.pathParameters !== undefined || policy?.commandParameters !== undefined) {
    reasons.push("changes which parameters are paths and commands");
  }
  if (config.workspace !== undefined) {
    const real =
      folder === undefined ? undefined : await realPathOf(resolve(folder, config.workspace));
    if (folder === undefined || real === undefined || !isWithin(folder, real)) {
      const really =
        real === undefined || real === config.workspace ? "" : ` (really ${displayText(real)})`;
      reasons.push(`moves the workspace to ${displayText(config.workspace)}${really}`);
    }
  }
  if (config.db !== undefined) {
    reasons.push(`keeps approvals and permissions in ${displayText(redactStoreUrl(config.db))}`);
  }
  if (config.http !== undefined) reasons.push("sets who may connect over HTTP (http)");
  // The audit log's decided_by: a file that names the operator could sign every decision made
  // in the console with someone else's name.
  if (config.console?.operator !== undefined) {
    reasons.push(
      `records decisions in the audit log as made by ${displayText(config.console.operator)} (console.operator)`,
    );
  }
  return reasons;
}

/**
 * A stdio upstream's command line as a shell would read it (its environment settings first, its
 * folder after when it is not the file's), escaped for a terminal.
 */
function upstreamCommandLine(upstream: McpUpstreamConfig, folder: string | undefined): string {
  if (!("command" in upstream)) return "";
  const where =
    upstream.cwd === undefined || upstream.cwd === folder ? "" : ` (in ${upstream.cwd})`;
  const env = Object.entries(upstream.env ?? {}).map(([k, v]) => `${k}=${shellWord(String(v))}`);
  const words = [...env, upstream.command, ...(upstream.args ?? [])].map((w, i) =>
    i < env.length ? w : shellWord(w),
  );
  return displayText(words.join(" ") + where);
}

/** `word` quoted for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Whether the absolute path `path` is `folder` or below it, compared as text. */
export function isWithin(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/**
 * The real path `path` has or would have: its own real path when it exists, else its nearest
 * existing ancestor's real path with the rest appended (what creating it would make). Undefined
 * when it cannot be told: an entry that exists but does not resolve (a dangling symbolic link,
 * which creating the path would follow; a loop), or an error other than "not found".
 */
export async function realPathOf(path: string): Promise<string | undefined> {
  const absolute = resolve(path);
  try {
    return await realpath(absolute);
  } catch (error) {
    if (!isNotFound(error)) return undefined;
  }
  try {
    await lstat(absolute);
    return undefined; // it is there (a dangling link) but does not resolve
  } catch (error) {
    if (!isNotFound(error)) return undefined;
  }
  const parent = dirname(absolute);
  if (parent === absolute) return undefined;
  const realParent = await realPathOf(parent);
  return realParent === undefined ? undefined : join(realParent, basename(absolute));
}

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** Where trusted configurations are recorded: `$AINTERN_HOME/trusted-configs.json` (default `~/.aintern`). */
export function trustFilePath(): string {
  const home = process.env.AINTERN_HOME ?? join(homedir(), ".aintern");
  return join(home, "trusted-configs.json");
}

async function readTrusted(): Promise<Record<string, string>> {
  try {
    const value: unknown = JSON.parse(await readFile(trustFilePath(), "utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, string>)
      : {};
  } catch {
    return {};
  }
}

async function digestOf(file: string): Promise<string> {
  return createHash("sha256")
    .update(await readFile(file))
    .digest("hex");
}

/**
 * The key trust is recorded under: where the file was found (its folder's real path and its own
 * name), not where a symbolic link to it leads. A file trusted in one project and linked from
 * another is used there with the other folder's relative paths, so it is not trusted there until
 * trusted there. For a file that is not a link this is its real path.
 */
export async function trustKey(file: string): Promise<string> {
  return join(await realpath(dirname(resolve(file))), basename(file));
}

/** Whether `file`, with its current content, was trusted where it is with {@link trustConfig}. */
export async function isTrustedConfig(file: string): Promise<boolean> {
  return (await readTrusted())[await trustKey(file)] === (await digestOf(file));
}

/**
 * Records `file`'s current content as trusted where it is found (a later change needs trusting
 * again; a link to it elsewhere needs trusting there).
 */
export async function trustConfig(file: string): Promise<void> {
  const trusted = await readTrusted();
  trusted[await trustKey(file)] = await digestOf(file);
  const path = trustFilePath();
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(trusted, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

/**
 * Refuses a configuration found in the workspace that widens what the model may do (see
 * {@link configWidenings}) unless the user trusted its current content.
 */
export async function checkFoundConfig(config: McpConfig): Promise<void> {
  if (config.file === undefined) return;
  const reasons = await configWidenings(config);
  if (reasons.length === 0 || (await isTrustedConfig(config.file))) return;
  throw new UntrustedConfigError(config.file, reasons);
}
