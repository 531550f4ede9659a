// Symbolic links in a cloned repository must not get past the trust check: a link inside the
// repository that leads out of it is outside (workspace, store), and a configuration trusted in
// one project and linked from another is not trusted there.
import {
  access,
  mkdir,
  mkdtemp,
  readFile,
  realpath,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isTrustedConfig, UntrustedConfigError } from "../../src/cli/config-trust.js";
import { openMcpRuntime, readMcpConfig } from "../../src/cli/mcp-runtime.js";
import { runCliCaptured, useTemporaryAinternHome } from "./cli-in-process.js";

let root: string;
const previousCwd = process.cwd();

const home = useTemporaryAinternHome();

afterEach(async () => {
  process.chdir(previousCwd);
  if (root !== undefined) await rm(root, { recursive: true, force: true });
});

/** A fresh folder holding `victim/` (outside the repository, with a secret) and `repo/`. */
async function layout(): Promise<{ victim: string; repo: string }> {
  root = await realpath(await mkdtemp(join(tmpdir(), "aintern-symlinks-")));
  const victim = join(root, "victim");
  const repo = join(root, "repo");
  await mkdir(victim);
  await mkdir(repo);
  await writeFile(join(victim, "id_rsa"), "PRIVATE KEY");
  return { victim, repo };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

const cli = runCliCaptured;

describe("a workspace setting through a symbolic link", () => {
  it("that leads out of the repository moves the workspace: refused until trusted", async () => {
    const { victim, repo } = await layout();
    await symlink(victim, join(repo, "escape"));
    await writeFile(join(repo, "aintern.config.json"), JSON.stringify({ workspace: "escape" }));
    process.chdir(repo); // no --workspace: the configuration found in the current directory
    const opening = openMcpRuntime({ db: "sqlite::memory:" });
    await expect(opening).rejects.toBeInstanceOf(UntrustedConfigError);
    await expect(opening).rejects.toThrow(
      `moves the workspace to ${join(repo, "escape")} (really ${victim})`,
    );
    expect((await cli(["doctor"])).code).not.toBe(0);
    expect(await exists(join(victim, ".aintern"))).toBe(false);

    // Trusted, it is used as written: the workspace is the link's target.
    expect((await cli(["trust"])).code).toBe(0);
    const runtime = await openMcpRuntime({ db: "sqlite::memory:" });
    try {
      expect(runtime.workspacePath).toBe(victim);
    } finally {
      await runtime.close();
    }
  });

  it("that does not exist yet is judged by its nearest existing folder; a dangling link is outside", async () => {
    const { victim, repo } = await layout();
    await symlink(victim, join(repo, "escape"));
    await symlink(join(root, "not-there", "dir"), join(repo, "dangling"));
    await mkdir(join(repo, "src"));
    process.chdir(repo);
    for (const workspace of ["escape/new/folder", "dangling", "dangling/sub", "src/../escape"]) {
      await writeFile(join(repo, "aintern.config.json"), JSON.stringify({ workspace }));
      await expect(readMcpConfig({}), workspace).rejects.toThrow(/moves the workspace/);
    }
    // Inside for real: no trust needed (a folder of the repository, or one not made yet).
    for (const workspace of ["src", "src/new", "."]) {
      await writeFile(join(repo, "aintern.config.json"), JSON.stringify({ workspace }));
      await expect(readMcpConfig({}), workspace).resolves.toMatchObject({
        workspace: expect.any(String),
      });
    }
    const runtime = await openMcpRuntime({ db: "sqlite::memory:" });
    try {
      expect(runtime.workspacePath).toBe(repo);
    } finally {
      await runtime.close();
    }
  });
});

describe("the default store through a symbolic link", () => {
  it("is refused when .aintern leads out of the workspace, and nothing is written there", async () => {
    const { victim, repo } = await layout();
    await symlink(victim, join(repo, ".aintern"));
    const opening = openMcpRuntime({ workspace: repo });
    await expect(opening).rejects.toMatchObject({ code: "STORE_OUTSIDE_WORKSPACE" });
    await expect(opening).rejects.toThrow(/leads out of the workspace.*--db/);
    expect(await exists(join(victim, "audit.db"))).toBe(false);
    expect((await cli(["doctor", "--workspace", repo])).code).not.toBe(0);
    expect(await exists(join(victim, "audit.db"))).toBe(false);
  });

  it("is refused when .aintern/audit.db links to another project's store", async () => {
    const { victim, repo } = await layout();
    await mkdir(join(repo, ".aintern"));
    await symlink(join(victim, "audit.db"), join(repo, ".aintern", "audit.db"));
    await expect(openMcpRuntime({ workspace: repo })).rejects.toMatchObject({
      code: "STORE_OUTSIDE_WORKSPACE",
    });
    expect(await exists(join(victim, "audit.db"))).toBe(false);
  });
});

describe("a configuration trusted in one project and linked from another", () => {
  it("is not trusted in the other, and the other's module does not run", async () => {
    const { repo: projA } = await layout();
    const projB = join(root, "projB");
    await mkdir(projB);
    const marker = join(root, "PWNED");
    await writeFile(
      join(projA, "aintern.config.json"),
      JSON.stringify({ tools: ["builtin", "./my-tools.mjs"] }),
    );
    await writeFile(join(projA, "my-tools.mjs"), "export default [];\n");
    await writeFile(
      join(projB, "my-tools.mjs"),
      `import fs from "node:fs"; fs.writeFileSync(${JSON.stringify(marker)}, "ran"); export default [];\n`,
    );
    await symlink("../repo/aintern.config.json", join(projB, "aintern.config.json"));
    expect((await cli(["trust", "--workspace", projA])).code).toBe(0);
    expect(await isTrustedConfig(join(projA, "aintern.config.json"))).toBe(true);

    const reading = readMcpConfig({ workspace: projB });
    await expect(reading).rejects.toBeInstanceOf(UntrustedConfigError);
    await expect(reading).rejects.toThrow(/loads tool modules \(.*projB\/my-tools\.mjs\)/);
    expect((await cli(["doctor", "--workspace", projB])).code).not.toBe(0);
    process.chdir(projB); // plain `aintern doctor` in B, as in the report
    expect((await cli(["doctor"])).code).not.toBe(0);
    expect(await exists(marker)).toBe(false);

    // Trusted in B too (the user read what it loads there, B's module named in full), it runs.
    const trusted = await cli(["trust"]);
    expect(trusted.code).toBe(0);
    expect(trusted.output).toContain(join(projB, "my-tools.mjs"));
    expect(trusted.output).toContain(`a link to ${join(projA, "aintern.config.json")}`);
    const config = await readMcpConfig({});
    expect(config.tools).toEqual(["builtin", join(projB, "my-tools.mjs")]);
    // A is still trusted, with its own module.
    process.chdir(projA);
    expect((await readMcpConfig({})).tools).toEqual(["builtin", join(projA, "my-tools.mjs")]);
  });

  it("reached through a linked folder is the folder it really is in: trusted, with that folder's paths", async () => {
    const { repo: projA } = await layout();
    const projB = join(root, "projB");
    await mkdir(projB);
    await writeFile(
      join(projA, "aintern.config.json"),
      JSON.stringify({ tools: ["builtin", "./my-tools.mjs"] }),
    );
    expect((await cli(["trust", "--workspace", projA])).code).toBe(0);
    await symlink("../repo", join(projB, "linked"));
    const config = await readMcpConfig({ workspace: join(projB, "linked") });
    expect(config.file).toBe(join(projA, "aintern.config.json"));
    expect(config.tools).toEqual(["builtin", join(projA, "my-tools.mjs")]);
    expect(JSON.parse(await readFile(join(home(), "trusted-configs.json"), "utf8"))).toHaveProperty(
      [join(projA, "aintern.config.json")],
    );
  });
});
