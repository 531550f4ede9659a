// Shared by the CLI tests that run `aintern` in this process: a temporary AINTERN_HOME (where
// `aintern trust` records what it trusts) and a run whose output is captured.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { main } from "../../src/cli/main.js";

/**
 * Points AINTERN_HOME at a new folder for the file's tests, and puts it back afterwards; returns
 * a function giving that folder.
 */
export function useTemporaryAinternHome(): () => string {
  let home: string;
  const previous = process.env.AINTERN_HOME;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), "aintern-trust-home-"));
    process.env.AINTERN_HOME = home;
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.AINTERN_HOME;
    else process.env.AINTERN_HOME = previous;
    await rm(home, { recursive: true, force: true });
  });
  return () => home;
}

/** Runs `aintern <argv>` in process; its exit code and what it wrote to stdout and stderr. */
export async function runCliCaptured(argv: string[]): Promise<{ code: number; output: string }> {
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  let output = "";
  const capture = ((chunk: string | Uint8Array) => {
    output += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    return { code: await main(argv), output };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}
