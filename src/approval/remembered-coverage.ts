import { RiskLevel, riskLevelName } from "../core/index.js";

/**
 * What a remembered approval covers, said where a person decides: approving a call for the
 * session, always, or for a pattern approves later calls of the tool up to this call's risk, not
 * only this one (one click on `touch x` for the session approves `python3 -c ...`, also Medium).
 * Undefined for a Critical call, which is never remembered.
 */
export function rememberedCoverage(toolName: string, riskLevel: RiskLevel): string | undefined {
  if (riskLevel >= RiskLevel.Critical) return undefined;
  return `Approving for this session, always or for a pattern also approves later ${toolName} calls up to ${riskLevelName(riskLevel)} risk, not only this one.`;
}
