import type { ToolAnnotations } from "@modelcontextprotocol/server";
import { RiskLevel, ToolCategory } from "../core/index.js";
import type { Tool } from "../tools/index.js";

/** Tags a tool can carry to say what its metadata alone does not. */
const readOnlyTags = new Set(["read-only", "readonly"]);
const destructiveTags = new Set(["destructive"]);
const idempotentTags = new Set(["idempotent"]);
const openWorldTags = new Set(["open-world", "network"]);

/**
 * The MCP annotations of an aintern tool, from its metadata: `readOnlyHint` for tools that change
 * nothing (default risk Safe, or the tag `read-only`); `destructiveHint` for the others from Medium
 * risk up (or the tag `destructive`); `idempotentHint` for read-only tools (or the tag
 * `idempotent`); `openWorldHint` for network and terminal tools (or the tag `open-world`).
 *
 * They are hints for the client's display: aintern itself never trusts annotations, its policy
 * judges each call from the tool's risk and the call's arguments.
 */
export function toolAnnotations(tool: Tool): ToolAnnotations {
  const tags = new Set(tool.tags.map((t) => t.toLowerCase()));
  const risk = tool.defaultRiskLevel;
  const readOnly = risk === RiskLevel.Safe || hasAny(tags, readOnlyTags);
  const destructive = !readOnly && (risk >= RiskLevel.Medium || hasAny(tags, destructiveTags));
  return {
    title: tool.name,
    readOnlyHint: readOnly,
    destructiveHint: destructive,
    idempotentHint: readOnly || hasAny(tags, idempotentTags),
    openWorldHint:
      tool.category === ToolCategory.Network ||
      tool.category === ToolCategory.Terminal ||
      hasAny(tags, openWorldTags),
  };
}

/**
 * The risk aintern gives an upstream MCP tool from its annotations: destructive is High, else
 * read-only is Safe, anything else Medium. Hints that contradict each other (read-only and
 * destructive) give the higher risk. Annotations are the upstream's claims; the configuration can
 * override the level per tool, or for all of an upstream's tools (`defaultRisk`).
 */
export function riskFromAnnotations(annotations: ToolAnnotations | undefined): RiskLevel {
  if (annotations?.destructiveHint === true) return RiskLevel.High;
  if (annotations?.readOnlyHint === true) return RiskLevel.Safe;
  return RiskLevel.Medium;
}

function hasAny(tags: ReadonlySet<string>, wanted: ReadonlySet<string>): boolean {
  for (const tag of wanted) if (tags.has(tag)) return true;
  return false;
}
