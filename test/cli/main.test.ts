import { access, copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createSampleWorkspace, main } from "../../src/cli/index.js";

function capture() {
  let out = "";
  let err = "";
  const o = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err += String(chunk);
    return true;
  });
  return {
    text: () => ({ out, err }),
    restore: () => {
      o.mockRestore();
      e.mockRestore();
    },
  };
}

describe("aintern command", () => {
  it("prints usage and exits 2 without a command", async () => {
    const io = capture();
    try {
      expect(await main([])).toBe(2);
      expect(io.text().out).toContain("aintern turn <response.json>");
    } finally {
      io.restore();
    }
  });

  it("rejects a bad --approve value and an unknown --format with a clear message", async () => {
    const io = capture();
    try {
      expect(await main(["turn", "x.json", "--approve", "sometimes"])).toBe(2);
      expect(await main(["turn", "x.json", "--format", "cobol"])).toBe(2);
      expect(await main(["turn", "x.json", "--bogus"])).toBe(2);
      expect(io.text().err).toContain("--approve must be ask, all or none");
      expect(io.text().err).toContain("--format must be one of");
    } finally {
      io.restore();
    }
  });

  it("prints help with --help and exits 0", async () => {
    const io = capture();
    try {
      expect(await main(["--help"])).toBe(0);
      expect(io.text().out).toContain("--workspace");
    } finally {
      io.restore();
    }
  });
});

describe("aintern turn", () => {
  it("keeps its default store beside the workspace, and refuses one it did not make", async () => {
    // Second red team, session 23: `--workspace dir/` put the store in the workspace
    // (`dir/.aintern.db`), where a repository could ship one recording calls as approved.
    const home = await mkdtemp(join(tmpdir(), "aintern-main-home-"));
    const previousHome = process.env.AINTERN_HOME;
    process.env.AINTERN_HOME = home;
    const workspace = await createSampleWorkspace();
    const recording = join(import.meta.dirname, "../../examples/recorded/openai-agent-turn.json");
    const io = capture();
    try {
      const args = ["turn", recording, "--approve", "none", "--workspace", `${workspace}/`];
      expect(await main(args)).toBe(0);
      await expect(access(`${workspace}.aintern.db`)).resolves.toBeUndefined();
      await expect(access(join(workspace, ".aintern.db"))).rejects.toThrow();
      // Made by aintern: used again.
      expect(await main(args)).toBe(0);
      // One it did not make (here: the same file name beside another workspace) is refused.
      const other = await createSampleWorkspace();
      await copyFile(`${workspace}.aintern.db`, `${other}.aintern.db`);
      const refused = await main(["turn", recording, "--approve", "none", "--workspace", other]);
      expect(refused).toBe(1);
      expect(io.text().err).toMatch(
        /was not made by aintern for you.*Delete it, or name another store with --db/s,
      );
      await rm(other, { recursive: true, force: true });
      await rm(`${other}.aintern.db`, { force: true });
    } finally {
      io.restore();
      if (previousHome === undefined) delete process.env.AINTERN_HOME;
      else process.env.AINTERN_HOME = previousHome;
      await rm(workspace, { recursive: true, force: true });
      await rm(`${workspace}.aintern.db`, { force: true });
      await rm(home, { recursive: true, force: true });
    }
  });

  it("runs a recorded turn and prints the calls, the messages and the audit rows", async () => {
    const workspace = await createSampleWorkspace();
    const dir = await mkdtemp(join(tmpdir(), "aintern-main-"));
    const recording = join(import.meta.dirname, "../../examples/recorded/openai-agent-turn.json");
    const io = capture();
    try {
      const code = await main([
        "turn",
        recording,
        "--approve",
        "none",
        "--workspace",
        workspace,
        "--db",
        `sqlite:${join(dir, "a.db")}`,
      ]);
      expect(code).toBe(0);
      const { out } = io.text();
      expect(out).toContain("== Messages for the model");
      expect(out).toContain('"tool_call_id": "call_delete_6"');
      expect(out).toMatch(/file-read\s+failed\s+\d+ ms\s+PathOutsideWorkspace/);
    } finally {
      io.restore();
      await rm(workspace, { recursive: true, force: true });
      await rm(dir, { recursive: true, force: true });
    }
  });
});
