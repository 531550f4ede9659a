import { realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { pathToFileURL } from "node:url";
import {
  ApprovalPolicy,
  type ApprovalRule,
  defaultProtectedPathPatterns,
  RememberedPermissions,
} from "../approval/index.js";
import { neverChanged } from "../approval/never-changed.js";
import { BuiltinToolId, type BuiltinToolsOptions, builtinTools } from "../builtin/index.js";
import { ToolCallProcessor } from "../calls/index.js";
import {
  ConsoleApprovalHandler,
  DEFAULT_CONSOLE_APPROVAL_TIMEOUT_MS,
  reportExecutions,
} from "../console/index.js";
import { ensureDirectory } from "../core/ensure-directory.js";
import { AinternError, RiskLevel } from "../core/index.js";
import { LicenseTier, staticLicense, ToolExecutor } from "../execution/index.js";
import {
  loadMcpConfig,
  MCP_CONFIG_FILE_NAME,
  type McpConfig,
  McpUpstream,
  type McpUpstreamConfig,
  parseMcpConfig,
  UpstreamToolSet,
} from "../mcp/index.js";
import { ToolRegistry } from "../registry/index.js";
import { openStore, type Store } from "../store/index.js";
import { parseStoreUrl } from "../store/store-url.js";
import type { Tool } from "../tools/index.js";
import { checkFoundConfig, isWithin, realPathOf } from "./config-trust.js";
import { loadGrantKey } from "./grant-key.js";
import { keepBuiltinParameterNames } from "./keep-builtin-parameter-names.js";
import { toolPackagePaths, upstreamCodePaths } from "./server-code-paths.js";
import { claimDefaultStore } from "./store-origin.js";

/** What {@link openMcpRuntime} takes: the CLI's flags, over the configuration file. */
export interface McpRuntimeOptions {
  /** Default: the config's `workspace`, else the current directory. */
  readonly workspace?: string;
  /** Default: the config's `db`, else `sqlite:<workspace>/.aintern/audit.db`. */
  readonly db?: string;
  /** `builtin`, `readonly` or module paths; default the config's, else `builtin`. */
  readonly tools?: readonly string[];
  /**
   * A config file; default `aintern.config.json` in the workspace given here, else (no workspace
   * given) in the current directory, if any.
   */
  readonly config?: string;
  /** Upstream commands (`"npx -y server ARGS"`), added to the config's. */
  readonly upstreams?: readonly string[];
  /**
   * `--upstream-risk`: the risk of every tool of the `upstreams` commands, instead of what their
   * annotations claim (default: the annotations are trusted).
   */
  readonly upstreamRisk?: RiskLevel;
  /** Start the upstreams (default true; `aintern tools` and `doctor` start them too). */
  readonly startUpstreams?: boolean;
  /** `--approvals`: default the config's, else `elicit`. */
  readonly approvals?: "elicit" | "console" | "deny";
  /**
   * Whether a web console runs on this store (`--console`): calls can then be approved there
   * (URL elicitation in `elicit` mode), and the console sees the running executions and stored calls.
   */
  readonly console?: boolean;
  readonly onError?: (error: Error) => void;
}

/** Everything `aintern mcp` serves with. */
export interface McpRuntime {
  readonly workspacePath: string;
  readonly storeUrl: string;
  readonly config: McpConfig;
  readonly store: Store;
  readonly registry: ToolRegistry;
  readonly executor: ToolExecutor;
  readonly policy: ApprovalPolicy;
  readonly permissions: RememberedPermissions;
  /** The one gate every call goes through (`processCall`), for every connection. */
  readonly processor: ToolCallProcessor;
  /** How approvals are asked: the flag's, else the config's, else `elicit`. */
  readonly approvals: "elicit" | "console" | "deny";
  /**
   * The processor's approval handler when approvals can go to the web console (`--approvals
   * console`, or `--console` in `elicit` mode): pending approvals are rows of the store.
   */
  readonly consoleApprovals?: ConsoleApprovalHandler;
  readonly upstreams: readonly McpUpstream[];
  close(): Promise<void>;
}

/**
 * Reads the configuration the flags point at (or finds `aintern.config.json`), or an empty one. A
 * file found in the workspace (a cloned repository's, maybe) that runs code or widens the policy
 * is refused until the user trusts it (`aintern trust`).
 */
export async function readMcpConfig(options: McpRuntimeOptions): Promise<McpConfig> {
  const config = await findMcpConfig(options);
  if (options.config === undefined) await checkFoundConfig(config);
  return config;
}

/**
 * The configuration the flags name or the one found, without the trust check: `--config`, else
 * `aintern.config.json` in `--workspace` when it is given (only there: the current directory's
 * file belongs to another project), else in the current directory; else an empty one.
 */
export async function findMcpConfig(
  options: Pick<McpRuntimeOptions, "workspace" | "config">,
): Promise<McpConfig> {
  if (options.config !== undefined) return loadMcpConfig(options.config);
  // The folder's real path: the file's relative paths resolve from the folder it was found in
  // as it really is, the way the trust check judges them (it binds trust to this place).
  let file: string;
  try {
    file = join(await realpath(resolve(options.workspace ?? ".")), MCP_CONFIG_FILE_NAME);
    await realpath(file);
  } catch {
    return parseMcpConfig({});
  }
  return loadMcpConfig(file);
}

/** The configuration, the workspace (real path) and the store URL the flags and config name. */
export async function resolveMcpPlaces(
  options: Pick<McpRuntimeOptions, "workspace" | "db" | "config">,
): Promise<{ config: McpConfig; workspacePath: string; storeUrl: string }> {
  const config = await readMcpConfig(options);
  const workspacePath = await realpath(resolve(options.workspace ?? config.workspace ?? "."));
  let storeUrl = options.db ?? config.db;
  if (storeUrl === undefined) {
    const folder = join(workspacePath, ".aintern");
    const file = join(folder, "audit.db");
    await checkDefaultStoreInside(workspacePath, file);
    ensureDirectory(folder);
    await checkDefaultStoreInside(workspacePath, file);
    // Before anything reads its remembered approvals: not a store the repository brought.
    await claimDefaultStore(file);
    storeUrl = `sqlite:${file}`;
  }
  return { config, workspacePath, storeUrl };
}

/**
 * The default store must be the workspace's own: a repository whose `.aintern` (or
 * `.aintern/audit.db`) is a symbolic link out of it would otherwise write there, or share another
 * project's remembered permissions, without any configuration to trust.
 */
async function checkDefaultStoreInside(workspacePath: string, file: string): Promise<void> {
  const real = await realPathOf(file);
  if (real !== undefined && isWithin(workspacePath, real)) return;
  throw new AinternError(
    "STORE_OUTSIDE_WORKSPACE",
    `The default store ${file} leads out of the workspace ${workspacePath}${real === undefined ? " (a symbolic link that does not resolve)" : ` to ${real}`}: ` +
      "a symbolic link in the workspace (.aintern, or .aintern/audit.db) points elsewhere. Remove the link, or name the store with --db.",
  );
}

/**
 * Opens the store, loads the tools (built-in, a user's modules, the upstreams' imports), and
 * builds the executor, the policy and the processor `aintern mcp` serves through.
 */
export async function openMcpRuntime(options: McpRuntimeOptions = {}): Promise<McpRuntime> {
  const { config, workspacePath, storeUrl } = await resolveMcpPlaces(options);
  const store = await openStore(storeUrl);
  const upstreams: McpUpstream[] = [];
  try {
    // The configuration is a protected path: a call touching it always asks, whatever a rule or a
    // remembered approval says; and the model can never change it, approved or not.
    // A file of the workspace as a pattern relative to it (paths outside need none).
    const insideWorkspace = (path: string): string[] =>
      isWithin(workspacePath, path) ? [relative(workspacePath, path)] : [];
    const configPaths = [
      `**/${MCP_CONFIG_FILE_NAME}`,
      ...(config.file === undefined ? [] : insideWorkspace(config.file)),
    ];
    // The tool modules aintern loads run in the server, with its environment, at the next start:
    // a change to one asks as a protected path does (trust covers the config, not the module).
    const toolModules = (options.tools ?? config.tools ?? [])
      .filter((spec) => isAbsolute(spec) || spec.startsWith("."))
      .flatMap((spec) => insideWorkspace(resolve(spec)))
      .concat(toolPackagePaths(options.tools ?? config.tools ?? [], workspacePath));
    const upstreamConfigs: McpUpstreamConfig[] = [
      ...(config.upstreams ?? []),
      ...(options.upstreams ?? []).map((command, i) => ({
        ...upstreamFromCommand(command, i),
        ...(options.upstreamRisk === undefined ? {} : { defaultRisk: options.upstreamRisk }),
      })),
    ];
    const protectedPaths = [
      ...(config.policy?.protectedPaths ?? defaultProtectedPathPatterns),
      ...configPaths,
      ...toolModules,
      // An upstream's code in the workspace runs in the server's stead at its next restart.
      ...upstreamCodePaths(upstreamConfigs, workspacePath),
    ];
    // The store in the workspace too: deleting or replacing the audit database would leave every
    // later call unrecorded. Marked rules: a folder holding one of their paths is covered when a
    // call would remove it whole, and a command that may name one in a way that cannot be checked
    // is refused.
    const storePaths = storePatterns(storeUrl, await storeFileOf(storeUrl), workspacePath);
    const guardedFiles = [
      ...configPaths.map((pathPattern) => ({
        pathPattern,
        reason: "aintern's configuration: the model can never change it (a person edits it)",
      })),
      ...storePaths.map((pathPattern) => ({
        pathPattern,
        reason:
          "aintern's audit store: the model can never change or delete it (every call is recorded there)",
      })),
    ];
    const neverChangedRules: ApprovalRule[] = [
      BuiltinToolId.FileWrite,
      BuiltinToolId.FileDelete,
      BuiltinToolId.TerminalExecute,
    ].flatMap((toolId) => guardedFiles.map((file) => neverChanged({ toolId, ...file })));
    // Frozen: the policy's matcher for them is then found without building a key on every call.
    const policy = new ApprovalPolicy({
      ...keepBuiltinParameterNames(config.policy ?? {}),
      deny: [...neverChangedRules, ...(config.policy?.deny ?? [])],
      protectedPaths: Object.freeze(protectedPaths),
    });
    const registry = new ToolRegistry();
    // The built-in tools that walk a tree (search, list-directory) hold what they reach beyond a
    // call's own path to the policy's protected paths and path deny rules.
    const builtin = policy.guardedPaths();
    for (const tool of await loadTools(options.tools ?? config.tools ?? ["builtin"], builtin)) {
      registry.registerTool(tool);
    }
    const permissions = new RememberedPermissions({
      store: store.permissions,
      grantKey: await loadGrantKey(),
    });
    const onError = options.onError === undefined ? {} : { onError: options.onError };
    const starting: Promise<void>[] = [];
    for (const upstreamConfig of upstreamConfigs) {
      // The registry follows each listing of the upstream's tools (every start, list_changed);
      // a tool it refuses is left out and named, and does not stop the others. Definitions are
      // recorded in the store: a tool changed since the last process saw it loses its grants.
      const tools = new UpstreamToolSet({
        registry,
        upstream: upstreamConfig.name,
        permissions,
        definitions: store.toolDefinitions,
        ...onError,
      });
      const upstream = new McpUpstream(upstreamConfig, {
        onTools: (listed) => tools.update(listed),
        ...onError,
      });
      upstreams.push(upstream);
      if (options.startUpstreams === false) continue;
      // An upstream that does not start (it exits, never answers, lists nonsense) is named and
      // tried again in the background; the others, and the server, go on.
      starting.push(upstream.start().catch((error: Error) => options.onError?.(error)));
    }
    await Promise.all(starting);

    const executor = new ToolExecutor({
      registry,
      audit: store.audit,
      license: staticLicense(LicenseTier.Teams),
      workspacePath,
      ...(config.isolation === undefined ? {} : { isolation: config.isolation }),
      options: {
        maxConcurrentExecutions: 8,
        maxQueuedExecutions: 10_000,
        // The audit rows hold each call's arguments (secret parameters redacted, long values
        // cut): the command, its cwd, the path are the evidence of what a call did.
        logParameters: true,
        ...config.limits,
      },
    });
    const approvals = options.approvals ?? config.approvals ?? "elicit";
    const toConsole =
      approvals === "console" || (approvals === "elicit" && options.console === true);
    const approvalTimeoutMs =
      config.approvalTimeoutMs ?? (toConsole ? DEFAULT_CONSOLE_APPROVAL_TIMEOUT_MS : undefined);
    const consoleApprovals = toConsole
      ? new ConsoleApprovalHandler({
          approvals: store.approvals,
          workspacePath,
          getTool: (id) => registry.getTool(id),
          ...(approvalTimeoutMs === undefined ? {} : { timeoutMs: approvalTimeoutMs }),
        })
      : undefined;
    const processor = new ToolCallProcessor({
      executor,
      policy,
      permissions,
      workspacePath,
      // With a console, calls are stored (the console shows each call's story) and their
      // executions reported (its running page, its cancel button).
      ...(consoleApprovals === undefined
        ? {}
        : { approvalHandler: consoleApprovals, store: store.calls }),
      ...(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs }),
    });
    const stopReporting =
      consoleApprovals === undefined ? undefined : reportExecutions(executor, store.executions);
    return {
      workspacePath,
      storeUrl,
      config,
      store,
      registry,
      executor,
      policy,
      permissions,
      processor,
      approvals,
      ...(consoleApprovals === undefined ? {} : { consoleApprovals }),
      upstreams,
      async close() {
        stopReporting?.();
        await Promise.all(upstreams.map((u) => u.close()));
        await executor.close();
        await store.close();
      },
    };
  } catch (error) {
    await Promise.all(upstreams.map((u) => u.close()));
    await store.close();
    throw error;
  }
}

/** The real path of a SQLite store's database file, or undefined (in memory, PostgreSQL). */
async function storeFileOf(storeUrl: string): Promise<string | undefined> {
  const location = parseStoreUrl(storeUrl);
  if (location.dialect !== "sqlite" || location.path === ":memory:") return undefined;
  return realPathOf(location.path);
}

/**
 * The workspace-relative patterns of the store's files when they are in the workspace: the
 * default store's whole folder (`.aintern`), or a database named with `--db` with its SQLite
 * siblings (`-wal`, `-shm`, `-journal`) and its in-flight journals (`-inflight.*`).
 */
function storePatterns(
  storeUrl: string,
  file: string | undefined,
  workspacePath: string,
): string[] {
  if (file === undefined || !isWithin(workspacePath, file)) return [];
  const path = relative(workspacePath, file).split(sep).join("/");
  const defaultFile = `sqlite:${join(workspacePath, ".aintern", "audit.db")}`;
  if (storeUrl === defaultFile) return [".aintern", ".aintern/**"];
  return [path, `${path}-wal`, `${path}-shm`, `${path}-journal`, `${path}-inflight.*`];
}

/** A risk level's name (`--upstream-risk High`) as the level, or undefined when it is none. */
export function riskLevelFromName(name: string): RiskLevel | undefined {
  const found = Object.entries(RiskLevel).find(([key]) => key.toLowerCase() === name.toLowerCase());
  return found?.[1];
}

/**
 * The `--upstream-risk` option's level: `{ risk }` (undefined when the option is not given), or
 * `{ problem }`, the message naming what it must be.
 */
export function upstreamRiskOption(
  value: string | undefined,
): { readonly risk: RiskLevel | undefined } | { readonly problem: string } {
  if (value === undefined) return { risk: undefined };
  const risk = riskLevelFromName(value);
  return risk === undefined
    ? { problem: `--upstream-risk must be Safe, Low, Medium, High or Critical, not '${value}'` }
    : { risk };
}

/** `"npx -y @modelcontextprotocol/server-filesystem ."` as an upstream named `up1`, `up2`, ... */
export function upstreamFromCommand(command: string, index: number): McpUpstreamConfig {
  const words = splitCommand(command);
  if (words.length === 0) throw new Error(`--upstream needs a command, got '${command}'`);
  return { name: `up${index + 1}`, command: words[0]!, args: words.slice(1) };
}

/** Splits a command line on spaces, honouring single and double quotes. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of command.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3]!);
  return words;
}

/**
 * The tools `--tools` names: `builtin`, `readonly`, or modules exporting tools. `builtin` is
 * what the built-in tools are made with (the policy's protected paths and path deny rules).
 */
export async function loadTools(
  specs: readonly string[],
  builtin: BuiltinToolsOptions = {},
): Promise<Tool[]> {
  const tools: Tool[] = [];
  const seen = new Set<Tool>();
  const add = (tool: Tool): void => {
    if (seen.has(tool)) return;
    seen.add(tool);
    tools.push(tool);
  };
  // Made once: with guard options, each builtinTools() call makes new search and list-directory
  // instances, and "builtin" with "readonly" must not register them twice.
  let builtins: Tool[] | undefined;
  const readOnlyIds = new Set(builtinTools({ readOnly: true }).map((tool) => tool.id));
  for (const spec of specs) {
    builtins ??= builtinTools(builtin);
    if (spec === "builtin") builtins.forEach(add);
    else if (spec === "readonly") builtins.filter((t) => readOnlyIds.has(t.id)).forEach(add);
    else {
      const found = toolsOf(await importModule(spec));
      if (found.length === 0) {
        throw new Error(
          `The module '${spec}' exports no tools: export defineTool() tools, or an array of them (as default or named exports)`,
        );
      }
      found.forEach(add);
    }
  }
  return tools;
}

async function importModule(spec: string): Promise<Record<string, unknown>> {
  const looksLikePath =
    spec.startsWith(".") || spec.startsWith("/") || isAbsolute(spec) || /\.[cm]?[jt]s$/.test(spec);
  if (looksLikePath) {
    return (await import(pathToFileURL(resolve(spec)).href)) as Record<string, unknown>;
  }
  // A package name: resolved from the current directory, where the user's packages are.
  const require = createRequire(join(process.cwd(), "noop.js"));
  let target = spec;
  try {
    target = pathToFileURL(require.resolve(spec)).href;
  } catch {
    // Left to import(), which says what it could not find.
  }
  return (await import(target)) as Record<string, unknown>;
}

function toolsOf(module: Record<string, unknown>): Tool[] {
  const out: Tool[] = [];
  for (const value of Object.values(module)) {
    if (Array.isArray(value)) out.push(...value.filter(isTool));
    else if (isTool(value)) out.push(value);
  }
  return out;
}

function isTool(value: unknown): value is Tool {
  if (typeof value !== "object" || value === null) return false;
  const t = value as Record<string, unknown>;
  return (
    typeof t.id === "string" &&
    typeof t.name === "string" &&
    typeof t.execute === "function" &&
    typeof t.validate === "function" &&
    typeof t.getEffectiveRiskLevel === "function" &&
    typeof t.inputSchema === "object"
  );
}

/**
 * Registers `tool`; returns why the registry refused it, or undefined when it is registered.
 * Used for tools a user does not write (an upstream's), which must not stop the others.
 */
export function registrationProblem(registry: ToolRegistry, tool: Tool): string | undefined {
  try {
    return registry.tryRegisterTool(tool) ? undefined : "its id is taken by another tool";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
