import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that take longest, slowest first (seconds on Node 20, whole suite at three workers,
 * 2026-11-27, load 4 to 9). They start before all others: vitest's own order takes the durations
 * of the last run from its cache in node_modules/.vite, which .ci/run's `npm ci` removes, so its
 * first run (Node 20, with coverage) orders the files by size, and chaos.test.ts (115 lines, the
 * longest file) comes late; with a stale cache it started 440 s into a 669 s run. A file not
 * listed keeps vitest's order after these; a listed file that no longer exists is ignored.
 */
const slowFirst = [
  "test/store/chaos.test.ts", // 132 s
  "test/mcp/mcp-console.test.ts", // 104 s
  "test/sandbox/process-sandbox.test.ts", // 65 s
  "test/console/cross-process.test.ts", // 64 s
  "test/mcp/mcp-upstream-tree-kill.test.ts", // 60 s
  "test/mcp/mcp-clients.test.ts", // 15 to 46 s
  "test/cli/cli-bad-input.test.ts", // 40 s
  "test/store/tool-call-store.test.ts", // 31 s
  "test/mcp/mcp-upstream-definitions.test.ts", // 31 s
  "test/adapters/adapter-entries.test.ts", // 28 s
  "test/console/mcp-console-browser.test.ts", // 23 s
  "test/shell/command-pattern.property.test.ts", // 23 s
  "test/readme/readme-examples.test.ts", // 22 s
  "test/store/crash-recovery.test.ts", // 22 s
  "test/store/sqlite-audit-write-behind.test.ts", // 20 s
  "test/calls/tool-call-processor-race.test.ts", // 19 s
  "test/cli/mcp-cli-commands.test.ts", // 19 s
  "test/builtin/terminal-execute-tool.test.ts", // 18 s
  "test/store/audit-insert-thread.test.ts", // 18 s
  "test/console/console-browser.test.ts", // 17 s
  "test/cli/audit-follow.test.ts", // 17 s
];

class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification): number => {
      const index = slowFirst.indexOf(relative(file.project.config.root, file.moduleId));
      return index === -1 ? slowFirst.length : index;
    };
    // Array.prototype.sort is stable: unlisted files keep vitest's order among themselves.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

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
    sequence: { sequencer: SlowFirstSequencer },
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
