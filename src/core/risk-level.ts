/**
 * Risk classification for tool operations (spec 001 a). The values are ordered numbers, so
 * `a < b` compares two levels: `RiskLevel.Safe < RiskLevel.Critical`.
 */
export const RiskLevel = {
  /** Read-only, no side effects. Auto-approved by default. */
  Safe: 0,
  /** Easily reversible changes. Auto-approved by default, but logged. */
  Low: 1,
  /** Significant changes. Requires approval by default. */
  Medium: 2,
  /** Potentially destructive or hard to reverse. Always requires approval. */
  High: 3,
  /** System-level operations with broad impact. Always requires approval, with a warning. */
  Critical: 4,
} as const;

/** One of the {@link RiskLevel} values. */
export type RiskLevel = (typeof RiskLevel)[keyof typeof RiskLevel];

/** Every risk level, lowest first. */
export const allRiskLevels: readonly RiskLevel[] = Object.freeze([0, 1, 2, 3, 4] as const);

const riskLevelNames: Readonly<Record<RiskLevel, keyof typeof RiskLevel>> = {
  0: "Safe",
  1: "Low",
  2: "Medium",
  3: "High",
  4: "Critical",
};

/** True when `value` is one of the {@link RiskLevel} values. */
export function isRiskLevel(value: unknown): value is RiskLevel {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 4;
}

/** The spec's name of a risk level: `riskLevelName(RiskLevel.High) === "High"`. */
export function riskLevelName(level: RiskLevel): keyof typeof RiskLevel {
  return riskLevelNames[level];
}

/** The higher of two risk levels. */
export function maxRiskLevel(a: RiskLevel, b: RiskLevel): RiskLevel {
  return a >= b ? a : b;
}
