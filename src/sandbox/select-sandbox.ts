import {
  type JsonObject,
  maxRiskLevel,
  type RiskLevel,
  riskLevelName,
  type ToolCategory,
} from "../core/index.js";
import type { Tool } from "../tools/index.js";

/**
 * Which tools the executor's configuration requires to run in process isolation, whatever
 * their own `isolation` says (a tool can ask for isolation; a policy can only add to that).
 *
 * @example
 * ```ts
 * const policy: IsolationPolicy = {
 *   requireProcessFor: { riskLevelAtLeast: RiskLevel.High, categories: [ToolCategory.Terminal] },
 * };
 * ```
 */
export interface IsolationPolicy {
  readonly requireProcessFor?: {
    /** Calls whose effective risk (from their parameters) is at least this level. */
    readonly riskLevelAtLeast?: RiskLevel;
    /** Tools of these categories. */
    readonly categories?: readonly ToolCategory[];
  };
}

/** Where one call runs, and why it is isolated. */
export type SandboxChoice =
  | { readonly sandbox: "in-process" }
  | {
      readonly sandbox: "process";
      /** Why: the tool asks for it, or which rule of the policy requires it. */
      readonly reason: string;
    };

function riskOf(tool: Tool, parameters: JsonObject | undefined): RiskLevel {
  if (parameters === undefined) return tool.defaultRiskLevel;
  try {
    return maxRiskLevel(tool.defaultRiskLevel, tool.getEffectiveRiskLevel(parameters));
  } catch {
    // A tool whose risk assessment fails is judged by its default.
    return tool.defaultRiskLevel;
  }
}

/**
 * Chooses the sandbox of one call: process isolation when the tool has `isolation: "process"`,
 * or when the policy matches its category or the call's effective risk (the higher of the
 * tool's default and `getEffectiveRiskLevel(parameters)`); in-process otherwise.
 */
export function selectSandbox(
  tool: Tool,
  policy: IsolationPolicy = {},
  parameters?: JsonObject,
): SandboxChoice {
  if (tool.isolation === "process") {
    return { sandbox: "process", reason: `the tool asks for it (isolation: "process")` };
  }
  const required = policy.requireProcessFor;
  if (required === undefined) return { sandbox: "in-process" };
  if (required.categories?.includes(tool.category) === true) {
    return {
      sandbox: "process",
      reason: `the isolation policy requires it for tools of category ${tool.category}`,
    };
  }
  if (required.riskLevelAtLeast !== undefined) {
    const risk = riskOf(tool, parameters);
    if (risk >= required.riskLevelAtLeast) {
      return {
        sandbox: "process",
        reason:
          `the isolation policy requires it at risk level ${riskLevelName(required.riskLevelAtLeast)} ` +
          `and above, and this call is ${riskLevelName(risk)}`,
      };
    }
  }
  return { sandbox: "in-process" };
}
