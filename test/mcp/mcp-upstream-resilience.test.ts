// The gateway's upstreams when they misbehave: one that dies while a process it started holds
// its stdout, one that exits or never answers at start, one that lists a malformed tool, one that
// changes its tools, one that contradicts itself in its annotations. Each is a real child process
// (a raw stdio server, fixtures/raw-upstream.mjs) with short timeouts.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { type McpRuntime, openMcpRuntime } from "../../src/cli/mcp-runtime.js";
import { RiskLevel } from "../../src/core/index.js";
import { McpUpstream, parseMcpConfig, riskFromAnnotations } from "../../src/mcp/index.js";
import { eventually, runCli } from "./mcp-support.js";

const server = fileURLToPath(new URL("./fixtures/raw-upstream.mjs", import.meta.url));
const dirs: string[] = [];
const runtimes: McpRuntime[] = [];
const grandchildren: number[] = [];

const echo = { name: "echo", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } };
const announce = {
  name: "announce",
  inputSchema: { type: "object" },
  annotations: { readOnlyHint: true },
};

/** A state folder for one raw upstream, listing `tools`. */
async function upstreamDir(tools: unknown[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "aintern-upstream-"));
  dirs.push(dir);
  await writeFile(join(dir, "tools.json"), JSON.stringify(tools));
  return dir;
}

function command(dir: string, mode = ""): string {
  return `"${process.execPath}" ${server} ${dir} ${mode}`.trim();
}

/** A runtime on a configuration file (upstreams with short start timeouts), recording its errors. */
async function runtimeWith(
  json: Record<string, unknown>,
  upstreams: string[] = [],
): Promise<{ runtime: McpRuntime; errors: string[] }> {
  const dir = await upstreamDir([]);
  const config = join(dir, "aintern.config.json");
  await writeFile(config, JSON.stringify({ tools: [], ...json }));
  const errors: string[] = [];
  const runtime = await openMcpRuntime({
    config,
    workspace: dir,
    db: "sqlite::memory:",
    upstreams,
    onError: (error) => errors.push(error.message),
  });
  runtimes.push(runtime);
  return { runtime, errors };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function pidsOf(dir: string): Promise<number[]> {
  return (await readdir(dir)).filter((f) => f.startsWith("pid-")).map((f) => Number(f.slice(4)));
}

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
});

afterAll(async () => {
  for (const pid of grandchildren) if (alive(pid)) process.kill(pid, "SIGKILL");
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe("an upstream that dies while a process it started keeps its stdout open", () => {
  it("fails the call in flight at once, naming it, restarts it and reads its tools again", async () => {
    const dir = await upstreamDir([
      echo,
      {
        name: "die_with_grandchild",
        inputSchema: { type: "object" },
        annotations: { readOnlyHint: true },
      },
    ]);
    const { runtime, errors } = await runtimeWith({}, [command(dir)]);
    // The restarted process lists one more tool.
    await writeFile(
      join(dir, "tools.json"),
      JSON.stringify([echo, { name: "added", inputSchema: { type: "object" } }]),
    );
    const started = Date.now();
    const died = await runtime.processor.processCall({
      toolId: "up1_die_with_grandchild",
      parameters: {},
    });
    grandchildren.push(Number(await readFile(join(dir, "grandchild"), "utf8")));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(died.content).toMatch(
      /upstream MCP server 'up1' stopped during the call \(exit code 1\)/,
    );
    expect(errors.join("\n")).toMatch(/Upstream 'up1' stopped \(exit code 1\)/);
    const again = await runtime.processor.processCall({ toolId: "up1_echo", parameters: { a: 1 } });
    expect(again.content).toContain("ran echo");
    await eventually(() => expect(runtime.registry.hasTool("up1_added")).toBe(true), 5_000);
    expect(runtime.registry.hasTool("up1_die_with_grandchild")).toBe(false);
    expect(runtime.upstreams[0]?.restarts).toBe(1);
  }, 15_000);
});

describe("an upstream that does not start", () => {
  it("is named and left out when it exits at start; the other upstreams are served", async () => {
    const bad = await upstreamDir([echo]);
    const good = await upstreamDir([echo]);
    const { runtime, errors } = await runtimeWith({}, [command(bad, "exit"), command(good)]);
    expect(runtime.registry.hasTool("up2_echo")).toBe(true);
    expect(runtime.registry.hasTool("up1_echo")).toBe(false);
    expect(errors.join("\n")).toMatch(/Upstream 'up1' did not start/);
  }, 10_000);

  it("gives up on one that never answers after its start timeout, and stops its process", async () => {
    const silent = await upstreamDir([echo]);
    const started = Date.now();
    const { errors } = await runtimeWith({
      upstreams: {
        mute: { command: process.execPath, args: [server, silent, "silent"], startTimeoutMs: 300 },
      },
    });
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(errors.join("\n")).toMatch(/Upstream 'mute' did not start: no answer within 300 ms/);
    const [pid] = await pidsOf(silent);
    await eventually(() => expect(alive(pid!)).toBe(false), 3_000);
  }, 10_000);

  it("is tried again in the background, and its tools registered when it comes up", async () => {
    const flaky = await upstreamDir([echo]);
    const { runtime, errors } = await runtimeWith({}, [command(flaky, "flaky")]);
    expect(runtime.registry.hasTool("up1_echo")).toBe(false);
    await eventually(() => expect(runtime.registry.hasTool("up1_echo")).toBe(true), 5_000);
    expect(errors.join("\n")).toMatch(/Upstream 'up1' did not start/);
    const result = await runtime.processor.processCall({ toolId: "up1_echo", parameters: {} });
    expect(result.content).toContain("ran echo");
  }, 10_000);

  it("close() stops a server that is still starting", async () => {
    const silent = await upstreamDir([echo]);
    const upstream = new McpUpstream(
      { name: "mute", command: process.execPath, args: [server, silent, "silent"] },
      { restartInBackground: false },
    );
    const starting = upstream.start().catch((error: Error) => error);
    const [pid] = await eventually(async () => {
      const pids = await pidsOf(silent);
      expect(pids).toHaveLength(1);
      return pids;
    }, 5_000);
    await upstream.close();
    expect(await starting).toBeInstanceOf(Error);
    await eventually(() => expect(alive(pid!)).toBe(false), 3_000);
  }, 10_000);

  it("doctor reports it within its start timeout, and warns of a risk key that names no tool", async () => {
    const silent = await upstreamDir([echo]);
    const good = await upstreamDir([echo]);
    const config = join(good, "aintern.config.json");
    await writeFile(
      config,
      JSON.stringify({
        tools: [],
        upstreams: {
          mute: {
            command: process.execPath,
            args: [server, silent, "silent"],
            startTimeoutMs: 300,
          },
          ok: { command: process.execPath, args: [server, good], risk: { ecoh: "High" } },
        },
      }),
    );
    const started = Date.now();
    const { stdout, code } = await runCli([
      "doctor",
      "--config",
      config,
      "--workspace",
      good,
      "--db",
      "sqlite::memory:",
    ]);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      /FAIL\s+upstream\s+mute: Upstream 'mute' did not start: no answer within 300 ms/,
    );
    expect(stdout).toMatch(/ok\s+upstream\s+ok: 1 tools/);
    expect(stdout).toMatch(/warn\s+upstream\s+ok: risk names tools it does not list \('ecoh'\)/);
  }, 10_000);
});

describe("an upstream that lists a malformed tool", () => {
  it("leaves that tool out, saying why, and serves the others", async () => {
    const dir = await upstreamDir([echo, { name: "no_schema", description: "x" }, { name: "" }]);
    const { runtime, errors } = await runtimeWith({}, [command(dir)]);
    expect(runtime.registry.hasTool("up1_echo")).toBe(true);
    expect(runtime.registry.hasTool("up1_no_schema")).toBe(false);
    expect(errors.join("\n")).toMatch(
      /Upstream 'up1': tool 'no_schema' left out: its inputSchema is missing or not an object/,
    );
    expect(errors.join("\n")).toMatch(/tool '#3' left out: it has no name/);
  }, 10_000);
});

describe("an upstream's environment", () => {
  it("is the SDK's safe few variables and the configured ones, never the gateway's secrets", async () => {
    const dir = await upstreamDir([
      echo,
      { name: "env", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    ]);
    process.env.AINTERN_CONSOLE_TOKEN = "console-secret";
    process.env.SOME_API_KEY = "api-secret";
    try {
      const { runtime } = await runtimeWith({
        upstreams: { e: { command: process.execPath, args: [server, dir], env: { GIVEN: "yes" } } },
      });
      const result = await runtime.processor.processCall({ toolId: "e_env", parameters: {} });
      expect(result.content).toContain("GIVEN");
      expect(result.content).toContain("PATH");
      expect(result.content).not.toContain("console-secret");
      expect(result.content).not.toContain("api-secret");
    } finally {
      delete process.env.AINTERN_CONSOLE_TOKEN;
      delete process.env.SOME_API_KEY;
    }
  }, 10_000);
});

describe("an upstream's risk", () => {
  it("takes the higher risk when the annotations contradict each other", () => {
    expect(riskFromAnnotations({ readOnlyHint: true, destructiveHint: true })).toBe(RiskLevel.High);
    expect(riskFromAnnotations({ readOnlyHint: true })).toBe(RiskLevel.Safe);
    expect(riskFromAnnotations({})).toBe(RiskLevel.Medium);
  });

  it("can be set for all its tools (defaultRisk, --upstream-risk) over what they claim", async () => {
    const dir = await upstreamDir([echo, { name: "other", inputSchema: { type: "object" } }]);
    const config = {
      upstreams: {
        d: {
          command: process.execPath,
          args: [server, dir],
          defaultRisk: "High",
          risk: { other: "Low" },
        },
      },
    };
    const { runtime } = await runtimeWith(config);
    expect(runtime.registry.getTool("d_echo")?.defaultRiskLevel).toBe(RiskLevel.High);
    expect(runtime.registry.getTool("d_other")?.defaultRiskLevel).toBe(RiskLevel.Low);

    const cli = await openMcpRuntime({
      workspace: dir,
      db: "sqlite::memory:",
      upstreams: [command(dir)],
      upstreamRisk: RiskLevel.Medium,
    });
    runtimes.push(cli);
    expect(cli.registry.getTool("up1_echo")?.defaultRiskLevel).toBe(RiskLevel.Medium);
  }, 10_000);

  it("keeps an override for a tool named __proto__ (null-prototype maps)", () => {
    const config = parseMcpConfig(
      JSON.parse(
        '{"upstreams":{"x":{"command":"a","risk":{"__proto__":"Critical"},"env":{"__proto__":"v"}}}}',
      ),
    );
    const upstream = config.upstreams?.[0];
    expect(Object.hasOwn(upstream?.risk ?? {}, "__proto__")).toBe(true);
    expect(Object.entries(upstream?.risk ?? {})).toEqual([["__proto__", RiskLevel.Critical]]);
    expect(upstream && "env" in upstream ? Object.entries(upstream.env ?? {}) : []).toEqual([
      ["__proto__", "v"],
    ]);
  });
});

describe("an upstream whose tools change", () => {
  it("re-reads them on tools/list_changed: a read-only tool made destructive asks, its grants revoked", async () => {
    const dir = await upstreamDir([echo, announce]);
    const { runtime, errors } = await runtimeWith({}, [command(dir)]);
    expect(runtime.registry.getTool("up1_echo")?.defaultRiskLevel).toBe(RiskLevel.Safe);
    await runtime.store.permissions.add({
      id: "grant-1",
      toolId: "up1_echo",
      scope: "tool",
      maxRiskLevel: RiskLevel.High,
      createdAt: new Date(),
    });
    const changes: string[] = [];
    runtime.registry.onToolsChanged((event) =>
      changes.push(`${event.changeType} ${event.tool.id}`),
    );
    await writeFile(
      join(dir, "tools.json"),
      JSON.stringify([{ ...echo, annotations: { destructiveHint: true } }, announce]),
    );
    const announced = await runtime.processor.processCall({
      toolId: "up1_announce",
      parameters: {},
    });
    expect(announced.content).toContain("announced");
    await eventually(
      () => expect(runtime.registry.getTool("up1_echo")?.defaultRiskLevel).toBe(RiskLevel.High),
      5_000,
    );
    expect(changes).toContain("Updated up1_echo");
    expect(await runtime.permissions.list({ toolId: "up1_echo" })).toEqual([]);
    expect(errors.join("\n")).toMatch(
      /Upstream 'up1': tool 'up1_echo' changed \(risk Safe -> High\); 1 remembered approval\(s\) of it revoked/,
    );
    // Its next call is judged as High, and the grant (which covered High) no longer applies: with
    // no one to ask, it is not run.
    const denied = await runtime.processor.processCall({ toolId: "up1_echo", parameters: {} });
    expect(denied.content).not.toContain("ran echo");
  }, 10_000);

  it("answers a flood of tools/list_changed with a listing or two, not one each", async () => {
    const flood = { ...announce, name: "flood" };
    const dir = await upstreamDir([echo, flood]);
    const { runtime } = await runtimeWith({}, [command(dir)]);
    const before = (await readFile(join(dir, "listings"), "utf8")).length;
    const flooded = await runtime.processor.processCall({ toolId: "up1_flood", parameters: {} });
    expect(flooded.content).toContain("flooded");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = (await readFile(join(dir, "listings"), "utf8")).length;
    expect(after - before).toBeGreaterThanOrEqual(1);
    expect(after - before).toBeLessThanOrEqual(3);
  }, 10_000);
});
