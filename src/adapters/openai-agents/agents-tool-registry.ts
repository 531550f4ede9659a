import type { AinternGate } from "../shared/index.js";

/** What `applyDecisions` needs to know about the tools `toAgentsTools` made for a processor. */
export interface AgentsToolBinding {
  readonly toolId: string;
  readonly sessionId: string;
  /** The arguments as aintern sees them (strict mode's `null`s for optional properties dropped). */
  readonly parametersOf: (input: unknown) => unknown;
}

const bindings = new WeakMap<AinternGate, Map<string, AgentsToolBinding>>();

/** Remembers that the SDK tool `name` runs `binding.toolId` for `gate`. */
export function bindAgentsTool(gate: AinternGate, name: string, binding: AgentsToolBinding): void {
  let byName = bindings.get(gate);
  if (byName === undefined) {
    byName = new Map();
    bindings.set(gate, byName);
  }
  byName.set(name, binding);
}

/** The aintern tool behind an SDK tool name, for tools `toAgentsTools` made for `gate`. */
export function agentsToolBinding(gate: AinternGate, name: string): AgentsToolBinding | undefined {
  return bindings.get(gate)?.get(name);
}
