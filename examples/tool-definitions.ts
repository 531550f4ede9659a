/**
 * Define tools once, advertise them to any provider, and validate what a model sends back.
 *
 *   npm run example
 */
import { z } from "zod";
import { RiskLevel, ToolCategory } from "../src/core/index.js";
import { toAnthropicTool, toOpenAiTool } from "../src/providers/index.js";
import { ToolRegistry } from "../src/registry/index.js";
import { ToolResult } from "../src/result/index.js";
import { defineTool } from "../src/tools/index.js";

// 1. Define tools with zod: `execute`'s input is typed from the schema.
const readFile = defineTool({
  id: "file-read",
  name: "Read File",
  description: "Read a UTF-8 text file from the workspace. Use it before editing a file.",
  category: ToolCategory.FileSystem,
  riskLevel: RiskLevel.Safe,
  inputSchema: z.object({
    path: z.string().min(1).describe("Path relative to the workspace root"),
    maxLines: z.number().int().min(1).max(10_000).optional().describe("Stop after this many lines"),
  }),
  getExecutionSummary: (p) => `Read file '${String(p.path)}'`,
  async execute({ path, maxLines }) {
    return ToolResult.succeeded({ path, maxLines: maxLines ?? null }, `Would read ${path}`);
  },
});

const search = defineTool({
  id: "search",
  name: "Search",
  description: "Search file contents with a regular expression.",
  category: ToolCategory.Search,
  riskLevel: RiskLevel.Safe,
  inputSchema: z.object({
    pattern: z.string().describe("A JavaScript regular expression"),
    options: z
      .object({
        depth: z.number().int().min(0).max(32).describe("How deep to recurse"),
        glob: z.string().optional().describe("Only files matching this glob"),
      })
      .describe("Search options"),
    mode: z.enum(["content", "files"]).default("content"),
  }),
  async execute({ pattern, options, mode }) {
    return { pattern, depth: options.depth, mode };
  },
});

// 2. Register them: ids are checked, schemas compiled, definitions cached.
const registry = new ToolRegistry({ tools: [readFile, search] });

// 3. Advertise: the same tools in each provider's format.
console.log("== OpenAI tools (strict mode)");
console.log(
  JSON.stringify(
    registry.tools.map((t) => toOpenAiTool(t, { strict: true })),
    null,
    2,
  ),
);
console.log("\n== Anthropic tools");
console.log(JSON.stringify(registry.tools.map(toAnthropicTool), null, 2));

// 4. Validate what a model sent: a bad call, then a good one.
const badCall = { pattern: 42, options: { depth: "3" }, mode: "everything", extra: true };
const goodCall = { pattern: "TODO", options: { depth: 3 } };

for (const [label, args] of [
  ["bad", badCall],
  ["good", goodCall],
] as const) {
  const tool = registry.getRequiredTool("search");
  const validation = tool.validate(args);
  console.log(`\n== ${label} call to 'search': ${JSON.stringify(args)}`);
  if (validation.isValid) {
    console.log("valid: the call can run");
  } else {
    console.log("What the model gets back:");
    console.log(ToolResult.validationFailed(validation).toLlmContext());
  }
}
