import { afterAll, describe, expect, it } from "vitest";
import { ToolExecutionStatus, ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ProcessSandbox } from "../../src/sandbox/process.js";
import * as tools from "../fixtures/sandbox/tools.js";
import { fixtureModule, killSeen, seenPids } from "./process-helpers.js";

const slowStart = new URL("../fixtures/sandbox/slow-start.ts", import.meta.url).href;

describe("a process-isolated call waiting for a worker to start", { timeout: 60_000 }, () => {
  const sandbox = new ProcessSandbox({ poolSize: 1, preloadModules: [fixtureModule, slowStart] });
  const executor = new ToolExecutor({
    registry: new ToolRegistry({ tools: [tools.echo, tools.busyLoop] }),
    sandbox,
  });

  afterAll(async () => {
    for (const pid of sandbox.pids) seenPids.add(pid);
    await executor.close();
    killSeen();
  });

  it("does not count the wait against the tool's timeout", async () => {
    // No warm pool: the call waits about 1.5 s for its worker, three times its timeout.
    const execution = await executor.execute(
      { toolName: "echo", parameters: { n: 7 } },
      { timeoutMs: 500 },
    );
    expect(execution.status).toBe(ToolExecutionStatus.Completed);
    expect((execution.result.data as { parameters: unknown }).parameters).toEqual({ n: 7 });
  });

  it("still times out a tool that runs past its timeout once it has its worker", async () => {
    const execution = await executor.execute({ toolName: "busy-loop" }, { timeoutMs: 400 });
    expect(execution.status).toBe(ToolExecutionStatus.Timeout);
    expect(execution.timedOut).toBe(true);
  });

  it("ends the wait when the call is cancelled", async () => {
    // A cold sandbox of its own, so the call surely waits for a worker.
    const cold = new ProcessSandbox({ poolSize: 1, preloadModules: [fixtureModule, slowStart] });
    const coldExecutor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [tools.echo] }),
      sandbox: cold,
    });
    try {
      const controller = new AbortController();
      const running = coldExecutor.execute({ toolName: "echo" }, {}, controller.signal);
      setTimeout(() => controller.abort(), 50);
      expect((await running).status).toBe(ToolExecutionStatus.Cancelled);
    } finally {
      for (const pid of cold.pids) seenPids.add(pid);
      await coldExecutor.close();
    }
  });
});
