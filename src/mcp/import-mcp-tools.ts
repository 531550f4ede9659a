import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/client";
import { ToolProgress } from "../context/index.js";
import { isJsonObject, type JsonObject, RiskLevel, ToolCategory } from "../core/index.js";
import { ToolResult } from "../result/index.js";
import type { JsonSchema } from "../schema/index.js";
import { defineTool, type Tool } from "../tools/index.js";
import { riskFromAnnotations } from "./tool-annotations.js";

/** One tool as an MCP server lists it (the fields aintern reads). */
export interface ListedMcpTool {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
  readonly outputSchema?: Readonly<Record<string, unknown>>;
  readonly annotations?: ToolAnnotations;
}

/**
 * What {@link importMcpTools} needs of an MCP client: an SDK `Client` has it. `listTools` may
 * return entries as the server sent them: each is checked on its own.
 */
export interface McpToolClient {
  listTools(): Promise<{ readonly tools: readonly unknown[] }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    options?: {
      signal?: AbortSignal;
      onprogress?: (progress: { progress: number; total?: number; message?: string }) => void;
      timeout?: number;
      resetTimeoutOnProgress?: boolean;
    },
  ): Promise<CallToolResult>;
}

/** Options of {@link importMcpTools}. */
export interface ImportMcpToolsOptions {
  /** Put before each tool's name to make its aintern id (`"fs_"` + `read_file`). Default none. */
  readonly prefix?: string;
  /** Risk per upstream tool name, overriding what its annotations give. */
  readonly risk?: Readonly<Record<string, RiskLevel>>;
  /**
   * The risk of every tool `risk` does not name, instead of what its annotations give: the
   * annotations are the server's claims, and this distrusts them wholesale.
   */
  readonly defaultRisk?: RiskLevel;
  /** Told of each listed tool that is left out because it is malformed (the others are kept). */
  readonly onToolLeftOut?: (name: string, problem: string) => void;
  /** Only these upstream tool names (default all). */
  readonly include?: readonly string[];
  /** The longest wait for one call (the executor's timeout applies as well). Default 10 minutes. */
  readonly callTimeoutMs?: number;
  /** Tags added to every imported tool. Default `["mcp"]`. */
  readonly tags?: readonly string[];
}

/**
 * The tools of an MCP server as aintern tools, to register and serve with aintern's policy,
 * approvals and audit. Risk comes from the annotations (destructive: High, else read-only: Safe,
 * otherwise Medium) unless `risk` names the tool or `defaultRisk` is set. A listed tool that is
 * malformed (no name, no object `inputSchema`, annotations that are not hints) is left out and
 * told to `onToolLeftOut`; the others are imported. Each call goes to the server with the call's
 * signal (cancelling sends `notifications/cancelled`) and a progress listener; the server's
 * errors come back as failed results, its structured content as the result's data.
 *
 * @example
 * ```ts
 * const client = new Client({ name: "aintern", version: "1" });
 * await client.connect(new StdioClientTransport({ command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."] }));
 * registry.registerTools(await importMcpTools(client, { prefix: "fs_" }));
 * ```
 */
export async function importMcpTools(
  client: McpToolClient,
  options: ImportMcpToolsOptions = {},
): Promise<Tool[]> {
  const { tools } = await client.listTools();
  const include = options.include === undefined ? undefined : new Set(options.include);
  const risk = new Map(Object.entries(options.risk ?? {}));
  // Also by the id a name maps to: a server that renames `move_file` to `move.file` keeps the
  // tool's id (`u_move_file`, its grants), and must keep the risk it was given by name.
  const riskById = new Map(
    [...risk].map(([name, level]) => [
      toolIdFor(`${options.prefix ?? ""}${name}`, new Set()).toLowerCase(),
      level,
    ]),
  );
  const ids = new Set<string>();
  const imported: Tool[] = [];
  for (const [index, entry] of tools.entries()) {
    const problem = listedToolProblem(entry);
    if (problem !== undefined) {
      const name =
        isJsonObject(entry) && typeof entry.name === "string" && entry.name !== ""
          ? entry.name
          : `#${index + 1}`;
      options.onToolLeftOut?.(name, problem);
      continue;
    }
    const listed = entry as ListedMcpTool;
    if (include !== undefined && !include.has(listed.name)) continue;
    const id = toolIdFor(`${options.prefix ?? ""}${listed.name}`, ids);
    // Ids are case-insensitive (the registry's, the grants'): `read` after `Read` is `read_2`.
    ids.add(id.toLowerCase());
    imported.push(
      mcpTool(
        client,
        listed,
        id,
        options,
        risk.get(listed.name) ??
          riskById.get(
            toolIdFor(`${options.prefix ?? ""}${listed.name}`, new Set()).toLowerCase(),
          ) ??
          options.defaultRisk,
      ),
    );
  }
  return imported;
}

const hintNames = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

/** The longest name or title of a listed tool, in characters. */
const MAX_LISTED_NAME = 1_000;
/** The longest description of a listed tool, in characters. */
const MAX_LISTED_DESCRIPTION = 65_536;
/** The longest input or output schema of a listed tool, in characters of JSON. */
const MAX_LISTED_SCHEMA = 1_000_000;

/** Why a `tools/list` entry cannot be imported, or undefined when it can. */
export function listedToolProblem(entry: unknown): string | undefined {
  if (!isJsonObject(entry)) return "it is not an object";
  if (typeof entry.name !== "string" || entry.name === "") return "it has no name";
  if (!isJsonObject(entry.inputSchema)) return "its inputSchema is missing or not an object";
  const type = entry.inputSchema.type;
  if (type !== undefined && type !== "object") return 'its inputSchema is not of type "object"';
  if (entry.outputSchema !== undefined && !isJsonObject(entry.outputSchema)) {
    return "its outputSchema is not an object";
  }
  for (const key of ["title", "description"] as const) {
    if (entry[key] !== undefined && typeof entry[key] !== "string") return `its ${key} is not text`;
  }
  // Sizes a model's context and an MCP client can take: an upstream's tools are served again, in
  // the gateway's tools/list, to clients that refuse a message over 10 MB.
  const texts = [
    ["name", entry.name, MAX_LISTED_NAME],
    ["title", entry.title, MAX_LISTED_NAME],
    ["description", entry.description, MAX_LISTED_DESCRIPTION],
  ] as const;
  for (const [key, text, most] of texts) {
    if (typeof text === "string" && text.length > most) {
      return `its ${key} is ${text.length} characters long, more than ${most}`;
    }
  }
  for (const key of ["inputSchema", "outputSchema"] as const) {
    if (entry[key] === undefined) continue;
    let length: number;
    try {
      length = JSON.stringify(entry[key]).length;
    } catch {
      return `its ${key} cannot be written as JSON`;
    }
    if (length > MAX_LISTED_SCHEMA) {
      return `its ${key} is ${length} characters of JSON, more than ${MAX_LISTED_SCHEMA}`;
    }
  }
  const annotations = entry.annotations;
  if (annotations === undefined) return undefined;
  if (!isJsonObject(annotations)) return "its annotations are not an object";
  for (const hint of hintNames) {
    const value = annotations[hint];
    if (value !== undefined && typeof value !== "boolean") {
      return `its annotation ${hint} is not true or false`;
    }
  }
  return undefined;
}

/**
 * An aintern tool id for an upstream tool (1-64 of letters, digits, `-`, `_`): other characters
 * become `_`, and a clash (`taken` holds lowercased ids: ids are case-insensitive) gets `_2`,
 * `_3`, ... The tool still calls the upstream by its own name.
 */
export function toolIdFor(wanted: string, taken: ReadonlySet<string> = new Set()): string {
  let base = wanted
    .replace(/[^A-Za-z0-9_-]/g, "_")
    .replace(/^-/, "_")
    .slice(0, 64);
  if (base === "") base = "tool";
  let id = base;
  for (let n = 2; taken.has(id.toLowerCase()); n++) {
    id = `${base.slice(0, 64 - `_${n}`.length)}_${n}`;
  }
  return id;
}

function mcpTool(
  client: McpToolClient,
  listed: ListedMcpTool,
  id: string,
  options: ImportMcpToolsOptions,
  riskOverride: RiskLevel | undefined,
): Tool {
  const annotations = listed.annotations;
  const riskLevel = riskOverride ?? riskFromAnnotations(annotations);
  // A tool that says it is both read-only and destructive is taken at its worse word, and one
  // whose risk the configuration raised to Medium or more is not served as read-only either
  // (a client may show or approve tools by that hint).
  const readOnly =
    annotations?.readOnlyHint === true &&
    annotations.destructiveHint !== true &&
    riskLevel <= RiskLevel.Low;
  // The name the upstream is called by: a tag, so a definition's fingerprint (upstream tool
  // sets compare them) changes when the same id comes to call another upstream tool (`read.file`
  // and `read_file` make one id; a clash's `_2` follows the listing's order).
  const tags = [...(options.tags ?? ["mcp"]), `upstream-tool:${listed.name}`];
  if (readOnly) tags.push("read-only");
  if (annotations?.destructiveHint === true) tags.push("destructive");
  if (annotations?.idempotentHint === true) tags.push("idempotent");
  if (annotations?.openWorldHint === true) tags.push("open-world");
  const name = listed.name;
  return defineTool({
    id,
    name: listed.title ?? annotations?.title ?? name,
    description: listed.description ?? `The ${name} tool of an MCP server.`,
    category: annotations?.openWorldHint === true ? ToolCategory.Network : ToolCategory.Custom,
    riskLevel,
    inputSchema: inputSchemaOf(listed.inputSchema),
    ...(listed.outputSchema === undefined
      ? {}
      : { outputSchema: listed.outputSchema as JsonSchema }),
    tags,
    getExecutionSummary: (parameters) => `Call ${name} ${preview(parameters)}`,
    async execute(input, context) {
      const result = await client.callTool(
        { name, arguments: input as Record<string, unknown> },
        {
          signal: context.signal,
          timeout: options.callTimeoutMs ?? 600_000,
          resetTimeoutOnProgress: true,
          onprogress: (progress) => {
            const percent =
              progress.total !== undefined && progress.total > 0
                ? (progress.progress / progress.total) * 100
                : undefined;
            context.reportProgress(
              new ToolProgress({
                message: progress.message ?? "",
                ...(percent === undefined ? {} : { percentComplete: Math.min(100, percent) }),
              }),
            );
          },
        },
      );
      return toToolResult(result);
    },
  });
}

/** An MCP tool result as a ToolResult: errors fail with their text, data from structured content. */
export function toToolResult(result: CallToolResult): ToolResult {
  const text = (result.content ?? [])
    .map((block) => (block.type === "text" ? block.text : `[${block.type}]`))
    .join("\n");
  if (result.isError === true) {
    return ToolResult.failed(
      text === "" ? "The MCP tool reported an error" : text,
      "MCP_TOOL_ERROR",
    );
  }
  const structured = result.structuredContent;
  if (structured !== undefined && isJsonObject(structured)) {
    return ToolResult.succeeded(structured as JsonObject, text === "" ? "Done" : text);
  }
  return ToolResult.succeeded(text, "Done");
}

function inputSchemaOf(schema: Readonly<Record<string, unknown>>): JsonSchema {
  // MCP input schemas are JSON Schema objects (often draft 2020-12); aintern validates with the
  // keywords it knows and lets the upstream judge the rest.
  const { $schema: _dialect, ...rest } = schema;
  return { type: "object", ...rest } as JsonSchema;
}

function preview(parameters: JsonObject): string {
  const text = JSON.stringify(parameters);
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
