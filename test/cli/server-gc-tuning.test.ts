// `aintern mcp` turns off V8's allocation-site pretenuring in its own process (see
// src/cli/server-gc-tuning.ts). Observed with `--trace-pretenuring-statistics`: V8 prints its
// pretenuring decisions ("pretenuring: ...") at each scavenge only while pretenuring is on. The
// built executable's own test is in test/package/built-package.test.ts.

import { execFile } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const here = dirname(fileURLToPath(import.meta.url));
const repository = join(here, "..", "..");
const run = promisify(execFile);

async function pretenuringLines(command: string): Promise<number> {
  const { stdout } = await run(
    process.execPath,
    [
      "--trace-pretenuring-statistics",
      "--import",
      "tsx",
      join(here, "fixtures", "long-lived-allocations.ts"),
      command,
    ],
    { cwd: repository, maxBuffer: 16 * 1024 * 1024 },
  );
  expect(stdout).toContain("kept 400000");
  return stdout.split("\n").filter((line) => line.includes("pretenuring:")).length;
}

describe("the garbage collector's tuning for serving", () => {
  it("turns pretenuring off for mcp, and leaves it on for the other commands", async () => {
    expect(await pretenuringLines("mcp")).toBe(0);
    // The same allocations do get pretenuring decisions when it stays on.
    expect(await pretenuringLines("audit")).toBeGreaterThan(0);
  });
});
