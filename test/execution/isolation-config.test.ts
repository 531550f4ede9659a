import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RiskLevel } from "../../src/core/index.js";
import {
  ToolExecutionError,
  ToolExecutionStatus,
  ToolExecutor,
} from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { InProcessSandbox } from "../../src/sandbox/process.js";
import { openStore } from "../../src/store/index.js";
import { MockTool } from "../../src/testing/index.js";
import * as tools from "../fixtures/sandbox/tools.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("ToolExecutor isolation settings", () => {
  it("runs a tool that asks for process isolation in a child process by default and audits where it ran", async () => {
    const dir = await mkdtemp(join(tmpdir(), "aintern-iso-"));
    dirs.push(dir);
    const store = await openStore(`sqlite:${join(dir, "a.db")}`);
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [tools.pid, MockTool.succeeding("plain")] }),
      audit: store.audit,
    });
    try {
      const isolated = await executor.execute({ toolName: "pid" }, { timeoutMs: 20_000 });
      expect(isolated.status).toBe(ToolExecutionStatus.Completed);
      expect((isolated.result.data as { pid: number }).pid).not.toBe(process.pid);
      const plain = await executor.execute({ toolName: "plain" });
      expect(plain.status).toBe(ToolExecutionStatus.Completed);
      expect((await store.audit.get(isolated.executionId))?.sandboxId).toBe("process");
      expect((await store.audit.get(plain.executionId))?.sandboxId).toBe("in-process");
    } finally {
      await executor.close();
      await store.close();
    }
  });

  it("requires isolation by risk level: a High call of a tool without source is refused, not run in-process", async () => {
    const risky = new MockTool({ id: "risky", riskLevel: RiskLevel.High });
    const executor = new ToolExecutor({
      registry: new ToolRegistry({ tools: [risky] }),
      isolation: { requireProcessFor: { riskLevelAtLeast: RiskLevel.High } },
      approval: "none",
    });
    try {
      const run = await executor.execute({ toolName: "risky" });
      expect(run.status).toBe(ToolExecutionStatus.Failed);
      expect(run.errorMessage).toContain("must run in process isolation");
      expect(risky.executeCallCount).toBe(0);
    } finally {
      await executor.close();
    }
  });

  it("refuses a config with both a sandbox and an isolation policy", () => {
    expect(
      () =>
        new ToolExecutor({
          registry: new ToolRegistry(),
          sandbox: new InProcessSandbox(),
          isolation: { requireProcessFor: { riskLevelAtLeast: RiskLevel.High } },
        }),
    ).toThrow(ToolExecutionError);
  });
});
