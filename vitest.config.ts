import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    // Three test files at a time, not vitest's default of one per core less one (one here, on
    // two cores): most files wait on other processes (sandbox workers, MCP servers, chromium,
    // PostgreSQL, crash children). The whole suite on Node 20 took 318 s at three, using 0.89 of
    // the two cores; the same files one at a time add up to 580 s (2026-11-26, load 4 to 14).
    maxWorkers: 3,
    hookTimeout: 30_000,
    // The JSON report is what .ci/run counts its "N passed, N failed" lines from (one file per
    // Node version there, named by AINTERN_TEST_RESULTS).
    reporters: [
      "default",
      ["json", { outputFile: process.env.AINTERN_TEST_RESULTS ?? ".tmp/test-results.json" }],
    ],
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
