import { createHash } from "node:crypto";
import type { Tool } from "./tool.js";

/**
 * What a person approving a call of `tool` was shown of it, as one string: its risk, name,
 * description, category, schemas and tags (an upstream tool's tags name the upstream and the
 * name it is called by there). Two definitions that differ in any of these are two tools to a
 * person who approved one of them.
 *
 * @internal
 */
export function toolDefinitionFingerprint(tool: Tool): string {
  return JSON.stringify({
    risk: tool.defaultRiskLevel,
    name: tool.name,
    description: tool.description,
    category: tool.category,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema ?? null,
    tags: tool.tags,
  });
}

/** The SHA-256 (hex) of {@link toolDefinitionFingerprint}: short enough to carry with an approval. @internal */
export function toolDefinitionDigest(tool: Tool): string {
  return fingerprintDigest(toolDefinitionFingerprint(tool));
}

/** The SHA-256 (hex) of a fingerprint already made. @internal */
export function fingerprintDigest(fingerprint: string): string {
  return createHash("sha256").update(fingerprint).digest("hex");
}
