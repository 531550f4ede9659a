import { RiskLevel, type ToolCategory } from "../core/index.js";

/**
 * What the current environment offers, used to filter which tools are advertised to the model
 * (spec 001 g). Every member is optional and an absent member does not filter: where the C#
 * spec's `bool` defaults to false (so an unset `HasTerminal` hides Terminal tools), here only an
 * explicit `hasTerminal: false` does. Use {@link ToolAvailabilityContext.default} for the spec's
 * preset.
 */
export interface ToolAvailabilityContext {
  /** Whether a workspace is open; `false` hides Workspace tools. */
  readonly hasWorkspace?: boolean;
  readonly workspacePath?: string;
  /** `false` hides Terminal tools. */
  readonly hasTerminal?: boolean;
  /** `false` hides Editor tools. */
  readonly hasEditor?: boolean;
  /** `false` hides Git tools. */
  readonly hasGitRepository?: boolean;
  /** Only these tool ids (case-insensitive), when given and not empty. */
  readonly enabledToolIds?: Iterable<string>;
  /** Never these tool ids (case-insensitive). */
  readonly disabledToolIds?: Iterable<string>;
  /** Only tools whose default risk is at most this. */
  readonly maxRiskLevel?: RiskLevel;
  readonly includedCategories?: Iterable<ToolCategory>;
  readonly excludedCategories?: Iterable<ToolCategory>;
  /** Only tools carrying every one of these tags. */
  readonly requiredTags?: Iterable<string>;
}

/** The spec's two preset contexts. */
export const ToolAvailabilityContext = {
  /** Workspace, terminal and editor available; no git repository. */
  get default(): ToolAvailabilityContext {
    return { hasWorkspace: true, hasTerminal: true, hasEditor: true, hasGitRepository: false };
  },
  /** Only Safe tools, with a workspace, no terminal and no editor. */
  get safeOnly(): ToolAvailabilityContext {
    return {
      hasWorkspace: true,
      hasTerminal: false,
      hasEditor: false,
      maxRiskLevel: RiskLevel.Safe,
    };
  },
} as const;
