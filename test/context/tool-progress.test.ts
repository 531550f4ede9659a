import { describe, expect, it } from "vitest";
import { ToolProgress } from "../../src/context/index.js";

describe("ToolProgress", () => {
  it("IsIndeterminate_NoPercent_ReturnsTrue: a message-only update is indeterminate", () => {
    const progress = ToolProgress.message("Reading file...");
    expect(progress.isIndeterminate).toBe(true);
    expect(progress.message).toBe("Reading file...");
    expect(progress.percentComplete).toBeUndefined();
    expect(progress.normalizedProgress).toBe(0);
    expect(progress.progressText).toBe("");
  });

  it("IsIndeterminate_WithPercent_ReturnsFalse: an update with a percentage is determinate", () => {
    expect(ToolProgress.withPercent("Downloading", 10).isIndeterminate).toBe(false);
    expect(ToolProgress.withPercent("Downloading", 0).isIndeterminate).toBe(false);
  });

  it("is determinate with a total but no percentage", () => {
    const progress = new ToolProgress({ message: "x", itemsProcessed: 2, totalItems: 8 });
    expect(progress.isIndeterminate).toBe(false);
    expect(progress.normalizedProgress).toBe(0.25);
  });

  it("NormalizedProgress_FromPercent_Correct: normalizes a percentage to 0..1", () => {
    expect(ToolProgress.withPercent("x", 50).normalizedProgress).toBe(0.5);
    expect(ToolProgress.withPercent("x", 0).normalizedProgress).toBe(0);
    expect(ToolProgress.withPercent("x", 100).normalizedProgress).toBe(1);
  });

  it("NormalizedProgress_FromItems_Correct: normalizes item counts to 0..1", () => {
    expect(new ToolProgress({ itemsProcessed: 3, totalItems: 4 }).normalizedProgress).toBe(0.75);
    expect(new ToolProgress({ itemsProcessed: 3, totalItems: 0 }).normalizedProgress).toBe(0);
    expect(new ToolProgress({ totalItems: 4 }).normalizedProgress).toBe(0);
  });

  it("keeps NormalizedProgress within 0..1 whatever it is given (AC-7)", () => {
    for (const percent of [-50, 0, 33.3, 100, 250, Number.POSITIVE_INFINITY]) {
      const value = new ToolProgress({ percentComplete: percent }).normalizedProgress;
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
    }
    expect(new ToolProgress({ itemsProcessed: 12, totalItems: 4 }).normalizedProgress).toBe(1);
    expect(new ToolProgress({ itemsProcessed: -1, totalItems: 4 }).normalizedProgress).toBe(0);
  });

  it("clamps a percentage to 0..100 and treats NaN as unknown", () => {
    expect(ToolProgress.withPercent("x", 150).percentComplete).toBe(100);
    expect(ToolProgress.withPercent("x", -5).percentComplete).toBe(0);
    const nan = new ToolProgress({ message: "x", percentComplete: Number.NaN });
    expect(nan.percentComplete).toBeUndefined();
    expect(nan.isIndeterminate).toBe(true);
  });

  it("ProgressText_Percent_FormatsCorrectly: formats a percentage without decimals", () => {
    expect(ToolProgress.withPercent("x", 50).progressText).toBe("50%");
    expect(ToolProgress.withPercent("x", 33.333).progressText).toBe("33%");
    expect(ToolProgress.withPercent("x", 66.7).progressText).toBe("67%");
  });

  it("ProgressText_Items_FormatsCorrectly: formats item counts as processed/total", () => {
    expect(new ToolProgress({ itemsProcessed: 5, totalItems: 10 }).progressText).toBe("5/10");
    expect(new ToolProgress({ totalItems: 10 }).progressText).toBe("");
  });

  it("Items_CalculatesPercent: the items factory computes the percentage", () => {
    const progress = ToolProgress.items("Indexing", 5, 10);
    expect(progress.message).toBe("Indexing");
    expect(progress.itemsProcessed).toBe(5);
    expect(progress.totalItems).toBe(10);
    expect(progress.percentComplete).toBe(50);
    expect(progress.progressText).toBe("50%");
  });

  it("leaves the percentage unknown for zero total items", () => {
    const progress = ToolProgress.items("Nothing", 0, 0);
    expect(progress.percentComplete).toBeUndefined();
    expect(progress.isIndeterminate).toBe(false);
    expect(progress.progressText).toBe("0/0");
  });

  it("Completed_IsFullProgress: the completed factory is at 100%", () => {
    const done = ToolProgress.completed();
    expect(done.message).toBe("Completed");
    expect(done.percentComplete).toBe(100);
    expect(done.normalizedProgress).toBe(1);
    expect(done.progressText).toBe("100%");
    expect(ToolProgress.completed("All files read").message).toBe("All files read");
  });

  it("creates operation and warning updates", () => {
    const op = ToolProgress.operation("Building", "Compiling user.ts", 40);
    expect(op.currentOperation).toBe("Compiling user.ts");
    expect(op.percentComplete).toBe(40);
    expect(ToolProgress.operation("Building", "Linking").isIndeterminate).toBe(true);
    const warn = ToolProgress.withWarning("Copying", "3 files skipped");
    expect(warn.hasWarning).toBe(true);
    expect(warn.warningMessage).toBe("3 files skipped");
    expect(ToolProgress.message("x").hasWarning).toBe(false);
  });

  it("formats the remaining time in seconds, minutes or hours", () => {
    const text = (ms: number) => new ToolProgress({ estimatedRemainingMs: ms }).remainingText;
    expect(new ToolProgress().remainingText).toBeUndefined();
    expect(text(45_000)).toBe("45s remaining");
    expect(text(0)).toBe("0s remaining");
    expect(text(12 * 60_000)).toBe("12m remaining");
    expect(text(90 * 60_000)).toBe("1.5h remaining");
  });

  it("is immutable and copies with changes", () => {
    const progress = ToolProgress.withPercent("x", 10);
    expect(Object.isFrozen(progress)).toBe(true);
    const next = progress.with({ percentComplete: 20, currentOperation: "step 2" });
    expect(next.percentComplete).toBe(20);
    expect(next.currentOperation).toBe("step 2");
    expect(next.message).toBe("x");
    expect(progress.percentComplete).toBe(10);
  });

  it("serializes to JSON with its display members", () => {
    const progress = new ToolProgress({
      message: "Copying",
      itemsProcessed: 1,
      totalItems: 4,
      estimatedRemainingMs: 30_000,
    });
    expect(JSON.parse(JSON.stringify(progress))).toEqual({
      message: "Copying",
      itemsProcessed: 1,
      totalItems: 4,
      estimatedRemainingMs: 30_000,
      hasWarning: false,
      isIndeterminate: false,
      normalizedProgress: 0.25,
      progressText: "1/4",
      remainingText: "30s remaining",
    });
    expect(ToolProgress.message("m").toJSON()).toEqual({
      message: "m",
      hasWarning: false,
      isIndeterminate: true,
      normalizedProgress: 0,
      progressText: "",
    });
  });
});
