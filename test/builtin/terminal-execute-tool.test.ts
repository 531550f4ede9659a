import { mkdir, readFile, stat, writeFile } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BuiltinToolErrorCode,
  type TerminalExecuteData,
  TerminalExecuteTool,
  terminalExecuteTool,
} from "../../src/builtin/index.js";
import type { ToolProgress } from "../../src/context/index.js";
import { RiskLevel, ToolErrorCode } from "../../src/core/index.js";
import { createWorkspace, run, type Workspace } from "./workspace-fixture.js";

let ws: Workspace;
beforeEach(async () => {
  ws = await createWorkspace();
});
afterEach(async () => {
  await ws.remove();
});

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

// Signal 0 still finds a killed process until it is reaped, and an orphan is reaped by PID 1,
// which a loaded machine delays by seconds (a 2 s wait failed once at load 10): the waits are
// wide, and end as soon as the process is gone.
const goneWaitMs = 10_000;

/** Waits up to `ms` for the process group to disappear; true when it did. */
async function groupGone(pgid: number, ms = goneWaitMs): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (!groupAlive(pgid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !groupAlive(pgid);
}

/** Waits up to `ms` for a process to disappear; true when it did. */
async function processGone(pid: number, ms = goneWaitMs): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const data = (result: { data: unknown }) => result.data as TerminalExecuteData;
const firstLinePid = (result: { data: unknown }) =>
  Number.parseInt(data(result).stdout.split("\n")[0] as string, 10);

describe("terminal-execute", () => {
  it("runs a command in the workspace and returns its output and exit code", async () => {
    const result = await run(terminalExecuteTool, ws.root, { command: "echo hello; pwd" });
    expect(result.success).toBe(true);
    expect(data(result)).toMatchObject({
      command: "echo hello; pwd",
      cwd: ".",
      exitCode: 0,
      stdout: `hello\n${ws.root}\n`,
      stderr: "",
      truncated: false,
      timedOut: false,
    });
    expect(result.metadata?.exitCode).toBe(0);
    expect(result.artifacts[0]).toMatchObject({
      type: "output",
      path: "terminal",
      size: 6 + ws.root.length + 1,
    });
  });

  it("reports a non-zero exit as a failure that keeps the output and the code", async () => {
    const result = await run(terminalExecuteTool, ws.root, {
      command: "echo out; echo err >&2; exit 3",
    });
    expect(result.success).toBe(false);
    expect(result.errorCode).toBe(BuiltinToolErrorCode.CommandFailed);
    expect(result.error).toContain("exited with code 3");
    expect(data(result)).toMatchObject({ exitCode: 3, stdout: "out\n", stderr: "err\n" });
    expect(result.metadata?.exitCode).toBe(3);
  });

  it("reports a command ended by a signal", async () => {
    const result = await run(terminalExecuteTool, ws.root, { command: "kill -TERM $$" });
    expect(result.errorCode).toBe(BuiltinToolErrorCode.CommandFailed);
    expect(data(result).signal).toBe("SIGTERM");
    expect(result.metadata?.exitCode).toBeNull();
  });

  it("runs in a subdirectory given as cwd", async () => {
    await mkdir(ws.path("sub"));
    const result = await run(terminalExecuteTool, ws.root, { command: "pwd", cwd: "sub" });
    expect(data(result).stdout).toBe(`${ws.path("sub")}\n`);
    expect(data(result).cwd).toBe("sub");
  });

  it("fails clearly for a cwd that is missing or not a directory", async () => {
    await ws.write({ "f.txt": "" });
    const missing = await run(terminalExecuteTool, ws.root, { command: "pwd", cwd: "nope" });
    expect(missing.errorCode).toBe(ToolErrorCode.PathNotFound);
    const file = await run(terminalExecuteTool, ws.root, { command: "pwd", cwd: "f.txt" });
    expect(file.errorCode).toBe(BuiltinToolErrorCode.WrongEntryType);
  });

  it("caps stdout plus stderr at maxOutputBytes and drains the rest", async () => {
    const tool = new TerminalExecuteTool({ maxOutputBytes: 1000 });
    const result = await run(tool, ws.root, {
      command: "head -c 600 /dev/zero | tr '\\0' e >&2; head -c 100000 /dev/zero | tr '\\0' o",
    });
    expect(result.success).toBe(true);
    // Whichever pipe is read first, stderr keeps up to half the cap and stdout the rest.
    expect(data(result).stderr).toBe("e".repeat(500));
    expect(data(result).stdout).toBe("o".repeat(500));
    expect(data(result)).toMatchObject({ truncated: true, totalOutputBytes: 100_600 });
    expect(data(result).note).toMatch(/cut at 1000 bytes of 100600/);
  });

  it("keeps a short error whole when stdout floods, whichever pipe is read first", async () => {
    const tool = new TerminalExecuteTool({ maxOutputBytes: 1000 });
    for (const order of ["err-first", "out-first"]) {
      const command =
        order === "err-first"
          ? "echo 'fatal: no such file' >&2; head -c 100000 /dev/zero | tr '\\0' o"
          : "head -c 100000 /dev/zero | tr '\\0' o; echo 'fatal: no such file' >&2";
      const result = await run(tool, ws.root, { command });
      expect(data(result).stderr).toBe("fatal: no such file\n");
      expect(data(result).stdout).toBe("o".repeat(1000 - "fatal: no such file\n".length));
      expect(data(result).truncated).toBe(true);
    }
  });

  it("gives stdout the whole cap when stderr is empty", async () => {
    const tool = new TerminalExecuteTool({ maxOutputBytes: 1000 });
    const result = await run(tool, ws.root, {
      command: "head -c 5000 /dev/zero | tr '\\0' o",
    });
    expect(data(result).stdout).toBe("o".repeat(1000));
    expect(data(result).stderr).toBe("");
  });

  it("caps output at 1 MB by default", async () => {
    const result = await run(terminalExecuteTool, ws.root, {
      command: "head -c 3000000 /dev/zero | tr '\\0' y",
    });
    expect(data(result).stdout.length).toBe(1024 * 1024);
    expect(data(result).truncated).toBe(true);
  });

  it("kills the whole process group on timeout and leaves no process", async () => {
    const started = performance.now();
    const result = await run(terminalExecuteTool, ws.root, {
      command: "echo $$; sleep 30 & sleep 30",
      timeoutMs: 300,
    });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.errorCode).toBe(ToolErrorCode.Timeout);
    expect(data(result).timedOut).toBe(true);
    const pgid = firstLinePid(result);
    expect(pgid).toBeGreaterThan(1);
    expect(await groupGone(pgid)).toBe(true);
  });

  it("kills the process group when the caller aborts, as a cancellation", async () => {
    const controller = new AbortController();
    const progress: ToolProgress[] = [];
    setTimeout(() => controller.abort(), 300);
    const started = performance.now();
    const result = await run(
      terminalExecuteTool,
      ws.root,
      { command: "echo $$; sleep 30 & sleep 30" },
      { signal: controller.signal, progress },
    );
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
    const pgid = Number.parseInt(progress[0]?.currentOperation ?? "", 10);
    expect(pgid).toBeGreaterThan(1);
    expect(await groupGone(pgid)).toBe(true);
  });

  it("ends background processes the command leaves behind", async () => {
    const started = performance.now();
    const result = await run(terminalExecuteTool, ws.root, { command: "echo $$; sleep 30 &" });
    expect(performance.now() - started).toBeLessThan(5000);
    expect(result.success).toBe(true);
    expect(await groupGone(firstLinePid(result))).toBe(true);
  });

  it.each([
    [
      "while the shell still runs",
      "setsid sh -c 'echo $$ > escaped.pid; exec sleep 999' & sleep 999",
    ],
    [
      "after the shell exited",
      "(setsid sh -c 'echo $$ > escaped.pid; exec sleep 999' &); while [ ! -s escaped.pid ]; do :; done",
    ],
    [
      "with a cleared environment",
      "env -i setsid sh -c 'echo $$ > escaped.pid; exec sleep 999' & sleep 999",
    ],
  ])(
    "ends on time and leaves no process when one left the group and holds the output (%s)",
    async (_when, command) => {
      const started = performance.now();
      const result = await run(terminalExecuteTool, ws.root, { command, timeoutMs: 1000 });
      expect(performance.now() - started).toBeLessThan(1000 + 500 + 1000);
      expect([ToolErrorCode.Timeout, undefined]).toContain(result.errorCode);
      const escaped = Number.parseInt(await readFile(ws.path("escaped.pid"), "utf8"), 10);
      expect(escaped).toBeGreaterThan(1);
      expect(await processGone(escaped)).toBe(true);
    },
  );

  it.each([
    [
      "its output redirected away",
      "setsid sh -c 'echo $$ > escaped.pid; exec sleep 999' >/dev/null 2>&1 &",
    ],
    ["its output closed", "setsid sh -c 'echo $$ > escaped.pid; exec sleep 999' >&- 2>&- &"],
  ])(
    "leaves no process when one left the group with %s and the command ended at once",
    async (_how, command) => {
      // Nothing holds the output open: the call ends as soon as the shell does, and what it left
      // in a session of its own ends with it, found by its marker.
      const result = await run(terminalExecuteTool, ws.root, {
        command: `${command} while [ ! -s escaped.pid ]; do :; done`,
      });
      expect(result.success).toBe(true);
      const escaped = Number.parseInt(await readFile(ws.path("escaped.pid"), "utf8"), 10);
      expect(escaped).toBeGreaterThan(1);
      expect(await processGone(escaped)).toBe(true);
    },
  );

  it("reports progress while the command writes output", async () => {
    const progress: ToolProgress[] = [];
    await run(
      terminalExecuteTool,
      ws.root,
      { command: "for i in 1 2 3; do echo line$i; sleep 0.6; done" },
      { progress },
    );
    expect(progress.length).toBeGreaterThanOrEqual(2);
    expect(progress[0]?.currentOperation).toBe("line1");
  });

  it("closes stdin so a command waiting for input ends", async () => {
    const result = await run(terminalExecuteTool, ws.root, { command: "cat; echo done" });
    expect(data(result).stdout).toBe("done\n");
  });
});

describe("terminal-execute definition", () => {
  it("asks for process isolation and names where a child process finds it", async () => {
    expect(terminalExecuteTool.isolation).toBe("process");
    const source = terminalExecuteTool.source;
    expect(source?.exportName).toBe("terminalExecuteTool");
    expect(source?.module).toMatch(/^file:.*builtin\/index\.(ts|js)$/);
    const loaded = (await import(source?.module as string)) as Record<string, unknown>;
    expect(loaded.terminalExecuteTool).toBeInstanceOf(TerminalExecuteTool);
  });

  it("gives a configured instance no source unless one is given", () => {
    expect(new TerminalExecuteTool({ maxOutputBytes: 10 }).source).toBeUndefined();
    const source = { module: "file:///app/tools.js", exportName: "myTerminal" };
    expect(new TerminalExecuteTool({ maxOutputBytes: 10, source }).source).toBe(source);
    expect(new TerminalExecuteTool().source).toEqual(terminalExecuteTool.source);
  });

  it("runs commands with the configured shell and environment", async () => {
    const tool = new TerminalExecuteTool({
      shell: "/bin/bash",
      env: { GREETING: "hi", PATH: process.env.PATH ?? "" },
    });
    const result = await run(tool, ws.root, { command: 'echo "$GREETING $BASH_VERSION"' });
    expect(data(result).stdout).toMatch(/^hi \d/);
  });

  describe("the commands' environment", () => {
    const secrets = {
      OPENAI_API_KEY: "sk-test-terminal-123",
      AINTERN_CONSOLE_TOKEN: "console-secret-terminal",
      MY_DB_PASSWORD: "hunter2-terminal",
    };
    const saved: Record<string, string | undefined> = {};
    beforeEach(() => {
      for (const [name, value] of Object.entries(secrets)) {
        saved[name] = process.env[name];
        process.env[name] = value;
      }
    });
    afterEach(() => {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    });

    it.each([["env"], ["printenv"], ["export -p"], ["cat /proc/self/environ | tr '\\0' '\\n'"]])(
      "'%s' shows none of the server's secrets",
      async (command) => {
        const result = await run(terminalExecuteTool, ws.root, { command });
        expect(result.success).toBe(true);
        const out = data(result).stdout;
        expect(out).toContain("PATH=");
        for (const [name, value] of Object.entries(secrets)) {
          expect(out).not.toContain(name);
          expect(out).not.toContain(value);
        }
      },
    );

    it("keeps the harmless variables programs need (PATH, HOME, LANG, LC_*)", async () => {
      const previous = process.env.LC_TERMINAL_TEST;
      process.env.LC_TERMINAL_TEST = "C.UTF-8";
      try {
        const result = await run(terminalExecuteTool, ws.root, {
          command: 'printf "%s|%s|%s" "$PATH" "$HOME" "$LC_TERMINAL_TEST"',
        });
        expect(data(result).stdout).toBe(`${process.env.PATH}|${process.env.HOME ?? ""}|C.UTF-8`);
      } finally {
        if (previous === undefined) delete process.env.LC_TERMINAL_TEST;
        else process.env.LC_TERMINAL_TEST = previous;
      }
    });

    it("passes the host variables named in passEnv, and adds env", async () => {
      const tool = new TerminalExecuteTool({
        passEnv: ["MY_DB_PASSWORD"],
        env: { GREETING: "hi" },
      });
      const result = await run(tool, ws.root, { command: "env" });
      const out = data(result).stdout;
      expect(out).toContain("MY_DB_PASSWORD=hunter2-terminal");
      expect(out).toContain("GREETING=hi");
      expect(out).not.toContain("sk-test-terminal-123");
      expect(out).not.toContain("console-secret-terminal");
    });
  });

  describe("git", () => {
    /** A folder with the files that make git take it for a bare repository, and a config. */
    async function lookalikeRepository(folder: string, config: string): Promise<void> {
      await mkdir(`${ws.root}/${folder}/objects/info`, { recursive: true });
      await mkdir(`${ws.root}/${folder}/refs/heads`, { recursive: true });
      await writeFile(`${ws.root}/${folder}/HEAD`, "ref: refs/heads/main\n");
      await writeFile(`${ws.root}/${folder}/config`, config);
    }

    it("does not take a folder the model wrote for a repository, so its config runs nothing", async () => {
      // Plain files under an unprotected name: git status inside the folder found it as an
      // implicit bare repository and ran its core.fsmonitor (and core.worktree took the parent).
      await lookalikeRepository(
        "gitdir",
        "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = ..\n\tfsmonitor = touch ran-fsmonitor; false\n\tpager = touch ran-pager; cat\n",
      );
      for (const cwd of ["gitdir", "gitdir/objects/info"]) {
        const result = await run(terminalExecuteTool, ws.root, {
          command: "git status; git log -1; git -p diff",
          cwd,
        });
        expect(data(result).stderr).toContain("safe.bareRepository");
      }
      await expect(stat(`${ws.root}/gitdir/ran-fsmonitor`)).rejects.toThrow();
      await expect(stat(`${ws.root}/ran-fsmonitor`)).rejects.toThrow();
      await expect(stat(`${ws.root}/gitdir/ran-pager`)).rejects.toThrow();
    });

    it("still works in the workspace's own repository, and keeps configuration the host passes", async () => {
      const tool = new TerminalExecuteTool({
        env: { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "Ada" },
      });
      const result = await run(tool, ws.root, {
        command: "git init -q . && git status --porcelain && git config user.name",
      });
      expect(result.success).toBe(true);
      expect(data(result).stdout.trim().split("\n").at(-1)).toBe("Ada");
      const safety = await run(tool, ws.root, { command: "git config safe.bareRepository" });
      expect(data(safety).stdout.trim()).toBe("explicit");
    });
  });

  it("is Medium by default and takes its effective risk from the command", () => {
    expect(terminalExecuteTool.defaultRiskLevel).toBe(RiskLevel.Medium);
    expect(terminalExecuteTool.getEffectiveRiskLevel({ command: "ls -la" })).toBe(RiskLevel.Low);
    expect(terminalExecuteTool.getEffectiveRiskLevel({ command: "npm install" })).toBe(
      RiskLevel.Medium,
    );
    expect(terminalExecuteTool.getEffectiveRiskLevel({ command: "rm -rf /" })).toBe(
      RiskLevel.Critical,
    );
    expect(terminalExecuteTool.getEffectiveRiskLevel({})).toBe(RiskLevel.High);
  });

  it("summarises the command and its directory", () => {
    expect(terminalExecuteTool.getExecutionSummary({ command: "npm test" })).toBe("Run `npm test`");
    expect(
      terminalExecuteTool.getExecutionSummary({ command: "npm test", cwd: "packages/core" }),
    ).toBe("Run `npm test` in 'packages/core'");
  });
});
