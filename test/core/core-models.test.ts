import { describe, expect, it, vi } from "vitest";
import {
  AinternError,
  allRiskLevels,
  allToolCategories,
  isJsonObject,
  isRiskLevel,
  isToolCategory,
  maxRiskLevel,
  RiskLevel,
  RiskLevelMetadata,
  riskLevelName,
  ToolCategory,
  ToolCategoryMetadata,
  TypedEventEmitter,
} from "../../src/core/index.js";

describe("RiskLevel", () => {
  it("orders Safe < Low < Medium < High < Critical so levels compare with <", () => {
    expect(RiskLevel.Safe).toBeLessThan(RiskLevel.Low);
    expect(RiskLevel.Low).toBeLessThan(RiskLevel.Medium);
    expect(RiskLevel.Medium).toBeLessThan(RiskLevel.High);
    expect(RiskLevel.High).toBeLessThan(RiskLevel.Critical);
    expect(allRiskLevels).toEqual([0, 1, 2, 3, 4]);
  });

  it("names levels and picks the higher of two", () => {
    expect(riskLevelName(RiskLevel.High)).toBe("High");
    expect(maxRiskLevel(RiskLevel.Low, RiskLevel.Critical)).toBe(RiskLevel.Critical);
    expect(maxRiskLevel(RiskLevel.Medium, RiskLevel.Safe)).toBe(RiskLevel.Medium);
  });

  it("recognises only the five levels", () => {
    expect(isRiskLevel(3)).toBe(true);
    expect(isRiskLevel(5)).toBe(false);
    expect(isRiskLevel(1.5)).toBe(false);
    expect(isRiskLevel("High")).toBe(false);
  });
});

describe("RiskLevelMetadata.getInfo", () => {
  it("gives the spec's display names, colors and approval rules", () => {
    const expected = [
      [RiskLevel.Safe, "Safe", "#22C55E", false, false],
      [RiskLevel.Low, "Low Risk", "#3B82F6", false, true],
      [RiskLevel.Medium, "Medium Risk", "#F59E0B", true, true],
      [RiskLevel.High, "High Risk", "#EF4444", true, true],
      [RiskLevel.Critical, "Critical", "#DC2626", true, true],
    ] as const;
    for (const [level, name, color, requiresApproval, showInLog] of expected) {
      const info = RiskLevelMetadata.getInfo(level);
      expect(info).toMatchObject({ displayName: name, color, requiresApproval, showInLog });
      expect(info.iconName).not.toBe("");
    }
  });

  it("falls back to Medium (which asks) for an unknown level", () => {
    expect(RiskLevelMetadata.getInfo(9 as RiskLevel)).toBe(
      RiskLevelMetadata.getInfo(RiskLevel.Medium),
    );
  });
});

describe("ToolCategoryMetadata.getInfo", () => {
  it("gives every category a display name, icon and description", () => {
    expect(allToolCategories).toHaveLength(9);
    for (const category of allToolCategories) {
      const info = ToolCategoryMetadata.getInfo(category);
      expect(info.displayName).not.toBe("Unknown");
      expect(info.iconName).not.toBe("");
    }
    expect(ToolCategoryMetadata.getInfo(ToolCategory.Git)).toEqual({
      displayName: "Git",
      iconName: "git-branch",
      description: "Version control operations",
    });
  });

  it("answers Unknown for a value outside the enum, even 'constructor'", () => {
    expect(ToolCategoryMetadata.getInfo("constructor" as ToolCategory).displayName).toBe("Unknown");
    expect(isToolCategory("constructor")).toBe(false);
    expect(isToolCategory("Git")).toBe(true);
  });
});

describe("AinternError", () => {
  it("carries a code and a cause and is recognised across copies by its brand", () => {
    const cause = new Error("root");
    const error = new AinternError("SOME_CODE", "Something failed", { cause });
    expect(error.code).toBe("SOME_CODE");
    expect(error.cause).toBe(cause);
    expect(AinternError.isInstance(error)).toBe(true);
    expect(AinternError.isInstance(new Error("x"))).toBe(false);
    expect(AinternError.isInstance(null)).toBe(false);
  });
});

describe("isJsonObject", () => {
  it("accepts plain objects only", () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
    expect(isJsonObject("x")).toBe(false);
  });
});

describe("TypedEventEmitter", () => {
  it("delivers events in order, removes listeners and survives a throwing listener", () => {
    const onListenerError = vi.fn();
    const events = new TypedEventEmitter<{ ping: number }>({ onListenerError });
    const seen: number[] = [];
    events.on("ping", () => {
      throw new Error("bad listener");
    });
    const off = events.on("ping", (n) => seen.push(n));
    events.once("ping", (n) => seen.push(n * 10));
    events.emit("ping", 1);
    events.emit("ping", 2);
    off();
    events.emit("ping", 3);
    expect(seen).toEqual([1, 10, 2]);
    expect(onListenerError).toHaveBeenCalledTimes(3);
    expect(events.listenerCount("ping")).toBe(1);
    events.removeAllListeners();
    expect(events.hasListeners("ping")).toBe(false);
  });
});
