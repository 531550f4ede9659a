import { relative } from "node:path";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * Long files that vitest's own order would start late, slowest first (seconds in a whole-suite run
 * on Node 20 at three workers, 2026-11-27, load 4 to 9; in brackets, the file's place by size).
 * They start before all others. vitest orders by the durations of the last run, from its cache in
 * node_modules/.vite, which .ci/run's `npm ci` removes: CI's first run (Node 20, with coverage)
 * orders by file size, largest first, and chaos.test.ts (the longest, 132 s) is 127th of 191, so
 * that run could end on it with the other workers idle. The long files that are also large
 * (mcp-console, process-sandbox, mcp-upstream-tree-kill, tool-call-store) are not listed: both
 * orders start them early, and a run that started all the longest files together (most of them
 * spawning processes) failed tree-kill's 10 s wait for its process tree at load 11 to 13. A file
 * not listed keeps vitest's order after these; a listed file that no longer exists is ignored.
 */
const slowFirst = [
  "test/store/chaos.test.ts", // 132 s (127th)
  "test/console/cross-process.test.ts", // 64 s (114th)
  "test/cli/cli-bad-input.test.ts", // 40 s (170th)
  "test/mcp/mcp-upstream-definitions.test.ts", // 31 s (120th)
  "test/adapters/adapter-entries.test.ts", // 28 s (181st)
  "test/readme/readme-examples.test.ts", // 22 s (171st)
  "test/mcp/mcp-clients.test.ts", // 15 to 46 s (136th)
  "test/calls/tool-call-processor-race.test.ts", // 19 s (130th)
  "test/cli/mcp-cli-commands.test.ts", // 19 s (135th)
  "test/cli/audit-follow.test.ts", // 17 s (125th)
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
