// Only `aintern mcp` turns V8's allocation-site pretenuring off (bench/README.md, session 15):
// every other command keeps Node's defaults.
import { beforeEach, describe, expect, it, vi } from "vitest";

const setFlagsFromString = vi.fn();
vi.mock("node:v8", async (importOriginal) => ({
  ...(await importOriginal<typeof import("node:v8")>()),
  setFlagsFromString,
}));

const { tuneGarbageCollectorForServing } = await import("../../src/cli/server-gc-tuning.js");

describe("tuneGarbageCollectorForServing", () => {
  beforeEach(() => setFlagsFromString.mockClear());

  it("turns pretenuring off for `aintern mcp`, whatever its flags", () => {
    tuneGarbageCollectorForServing(["mcp", "--workspace", "."]);
    expect(setFlagsFromString).toHaveBeenCalledExactlyOnceWith("--no-allocation-site-pretenuring");
  });

  it.each([[[]], [["console"]], [["audit", "mcp"]], [["tools"]], [["--help"]], [["MCP"]]])(
    "leaves V8 as it is for %j",
    (argv) => {
      tuneGarbageCollectorForServing(argv);
      expect(setFlagsFromString).not.toHaveBeenCalled();
    },
  );
});
