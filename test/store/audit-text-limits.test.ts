import { describe, expect, it } from "vitest";
import { AuditStatus } from "../../src/execution/index.js";
import { defaultMaxDataLength } from "../../src/result/index.js";
import { storeTargets, useStoreTarget } from "./store-targets.js";

describe.each(storeTargets)("long texts in audit rows on $name", ({ make }) => {
  const target = useStoreTarget(make);

  it("caps stored parameters, metadata and the result summary at the model's data limit", async () => {
    const store = await target.place().open();
    const startedAt = new Date();
    const huge = "p".repeat(3_000_000);
    await store.audit.begin({
      executionId: "big-1",
      toolName: "t",
      startedAt,
      parameters: { huge },
    });
    await store.audit.complete({
      executionId: "big-1",
      toolName: "t",
      status: AuditStatus.Completed,
      startedAt,
      completedAt: new Date(),
      metadata: { huge },
      resultSummary: `Success: ${huge}`,
    });
    const entry = await store.audit.get("big-1");
    const texts = [
      (entry?.parameters as { truncatedJson?: string } | null)?.truncatedJson,
      (entry?.metadata as { truncatedJson?: string } | null)?.truncatedJson,
      entry?.resultSummary,
    ];
    for (const text of texts) {
      // Cut JSON is kept as an object: { truncatedJson: "<the first characters>… [truncated …]" }.
      expect(typeof text).toBe("string");
      expect((text as string).length).toBeLessThanOrEqual(defaultMaxDataLength);
      expect(text as string).toMatch(/\[truncated [\d,]+ of 3,000,0\d\d characters\]$/);
    }
    // Small parameters still read back as JSON.
    await store.audit.complete({
      executionId: "small-1",
      toolName: "t",
      status: AuditStatus.Completed,
      startedAt,
      completedAt: new Date(),
      parameters: { path: "a.txt" },
    });
    expect((await store.audit.get("small-1"))?.parameters).toEqual({ path: "a.txt" });
  });
});
