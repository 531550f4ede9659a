// A terminal command's processes are known before any of it runs: the shell waits as it starts,
// its output sockets are read and listed, and only then is it let run as `SHELL -c COMMAND`,
// through a socket only its owner holds. A command that leaves for a session of its own, drops
// its marker and exits at once is then still found by the output it holds, however late its
// owner got to look.
import { spawn, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, copyFile, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runShellCommand } from "../../src/builtin/run-shell-command.js";
import { eventually } from "../mcp/mcp-support.js";
import { processesWith } from "../sandbox/process-helpers.js";

const slowOwner = fileURLToPath(
  new URL("./fixtures/slow-after-command-starts.ts", import.meta.url),
);
let dir = "";
const left: number[] = [];

/** `runShellCommand` of `command` in the test's folder, with `options` on top. */
function run(
  command: string,
  options: Partial<Parameters<typeof runShellCommand>[0]> = {},
): ReturnType<typeof runShellCommand> {
  return runShellCommand({
    command,
    cwd: dir,
    maxOutputBytes: 1024,
    signal: new AbortController().signal,
    ...options,
  });
}

/** The pids of the children of `parent` (from `/proc/<pid>/stat`). */
function childrenOf(parent: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "latin1");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === parent) {
        children.push(Number(entry));
      }
    } catch {
      // Gone.
    }
  }
  return children;
}

/**
 * Runs `command` in a process that waits 300 ms for a core right after the spawn; with
 * `signalChildren`, sends that signal to its children over and over meanwhile (as another
 * command of the same user could).
 */
async function runWithSlowOwner(
  command: string,
  signalChildren?: NodeJS.Signals,
): Promise<{ exitCode?: number; pid?: number }> {
  const child = spawn(process.execPath, ["--import", "tsx", slowOwner, command, dir], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const done = new Promise((resolve) => child.once("exit", resolve));
  if (signalChildren !== undefined) {
    void (async () => {
      let ended = false;
      void done.then(() => {
        ended = true;
      });
      while (!ended) {
        for (const pid of childrenOf(child.pid!)) {
          try {
            process.kill(pid, signalChildren);
          } catch {
            // Gone.
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    })();
  }
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString("utf8");
  });
  const code = await new Promise((resolve) => child.once("close", resolve));
  expect(code).toBe(0);
  return JSON.parse(out) as { exitCode?: number; pid?: number };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "aintern-start-"));
});

afterAll(async () => {
  for (const pid of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(process.platform === "linux")("a terminal command as it starts", () => {
  it.each([
    ["its marker removed", "env -u AINTERN_CALL", undefined],
    ["its marker emptied", "env AINTERN_CALL=", undefined],
    ["its environment cleared", "env -i", undefined],
    // Another process cannot let the waiting shell run early either.
    ["its marker removed, SIGCONT sent to the waiting shell", "env -u AINTERN_CALL", "SIGCONT"],
  ] as const)(
    "kills what left for a session of its own with %s, though the shell exited before its owner looked",
    async (_how, prefix, signalChildren) => {
      const tag = `AINTERN_ESCAPE_TAG=${randomUUID()}`;
      const outcome = await runWithSlowOwner(
        `${prefix} ${tag} setsid sleep 300 & exit 0`,
        signalChildren,
      );
      expect(outcome.exitCode).toBe(0);
      await eventually(() => {
        const found = processesWith(tag);
        left.push(...found);
        expect(found).toEqual([]);
      }, 5_000);
    },
    30_000,
  );

  it("passes on every environment variable to a shell that keeps them (bash)", async () => {
    const outcome = await run('env | grep -E "^(FOO-BAR|spring[.]profile)=" | sort', {
      shell: "/bin/bash",
      env: { "FOO-BAR": "1", "spring.profile": "dev", PATH: process.env.PATH ?? "" },
    });
    expect(outcome.stdout).toBe("FOO-BAR=1\nspring.profile=dev\n");
  });

  it("finds a shell named by a relative path in the command's folder", async () => {
    await copyFile("/bin/bash", join(dir, "mysh"));
    await chmod(join(dir, "mysh"), 0o755);
    const outcome = await run('echo "$0 $BASH_VERSION"', { shell: "./mysh" });
    expect(outcome.stdout).toMatch(/^\.\/mysh \d/);
  });

  it("runs the command as `SHELL -c COMMAND`: the same $0, arguments, pid and exit code", async () => {
    const outcome = await run('echo "$0|$#|$$"; exit 7');
    expect(outcome.stdout).toBe(`/bin/sh|0|${outcome.pid}\n`);
    expect(outcome.exitCode).toBe(7);
    const bash = await run('echo "$0|$#|$$"; [ -n "$BASH_VERSION" ] && echo bash', {
      shell: "/bin/bash",
    });
    expect(bash.stdout).toBe(`/bin/bash|0|${bash.pid}\nbash\n`);
  });

  it.each([
    ["a missing path", () => join(dir, "no-such-shell"), /ENOENT/],
    ["a name on no folder of PATH", () => "no-such-shell", /ENOENT/],
    ["a folder", () => dir, /EACCES/],
  ])(
    "reports a shell that cannot run (%s) as an error, not as the command's output",
    async (_what, shell, error) => {
      await expect(run("true", { shell: shell() })).rejects.toThrow(error);
    },
  );

  it("leaves the command's variables as they were, whatever their names", async () => {
    const outcome = await run('echo "$go|$REPLY|$SHLVL"', {
      shell: "/bin/bash",
      env: { go: "stay", REPLY: "kept", SHLVL: "4", PATH: process.env.PATH ?? "" },
    });
    const plain = spawnSync("/bin/bash", ["-c", 'echo "$go|$REPLY|$SHLVL"'], {
      env: { go: "stay", REPLY: "kept", SHLVL: "4", PATH: process.env.PATH ?? "" },
      encoding: "utf8",
    });
    expect(outcome.stdout).toBe(plain.stdout);
    expect(outcome.stdout).toBe("stay|kept|5\n");
  });

  it("runs nothing of a command whose call was cancelled before it started", async () => {
    const controller = new AbortController();
    controller.abort();
    const outcome = await run("echo ran > ran.txt", { signal: controller.signal });
    expect(outcome.aborted).toBe(true);
    expect(existsSync(join(dir, "ran.txt"))).toBe(false);
  });
});
