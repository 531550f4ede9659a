import { describe, expect, it } from "vitest";
import { timeOrderedUuid } from "../../src/core/index.js";

const v7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("timeOrderedUuid", () => {
  it("makes version 7 UUIDs whose first 48 bits are the current Unix milliseconds", () => {
    const before = Date.now();
    const id = timeOrderedUuid();
    const after = Date.now();
    expect(id).toMatch(v7);
    const ms = Number.parseInt(id.slice(0, 8) + id.slice(9, 13), 16);
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(after);
  });

  it("makes distinct ids that sort by the millisecond they were made in", async () => {
    const first = Array.from({ length: 500 }, timeOrderedUuid);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = timeOrderedUuid();
    expect(new Set(first).size).toBe(500);
    for (const id of first) expect(id < later).toBe(true);
  });
});
