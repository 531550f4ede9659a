import { readFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { ApprovalPolicyConfig, ApprovalRule } from "../approval/index.js";
import {
  AinternError,
  allToolCategories,
  isJsonObject,
  isToolCategory,
  type JsonObject,
  RiskLevel,
  type ToolCategory,
} from "../core/index.js";
import { bearerTokenProblem } from "./bearer-token-problem.js";
import type { McpUpstreamConfig } from "./mcp-upstream.js";

/** The file name `aintern mcp` looks for in the workspace when no `--config` is given. */
export const MCP_CONFIG_FILE_NAME = "aintern.config.json";

/** Error code of {@link InvalidMcpConfigError}. */
export const INVALID_MCP_CONFIG = "INVALID_MCP_CONFIG";

/** A configuration file that cannot be used: says which file, which key and what is wrong. */
export class InvalidMcpConfigError extends AinternError {
  readonly file: string | undefined;
  readonly key: string;
  constructor(file: string | undefined, key: string, problem: string) {
    super(
      INVALID_MCP_CONFIG,
      `${file === undefined ? "Configuration" : file}: ${key === "" ? "" : `'${key}' `}${problem}`,
    );
    this.name = "InvalidMcpConfigError";
    this.file = file;
    this.key = key;
  }
}

/** HTTP serving settings. */
export interface McpHttpConfig {
  readonly host?: string;
  readonly port?: number;
  /** A fixed bearer token; default a random one per start. */
  readonly token?: string;
  /** Most 2025-era sessions one client keeps open (default 64; see `serveMcpHttp`). */
  readonly maxSessions?: number;
  /** A session with no request for this long (ms) is closed (default 30 minutes). */
  readonly sessionIdleMs?: number;
  /** OAuth resource-server mode: tokens are checked at an RFC 7662 introspection endpoint. */
  readonly oauth?: {
    readonly introspectionUrl: string;
    readonly clientId?: string;
    readonly clientSecret?: string;
    readonly requiredScopes?: readonly string[];
  };
}

/** The web console's settings in the configuration. */
export interface McpConsoleConfig {
  /** `host:port` it listens on with `--console` and no address (default `127.0.0.1:7070`). */
  readonly listen?: string;
  /** Who decisions in the console are recorded as (default: `AINTERN_OPERATOR`, else the OS user). */
  readonly operator?: string;
}

/**
 * `aintern.config.json`: what `aintern mcp` serves and how it guards it. Paths are relative to the
 * file's folder. The file is a protected path (a call that touches it always asks), and no tool
 * edits it.
 *
 * @example
 * ```json
 * {
 *   "tools": ["readonly"],
 *   "policy": { "deny": [{ "commandPattern": "rm *" }], "allow": [{ "toolId": "file-write", "pathPattern": "src/**" }] },
 *   "isolation": { "requireProcessFor": { "riskLevelAtLeast": "High" } },
 *   "limits": { "defaultTimeoutMs": 30000 },
 *   "upstreams": { "fs": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."], "risk": { "move_file": "High" } } }
 * }
 * ```
 */
export interface McpConfig {
  /** Where the file was read from (absolute), when it came from a file. */
  readonly file?: string;
  readonly workspace?: string;
  readonly db?: string;
  /** `builtin`, `readonly`, or module paths. */
  readonly tools?: readonly string[];
  /** How approvals are asked: `elicit` (default), `console` or `deny` (`--approvals`). */
  readonly approvals?: "elicit" | "console" | "deny";
  readonly approvalTimeoutMs?: number;
  /** The web console run inside `aintern mcp` (`--console`). */
  readonly console?: McpConsoleConfig;
  readonly policy?: ApprovalPolicyConfig;
  readonly isolation?: {
    readonly requireProcessFor?: {
      readonly riskLevelAtLeast?: RiskLevel;
      readonly categories?: readonly ToolCategory[];
    };
  };
  readonly limits?: {
    readonly defaultTimeoutMs?: number;
    readonly maxConcurrentExecutions?: number;
    readonly maxQueuedExecutions?: number;
  };
  readonly upstreams?: readonly McpUpstreamConfig[];
  readonly http?: McpHttpConfig;
}

const topKeys = new Set([
  "$schema",
  "workspace",
  "db",
  "tools",
  "approvals",
  "approvalTimeoutMs",
  "console",
  "policy",
  "isolation",
  "limits",
  "upstreams",
  "http",
]);

/** Reads and checks a configuration file. */
export async function loadMcpConfig(path: string): Promise<McpConfig> {
  const file = resolve(path);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new InvalidMcpConfigError(file, "", `cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidMcpConfigError(file, "", `is not valid JSON: ${(error as Error).message}`);
  }
  return parseMcpConfig(json, file);
}

/**
 * Checks a configuration object (risk levels may be written as names: `"High"`), resolving its
 * relative paths against the file's folder (or the current directory).
 */
export function parseMcpConfig(json: unknown, file?: string): McpConfig {
  const fail = (key: string, problem: string): never => {
    throw new InvalidMcpConfigError(file, key, problem);
  };
  if (!isJsonObject(json)) return fail("", "must be a JSON object");
  const base = file === undefined ? process.cwd() : dirname(file);
  for (const key of Object.keys(json)) {
    if (!topKeys.has(key))
      fail(key, `is not a setting (known: ${[...topKeys].slice(1).join(", ")})`);
  }
  const str = (key: string, value: unknown): string | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "string" || value === "") return fail(key, "must be a non-empty string");
    return value;
  };
  const int = (key: string, value: unknown, min = 0): number | undefined => {
    if (value === undefined) return undefined;
    if (typeof value !== "number" || !Number.isInteger(value) || value < min) {
      return fail(key, `must be an integer of at least ${min}`);
    }
    return value;
  };
  const strings = (key: string, value: unknown): string[] | undefined => {
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
      return fail(key, "must be an array of strings");
    }
    return value as string[];
  };
  const risk = (key: string, value: unknown): RiskLevel | undefined => {
    if (value === undefined) return undefined;
    if (typeof value === "string" && Object.hasOwn(RiskLevel, value)) {
      return RiskLevel[value as keyof typeof RiskLevel];
    }
    if (typeof value === "number" && Object.values(RiskLevel).includes(value as RiskLevel)) {
      return value as RiskLevel;
    }
    return fail(key, `must be a risk level (${Object.keys(RiskLevel).join(", ")})`);
  };
  const obj = (key: string, value: unknown): JsonObject | undefined => {
    if (value === undefined) return undefined;
    if (!isJsonObject(value)) return fail(key, "must be an object");
    return value;
  };
  /** An object of strings, copied into a null-prototype object (`__proto__` stays a key). */
  const textMap = (key: string, value: unknown): Record<string, string> | undefined => {
    const o = obj(key, value);
    if (o === undefined) return undefined;
    const out: Record<string, string> = Object.create(null);
    for (const [k, v] of Object.entries(o)) {
      if (typeof v !== "string") fail(`${key}.${k}`, "must be a string");
      out[k] = v as string;
    }
    return out;
  };

  const workspace = str("workspace", json.workspace);
  const db = str("db", json.db);
  const tools = strings("tools", json.tools)?.map((t) =>
    t === "builtin" || t === "readonly" || !isRelativePath(t) ? t : resolve(base, t),
  );
  const approvals = json.approvals;
  if (
    approvals !== undefined &&
    approvals !== "elicit" &&
    approvals !== "console" &&
    approvals !== "deny"
  ) {
    fail("approvals", 'must be "elicit", "console" or "deny"');
  }
  const rawConsole = obj("console", json.console);
  let consoleConfig: McpConsoleConfig | undefined;
  if (rawConsole !== undefined) {
    for (const key of Object.keys(rawConsole)) {
      if (key !== "listen" && key !== "operator") {
        fail(`console.${key}`, "is not a console setting (listen, operator)");
      }
    }
    const listen = str("console.listen", rawConsole.listen);
    if (listen !== undefined && !/^(\[[^\]]+\]|[^:]+):\d{1,5}$/.test(listen)) {
      fail("console.listen", "must be host:port (for example 127.0.0.1:7070)");
    }
    const operator = str("console.operator", rawConsole.operator);
    if (operator !== undefined && operator.trim() === "") {
      fail("console.operator", "must not be empty");
    }
    consoleConfig = { ...optional("listen", listen), ...optional("operator", operator) };
  }

  let policy: ApprovalPolicyConfig | undefined;
  const rawPolicy = obj("policy", json.policy);
  if (rawPolicy !== undefined) {
    const rules = (key: string, value: unknown): ApprovalRule[] | undefined => {
      if (value === undefined) return undefined;
      if (!Array.isArray(value)) return fail(key, "must be an array of rules");
      return value.map((rule, i) => {
        const k = `${key}[${i}]`;
        const r = obj(k, rule)!;
        for (const name of Object.keys(r)) {
          if (
            ![
              "toolId",
              "category",
              "maxRiskLevel",
              "pathPattern",
              "commandPattern",
              "reason",
            ].includes(name)
          ) {
            fail(
              `${k}.${name}`,
              "is not a rule field (toolId, category, maxRiskLevel, pathPattern, commandPattern, reason)",
            );
          }
        }
        if (r.category !== undefined && !isToolCategory(r.category))
          fail(`${k}.category`, "is not a tool category");
        const maxRiskLevel = risk(`${k}.maxRiskLevel`, r.maxRiskLevel);
        return {
          ...(r.toolId === undefined ? {} : { toolId: str(`${k}.toolId`, r.toolId)! }),
          ...(r.category === undefined ? {} : { category: r.category as ToolCategory }),
          ...(maxRiskLevel === undefined ? {} : { maxRiskLevel }),
          ...(r.pathPattern === undefined
            ? {}
            : { pathPattern: str(`${k}.pathPattern`, r.pathPattern)! }),
          ...(r.commandPattern === undefined
            ? {}
            : { commandPattern: str(`${k}.commandPattern`, r.commandPattern)! }),
          ...(r.reason === undefined ? {} : { reason: str(`${k}.reason`, r.reason)! }),
        };
      });
    };
    // Each key may be limited to known names (categories, risk levels); each value is "ask" or
    // "allow".
    const requirements = (key: string, value: unknown, names?: readonly string[]) => {
      const o = obj(key, value);
      if (o === undefined) return undefined;
      const out: Record<string, "ask" | "allow"> = Object.create(null);
      for (const [k, v] of Object.entries(o)) {
        if (names !== undefined && !names.includes(k)) {
          fail(`${key}.${k}`, `is not one of ${names.join(", ")}`);
        }
        if (v !== "ask" && v !== "allow") fail(`${key}.${k}`, 'must be "ask" or "allow"');
        out[k] = v as "ask" | "allow";
      }
      return out;
    };
    // Tool id -> parameter names: an array of non-empty strings per tool. A string, a number or
    // an empty name would otherwise reach the policy, which iterates the value (a string's
    // letters, never a real parameter; a number throws on every call).
    const parameterNames = (key: string, value: unknown) => {
      const o = obj(key, value);
      if (o === undefined) return undefined;
      const out: Record<string, string[]> = {};
      for (const [tool, names] of Object.entries(o)) {
        if (!Array.isArray(names) || names.some((n) => typeof n !== "string" || n === "")) {
          fail(
            `${key}.${tool}`,
            `must be an array of parameter names (non-empty strings), as in ["path"], not ${JSON.stringify(names)}`,
          );
        }
        out[tool] = names as string[];
      }
      return out;
    };
    const deny = rules("policy.deny", rawPolicy.deny);
    const allow = rules("policy.allow", rawPolicy.allow);
    const protectedPaths = strings("policy.protectedPaths", rawPolicy.protectedPaths);
    const toolsReq = requirements("policy.tools", rawPolicy.tools);
    const categories = requirements("policy.categories", rawPolicy.categories, allToolCategories);
    const riskLevels = requirements("policy.riskLevels", rawPolicy.riskLevels, [
      "Safe",
      "Low",
      "Medium",
      "High",
    ]);
    const pathParameters = parameterNames("policy.pathParameters", rawPolicy.pathParameters);
    const commandParameters = parameterNames(
      "policy.commandParameters",
      rawPolicy.commandParameters,
    );
    for (const key of Object.keys(rawPolicy)) {
      if (
        ![
          "deny",
          "allow",
          "protectedPaths",
          "tools",
          "categories",
          "riskLevels",
          "pathParameters",
          "commandParameters",
        ].includes(key)
      ) {
        fail(`policy.${key}`, "is not a policy setting");
      }
    }
    policy = {
      ...(deny === undefined ? {} : { deny }),
      ...(allow === undefined ? {} : { allow }),
      ...(protectedPaths === undefined ? {} : { protectedPaths }),
      ...(toolsReq === undefined ? {} : { tools: toolsReq }),
      ...(categories === undefined ? {} : { categories }),
      ...(riskLevels === undefined ? {} : { riskLevels }),
      ...(pathParameters === undefined ? {} : { pathParameters }),
      ...(commandParameters === undefined ? {} : { commandParameters }),
    };
  }

  let isolation: McpConfig["isolation"];
  const rawIsolation = obj("isolation", json.isolation);
  if (rawIsolation !== undefined) {
    const req = obj("isolation.requireProcessFor", rawIsolation.requireProcessFor);
    const atLeast = risk("isolation.requireProcessFor.riskLevelAtLeast", req?.riskLevelAtLeast);
    const categories = strings("isolation.requireProcessFor.categories", req?.categories);
    if (categories?.some((c) => !isToolCategory(c))) {
      fail("isolation.requireProcessFor.categories", "holds a name that is not a tool category");
    }
    isolation = {
      requireProcessFor: {
        ...(atLeast === undefined ? {} : { riskLevelAtLeast: atLeast }),
        ...(categories === undefined ? {} : { categories: categories as ToolCategory[] }),
      },
    };
  }

  const rawLimits = obj("limits", json.limits);
  const limits =
    rawLimits === undefined
      ? undefined
      : {
          ...optional(
            "defaultTimeoutMs",
            int("limits.defaultTimeoutMs", rawLimits.defaultTimeoutMs, 1),
          ),
          ...optional(
            "maxConcurrentExecutions",
            int("limits.maxConcurrentExecutions", rawLimits.maxConcurrentExecutions, 1),
          ),
          ...optional(
            "maxQueuedExecutions",
            int("limits.maxQueuedExecutions", rawLimits.maxQueuedExecutions, 0),
          ),
        };

  const upstreams: McpUpstreamConfig[] = [];
  const rawUpstreams = obj("upstreams", json.upstreams);
  for (const [name, value] of Object.entries(rawUpstreams ?? {})) {
    const key = `upstreams.${name}`;
    const u = obj(key, value)!;
    // Null-prototype maps: a tool named `__proto__` or `constructor` is a key like any other.
    const riskMap: Record<string, RiskLevel> = Object.create(null);
    for (const [tool, level] of Object.entries(obj(`${key}.risk`, u.risk) ?? {})) {
      riskMap[tool] = risk(`${key}.risk.${tool}`, level)!;
    }
    const defaultRisk = risk(`${key}.defaultRisk`, u.defaultRisk);
    const startTimeoutMs = int(`${key}.startTimeoutMs`, u.startTimeoutMs, 1);
    const common = {
      name,
      ...(u.prefix === undefined ? {} : { prefix: str(`${key}.prefix`, u.prefix)! }),
      ...(Object.keys(riskMap).length === 0 ? {} : { risk: riskMap }),
      ...optional("defaultRisk", defaultRisk),
      ...optional("startTimeoutMs", startTimeoutMs),
    };
    if (typeof u.url === "string") {
      const headers = textMap(`${key}.headers`, u.headers);
      upstreams.push({
        ...common,
        url: u.url,
        ...optional("headers", headers),
      });
    } else {
      const command =
        str(`${key}.command`, u.command) ?? fail(key, "needs a command (stdio) or a url (HTTP)");
      const args = strings(`${key}.args`, u.args);
      const env = textMap(`${key}.env`, u.env);
      const cwd = str(`${key}.cwd`, u.cwd);
      upstreams.push({
        ...common,
        command,
        ...(args === undefined ? {} : { args }),
        ...optional("env", env),
        cwd: cwd === undefined ? base : resolve(base, cwd),
      });
    }
  }

  const rawHttp = obj("http", json.http);
  let http: McpHttpConfig | undefined;
  if (rawHttp !== undefined) {
    const oauth = obj("http.oauth", rawHttp.oauth);
    const host = str("http.host", rawHttp.host);
    const port = int("http.port", rawHttp.port);
    const token = str("http.token", rawHttp.token);
    const tokenProblem = token === undefined ? undefined : bearerTokenProblem(token);
    if (tokenProblem !== undefined) fail("http.token", tokenProblem);
    const maxSessions = int("http.maxSessions", rawHttp.maxSessions, 1);
    const sessionIdleMs = int("http.sessionIdleMs", rawHttp.sessionIdleMs, 1000);
    http = {
      ...(host === undefined ? {} : { host }),
      ...(port === undefined ? {} : { port }),
      ...(token === undefined ? {} : { token }),
      ...optional("maxSessions", maxSessions),
      ...optional("sessionIdleMs", sessionIdleMs),
      ...(oauth === undefined
        ? {}
        : {
            oauth: {
              introspectionUrl:
                str("http.oauth.introspectionUrl", oauth.introspectionUrl) ??
                fail("http.oauth.introspectionUrl", "is required"),
              ...optional("clientId", str("http.oauth.clientId", oauth.clientId)),
              ...optional("clientSecret", str("http.oauth.clientSecret", oauth.clientSecret)),
              ...optional(
                "requiredScopes",
                strings("http.oauth.requiredScopes", oauth.requiredScopes),
              ),
            },
          }),
    };
  }

  const approvalTimeoutMs = int("approvalTimeoutMs", json.approvalTimeoutMs, 1);
  return {
    ...(file === undefined ? {} : { file }),
    ...(workspace === undefined ? {} : { workspace: resolve(base, workspace) }),
    ...optional("db", db),
    ...optional("tools", tools),
    ...(approvals === undefined ? {} : { approvals: approvals as "elicit" | "console" | "deny" }),
    ...optional("approvalTimeoutMs", approvalTimeoutMs),
    ...optional("console", consoleConfig),
    ...optional("policy", policy),
    ...optional("isolation", isolation),
    ...optional("limits", limits),
    ...(upstreams.length === 0 ? {} : { upstreams }),
    ...optional("http", http),
  };
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function isRelativePath(spec: string): boolean {
  return (
    spec.startsWith("./") ||
    spec.startsWith("../") ||
    spec.endsWith(".js") ||
    spec.endsWith(".ts") ||
    spec.endsWith(".mjs")
  );
}
