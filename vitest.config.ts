import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // The JSON report is what .ci/run counts its "N passed, N failed" line from.
    reporters: ["default", ["json", { outputFile: ".tmp/test-results.json" }]],
    coverage: {
      provider: "v8",
      include: ["src/**/*.ts"],
      reporter: ["text-summary"],
      thresholds: {
        lines: 80,
      },
    },
  },
});
