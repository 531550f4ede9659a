import type { Tool } from "../../tools/index.js";
import type { AinternGate } from "./gate-port.js";
import { UnknownAdapterToolError } from "./unknown-adapter-tool-error.js";

/**
 * The processor's tools an adapter exposes: all of them, or those named in `toolIds` (matched
 * case-insensitively, as the registry does). A name that matches no tool is a programming error.
 */
export function selectTools(gate: AinternGate, toolIds?: readonly string[]): readonly Tool[] {
  const all = gate.executor.registry.tools;
  if (toolIds === undefined) return all;
  const byId = new Map(all.map((tool) => [tool.id.toLowerCase(), tool]));
  return toolIds.map((id) => {
    const tool = byId.get(id.toLowerCase());
    if (tool === undefined) {
      throw new UnknownAdapterToolError(
        id,
        all.map((t) => t.id),
      );
    }
    return tool;
  });
}
