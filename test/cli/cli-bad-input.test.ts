// aintern doctor and mcp where things go wrong: they report and exit, and never print a password.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliArgs } from "../mcp/mcp-support.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "aintern-doctor-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("aintern doctor on a workspace where .aintern cannot be made", () => {
  it.runIf(existsSync("/proc/self"))(
    "reports the problem and exits instead of hanging",
    async () => {
      const run = promisify(execFile);
      const failure = await run(process.execPath, cliArgs("doctor", "--workspace", "/proc"), {
        timeout: 30_000,
      }).then(
        () => undefined,
        (error: { code?: number; killed?: boolean; stdout?: string; stderr?: string }) => error,
      );
      expect(failure?.killed).toBe(false);
      expect(failure?.code).toBe(1);
      expect(`${failure?.stdout}${failure?.stderr}`).toContain("/proc/.aintern");
    },
    40_000,
  );
});

describe("aintern doctor and a database URL with a password", () => {
  it("never prints the password, whether the store opens or not", async () => {
    const run = promisify(execFile);
    const url = "postgres://aintern:hunter2secret@127.0.0.1:1/none";
    const failure = await run(
      process.execPath,
      cliArgs("doctor", "--workspace", dir, "--db", url),
      { timeout: 30_000 },
    ).then(
      () => undefined,
      (error: { stdout?: string; stderr?: string }) => error,
    );
    const printed = `${failure?.stdout}${failure?.stderr}`;
    expect(printed).toContain("postgres://aintern:***@127.0.0.1:1/none");
    expect(printed).not.toContain("hunter2secret");
  }, 40_000);
});

describe("aintern mcp --token", () => {
  it("refuses an empty or guessable token before serving anything", async () => {
    const run = promisify(execFile);
    for (const token of ["--token=", "--token=short"]) {
      const failure = await run(
        process.execPath,
        cliArgs("mcp", "--workspace", dir, "--http", "127.0.0.1:0", token),
        { timeout: 30_000 },
      ).then(
        () => undefined,
        (error: { code?: number; stderr?: string }) => error,
      );
      expect(failure?.code, token).toBe(2);
      expect(failure?.stderr, token).toMatch(/--token is (empty|shorter than 16)/);
    }
  }, 60_000);
});
