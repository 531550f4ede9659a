import { afterEach, describe, expect, it, vi } from "vitest";

describe("the executor's lazily loaded telemetry", () => {
  afterEach(() => {
    vi.doUnmock("../../src/telemetry/execution-telemetry.js");
    vi.resetModules();
  });

  it("stays off, with no unhandled rejection, when its module cannot be loaded", async () => {
    vi.resetModules();
    vi.doMock("../../src/telemetry/execution-telemetry.js", () => {
      throw new Error("cannot load @opentelemetry/api");
    });
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on("unhandledRejection", onUnhandled);
    try {
      const { LazyExecutionTelemetry } = await import(
        "../../src/telemetry/lazy-execution-telemetry.js"
      );
      const telemetry = new LazyExecutionTelemetry({});
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
      expect(telemetry.startExecutionSpan("t", "c")).toBeUndefined();
      expect(() => telemetry.recordExecution("t", "completed", 1)).not.toThrow();
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });
});
