import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolCategory, ToolErrorCode } from "../../src/core/index.js";
import { ToolExecutionStatus, ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ProcessSandbox, RoutingSandbox, SandboxErrorCode } from "../../src/sandbox/process.js";
import * as tools from "../fixtures/sandbox/tools.js";
import { fixtureModule, isReaped, killSeen, seenPids } from "./process-helpers.js";

// The executor as the lead will wire it: its `sandbox` option given a RoutingSandbox whose
// process side is a ProcessSandbox.
let sandbox: ProcessSandbox;
let executor: ToolExecutor;

beforeAll(async () => {
  sandbox = new ProcessSandbox({ poolSize: 1, preloadModules: [fixtureModule] });
  const unsourcedShell = {
    ...tools.pid,
    id: "shell",
    isolation: undefined,
    source: undefined,
    category: ToolCategory.Terminal,
  };
  executor = new ToolExecutor({
    registry: new ToolRegistry({ tools: [tools.busyLoop, tools.echo, unsourcedShell] }),
    sandbox: new RoutingSandbox({
      process: sandbox,
      policy: { requireProcessFor: { categories: [ToolCategory.Terminal] } },
    }),
  });
  await sandbox.warm();
});

afterAll(async () => {
  await executor?.close();
  killSeen();
});

describe("ToolExecutor with a process sandbox", () => {
  it("times out a tool that never stops, reports Timeout, and knows it is stopped", async () => {
    const started = performance.now();
    const execution = await executor.execute({ toolName: "busy-loop" }, { timeoutMs: 700 });
    // Not before its timeout, and well before the test's own: the kill happened. How fast a kill
    // is belongs in bench/, not in a bound a loaded machine breaks.
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(700 - 2);
    expect(elapsed).toBeLessThan(700 + 5_000);
    expect(execution.status).toBe(ToolExecutionStatus.Timeout);
    expect(execution.timedOut).toBe(true);
    expect(execution.result.errorCode).toBe(ToolErrorCode.Timeout);
    expect(execution.result.metadata?.mayStillBeRunning).toBeUndefined();
    for (const pid of sandbox.pids) seenPids.add(pid);
  });

  it("returns a child's result as a completed execution", async () => {
    await sandbox.warm();
    const execution = await executor.execute({ toolName: "echo", parameters: { n: 1 } });
    expect(execution.status).toBe(ToolExecutionStatus.Completed);
    const data = execution.result.data as { pid: number; parameters: unknown };
    expect(data.parameters).toEqual({ n: 1 });
    expect(data.pid).not.toBe(process.pid);
    expect(isReaped(data.pid)).toBe(false);
  });

  it("fails a call the policy requires to isolate when the tool has no source", async () => {
    const execution = await executor.execute({ toolName: "shell" });
    expect(execution.status).toBe(ToolExecutionStatus.Failed);
    expect(execution.result.errorCode).toBe(SandboxErrorCode.IsolationRequired);
    expect(execution.result.error).toContain("category Terminal");
  });
});
