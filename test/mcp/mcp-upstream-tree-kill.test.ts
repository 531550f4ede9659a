// Every process an upstream started ends with it: a server behind a wrapper (`bash -c`) that
// ignores SIGTERM and a closed stdin, and what it started that ignores SIGTERM too, in a session
// of its own, with an empty environment, or re-parented to init (fixtures/raw-upstream.mjs,
// mode `stubborn`). Checked when the upstream is closed, when the server exits on its own, when
// `aintern mcp` ends with its client, and when a gateway's process exits without closing it.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { McpUpstream } from "../../src/mcp/index.js";
import { cliArgs, eventually, repoRoot } from "./mcp-support.js";

const server = fileURLToPath(new URL("./fixtures/raw-upstream.mjs", import.meta.url));
const exitFixture = fileURLToPath(new URL("./fixtures/exit-with-upstream.ts", import.meta.url));
const dirs: string[] = [];
const upstreams: McpUpstream[] = [];
const gateways: ChildProcess[] = [];
/** Every process a test waited for, with its start time: killed after the tests if left. */
const seen = new Map<number, number>();

const onLinux = process.platform === "linux";

/** A process's start time and whether it has exited (a zombie), or undefined when it is gone. */
function statOf(pid: number): { startTime: number; exited: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { startTime: Number(fields[19]), exited: fields[0] === "Z" || fields[0] === "X" };
  } catch {
    return undefined;
  }
}

/** Whether the process seen as `pid` still runs (not gone, not a zombie, its pid not reused). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = statOf(pid);
  return stat !== undefined && !stat.exited && stat.startTime === seen.get(pid);
}

/** A state folder for one stubborn server, listing `echo` and `die_with_grandchild`. */
async function stateDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "aintern-tree-"));
  dirs.push(dir);
  const tool = (name: string) => ({
    name,
    inputSchema: { type: "object" },
    annotations: { readOnlyHint: true },
  });
  await writeFile(
    join(dir, "tools.json"),
    JSON.stringify([tool("echo"), tool("die_with_grandchild")]),
  );
  return dir;
}

/**
 * `bash -c` running the stubborn server, not exec'ing it (the wrapper stays its parent).
 * `--norc`: bash reads `~/.bashrc` when its input is a socket, as an upstream's is, and what a
 * machine's `.bashrc` runs (here `pyenv rehash`, which waits for a lock a killed run left) is
 * not this test's.
 */
function wrapped(dir: string, mode = "stubborn"): { command: string; args: string[] } {
  return {
    command: "bash",
    args: [
      "--norc",
      "-c",
      `echo $$ > ${dir}/wrapper; ${process.execPath} ${server} ${dir} ${mode}; exit $?`,
    ],
  };
}

/**
 * The pids of the wrapper, the server and its stubborn descendants, once they all run (and the
 * one that forked the orphan has exited), each noted with its start time.
 */
async function treeOf(dir: string): Promise<Record<string, number>> {
  return eventually(async () => {
    const files = await readdir(dir);
    const pid = (prefix: string): number => {
      const file = files.find((f) => f.startsWith(prefix) && /^\d+$/.test(f.slice(prefix.length)));
      if (file === undefined) throw new Error(`no ${prefix} file yet`);
      return Number(file.slice(prefix.length));
    };
    const wrapper = Number(await readFile(join(dir, "wrapper"), "utf8"));
    const tree = {
      wrapper,
      server: pid("pid-"),
      setsid: pid("setsid-"),
      cleared: pid("cleared-"),
      orphan: pid("fork-orphan-"),
    };
    for (const p of Object.values(tree)) {
      const stat = statOf(p);
      if (stat !== undefined && !seen.has(p)) seen.set(p, stat.startTime);
    }
    expect(Object.values(tree).every(running)).toBe(true);
    // Its parent has exited: nothing but its environment ties it to the upstream.
    const forker = statOf(pid("fork-"));
    expect(forker === undefined || forker.exited).toBe(true);
    return tree;
    // 20 s to start: the gateway runs under tsx, then bash, the server and its descendants start.
    // Loaded whole-suite runs (load 5 to 13, beside other files spawning processes) twice missed
    // 10 s, before bash had written its pid; this is a wait for the start, not a check of it.
  }, 20_000);
}

async function expectAllGone(tree: Record<string, number>, withinMs = 5_000): Promise<void> {
  await eventually(() => {
    const left = Object.entries(tree).filter(([, pid]) => running(pid));
    expect(left.map(([name]) => name)).toEqual([]);
  }, withinMs);
}

afterEach(async () => {
  await Promise.all(upstreams.splice(0).map((u) => u.close()));
});

afterAll(async () => {
  for (const gateway of gateways) gateway.kill("SIGKILL");
  for (const pid of seen.keys()) if (running(pid)) process.kill(pid, "SIGKILL");
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe.runIf(onLinux)("an upstream's processes", () => {
  it.each([
    ["all end when it is closed: a wrapper's server ignoring SIGTERM, and what it started", {}],
    // An empty marker marks nothing (any other value would still tie the orphan to the server,
    // which would carry it too).
    ["are found by a marker the configured env cannot replace", { env: { AINTERN_CALL: "" } }],
    // The server exits on its closed stdin, so the one with an empty environment is re-parented
    // to init during the close, before it is killed.
    [
      "are found as the tree was when the close began, also those its exit re-parented",
      { mode: "spawns" },
    ],
  ] as const)(
    "%s",
    async (_title, setup: { env?: Record<string, string>; mode?: "spawns" }) => {
      const dir = await stateDir();
      const upstream = new McpUpstream(
        {
          name: "s",
          ...wrapped(dir, ...(setup.mode === undefined ? [] : [setup.mode])),
          ...(setup.env === undefined ? {} : { env: setup.env }),
        },
        { restartInBackground: false },
      );
      upstreams.push(upstream);
      await upstream.start();
      const tree = await treeOf(dir);
      await upstream.close();
      await expectAllGone(tree);
    },
    30_000,
  );

  it("end when the server exits on its own, before it is started again", async () => {
    const dir = await stateDir();
    const errors: string[] = [];
    const upstream = new McpUpstream(
      { name: "s", ...wrapped(dir) },
      { restartInBackground: false, onError: (error) => errors.push(error.message) },
    );
    upstreams.push(upstream);
    await upstream.start();
    const tree = await treeOf(dir);
    // The server starts one more process (it keeps the server's stdout) and exits.
    await expect(upstream.callTool({ name: "die_with_grandchild" })).rejects.toThrow(/stopped/);
    const grandchild = Number(await readFile(join(dir, "grandchild"), "utf8"));
    seen.set(grandchild, statOf(grandchild)?.startTime ?? -1);
    // Not the one with an empty environment: re-parented to init when the server exited, it no
    // longer shows it came from the server (the limit the README states).
    const { cleared: _, ...findable } = tree;
    await expectAllGone({ ...findable, grandchild });
    expect(errors.join("\n")).toMatch(/Upstream 's' stopped/);
  }, 30_000);

  /** `aintern mcp` over a wrapped stubborn upstream; resolves once the upstream's tree is up. */
  async function gatewayWithUpstream(): Promise<{
    gateway: ChildProcess;
    exited: Promise<unknown>;
    tree: Awaited<ReturnType<typeof treeOf>>;
  }> {
    const dir = await stateDir();
    const { command, args } = wrapped(dir);
    const gateway = spawn(
      process.execPath,
      cliArgs(
        "mcp",
        "--workspace",
        dir,
        "--db",
        "sqlite::memory:",
        "--upstream",
        `${command} ${args[0]} ${args[1]} "${args[2]}"`,
      ),
      { cwd: repoRoot, stdio: ["pipe", "ignore", "ignore"] },
    );
    gateways.push(gateway);
    const exited = new Promise((resolve) => gateway.once("exit", resolve));
    return { gateway, exited, tree: await treeOf(dir) };
  }

  // SIGKILL runs no handler in the gateway: its reaper, a process of its own, ends them.
  it.each([["SIGHUP"], ["SIGTERM"], ["SIGKILL"]] as const)(
    "end when `aintern mcp` gets %s (its terminal or client went away, or it was killed)",
    async (signal) => {
      const { gateway, exited, tree } = await gatewayWithUpstream();
      gateway.kill(signal);
      await exited;
      await expectAllGone(tree);
    },
    30_000,
  );

  it("end when `aintern mcp` ends with its client's stdin", async () => {
    const { gateway, exited, tree } = await gatewayWithUpstream();
    gateway.stdin?.end();
    await exited;
    await expectAllGone(tree);
  }, 30_000);

  it("end when a gateway's process exits without closing the upstream", async () => {
    const dir = await stateDir();
    const { command, args } = wrapped(dir);
    const gateway = spawn(process.execPath, ["--import", "tsx", exitFixture, command, ...args], {
      cwd: repoRoot,
      stdio: ["pipe", "pipe", "inherit"],
    });
    gateways.push(gateway);
    const exited = new Promise((resolve) => gateway.once("exit", resolve));
    const tree = await treeOf(dir);
    gateway.stdin?.write("exit\n");
    expect(await exited).toBe(0);
    await expectAllGone(tree);
  }, 30_000);

  // SIGKILL of the gateway is ended by its reaper: one killed meanwhile is replaced.
  it("end when `aintern mcp` gets SIGKILL after its reaper was killed twice (it is started again)", async () => {
    const { gateway, exited, tree } = await gatewayWithUpstream();
    const reaperOf = (): number | undefined => {
      for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
        try {
          const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
          const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
          const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
          if (cmdline.includes("orphan-reaper-main") && parent === gateway.pid)
            return Number(entry);
        } catch {
          // Gone meanwhile.
        }
      }
      return undefined;
    };
    // Lived past its first second, so it counts as running, then killed by someone.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const first = await eventually(() => {
      const pid = reaperOf();
      expect(pid).toBeDefined();
      return pid!;
    }, 10_000);
    process.kill(first, "SIGKILL");
    const second = await eventually(() => {
      const pid = reaperOf();
      expect(pid).toBeDefined();
      expect(pid).not.toBe(first);
      return pid!;
    }, 10_000);
    // Killed again as it starts: started again all the same, a second later.
    process.kill(second, "SIGKILL");
    await eventually(() => {
      const pid = reaperOf();
      expect(pid).toBeDefined();
      expect([first, second]).not.toContain(pid);
    }, 10_000);
    gateway.kill("SIGKILL");
    await exited;
    // The third reaper may still be loading (under tsx, beside a loaded suite) when the gateway
    // dies: it reads the end of its input, and reaps, only once its script runs.
    await expectAllGone(tree, 15_000);
  }, 60_000);
});
