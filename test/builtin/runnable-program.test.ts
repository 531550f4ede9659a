import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertRunnableProgram } from "../../src/builtin/runnable-program.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "aintern-runnable-"));
  await mkdir(join(dir, "bin"));
  await writeFile(join(dir, "bin", "tool"), "#!/bin/sh\n");
  await chmod(join(dir, "bin", "tool"), 0o755);
  await writeFile(join(dir, "bin", "plain"), "not a program\n");
  await chmod(join(dir, "bin", "plain"), 0o644);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(process.platform !== "win32")("assertRunnableProgram", () => {
  it("passes an executable file named by a path, relative ones from the given folder", () => {
    expect(() => assertRunnableProgram(join(dir, "bin", "tool"), "/", undefined)).not.toThrow();
    expect(() => assertRunnableProgram("./bin/tool", dir, undefined)).not.toThrow();
  });

  it("finds a bare name in a folder of PATH, relative folders from the given folder", () => {
    expect(() => assertRunnableProgram("tool", "/", `/nowhere:${join(dir, "bin")}`)).not.toThrow();
    expect(() => assertRunnableProgram("tool", dir, "bin")).not.toThrow();
  });

  it("leaves a bare name to the shell when there is no PATH", () => {
    expect(() => assertRunnableProgram("anything", dir, undefined)).not.toThrow();
  });

  it.each([
    ["a missing path", () => [join(dir, "bin", "missing")], "ENOENT"],
    ["a name on no folder of PATH", () => ["missing", join(dir, "bin")], "ENOENT"],
    ["a file that is not executable", () => [join(dir, "bin", "plain")], "EACCES"],
    ["a folder", () => [join(dir, "bin")], "EACCES"],
    ["a bare name that is a folder on PATH", () => ["bin", dir], "EACCES"],
  ])("refuses %s as spawn would", (_what, named, code) => {
    const [name = "", path] = named();
    let thrown: unknown;
    try {
      assertRunnableProgram(name, dir, path);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as NodeJS.ErrnoException).code).toBe(code);
    expect((thrown as Error).message).toBe(`spawn ${name} ${code}`);
  });
});
