import { RiskLevel } from "./risk-level.js";

/** Display and policy information for a {@link RiskLevel}. */
export interface RiskInfo {
  readonly displayName: string;
  /** Hex color for badges. */
  readonly color: string;
  /** Icon name, in the same icon vocabulary as the category icons. */
  readonly iconName: string;
  readonly description: string;
  /** Whether calls at this level need a person's approval by default. */
  readonly requiresApproval: boolean;
  /** Whether executions at this level are shown in the activity log. */
  readonly showInLog: boolean;
}

const riskInfo = new Map<number, RiskInfo>([
  [
    RiskLevel.Safe,
    info(
      "Safe",
      "#22C55E",
      "shield-check",
      "Read-only operation with no side effects",
      false,
      false,
    ),
  ],
  [
    RiskLevel.Low,
    info("Low Risk", "#3B82F6", "shield", "Reversible changes to files", false, true),
  ],
  [
    RiskLevel.Medium,
    info(
      "Medium Risk",
      "#F59E0B",
      "alert-circle",
      "Significant changes requiring attention",
      true,
      true,
    ),
  ],
  [
    RiskLevel.High,
    info("High Risk", "#EF4444", "alert-triangle", "Potentially destructive operation", true, true),
  ],
  [
    RiskLevel.Critical,
    info(
      "Critical",
      "#DC2626",
      "alert-octagon",
      "System-level operation with broad impact",
      true,
      true,
    ),
  ],
]);

function info(
  displayName: string,
  color: string,
  iconName: string,
  description: string,
  requiresApproval: boolean,
  showInLog: boolean,
): RiskInfo {
  return Object.freeze({ displayName, color, iconName, description, requiresApproval, showInLog });
}

/** UI and policy metadata for risk levels (spec 001 a). */
export const RiskLevelMetadata = {
  /** Metadata of a level; an unknown value gets Medium's, as the spec says (fail safe: asks). */
  getInfo(level: RiskLevel): RiskInfo {
    return riskInfo.get(level) ?? riskInfo.get(RiskLevel.Medium)!;
  },
} as const;
