import { describe, expect, it } from "vitest";
import { run } from "../../bench/audit.bench.js";

describe("bench/audit.bench.ts", () => {
  it("measures all five figures on a small run", async () => {
    const figures = await run(40, 1);
    expect(figures.executions).toBe(40);
    for (const value of [
      figures.floorUs,
      figures.naiveUs,
      figures.storeSequentialUs,
      figures.storeInflight64Us,
      figures.storeCompleteOnlyUs,
    ]) {
      expect(value).toBeGreaterThan(0);
    }
    expect(figures.storeSequentialRatio).toBeCloseTo(
      figures.storeSequentialUs / figures.floorUs,
      1,
    );
  }, 60_000);
});
