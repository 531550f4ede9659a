import { describe, expect, it } from "vitest";
import { ServiceContainer, ToolExecutionContext } from "../../src/context/index.js";
import { type JsonObject, RiskLevel, ToolCategory } from "../../src/core/index.js";
import { ToolResult } from "../../src/result/index.js";
import {
  InProcessSandbox,
  type IsolationPolicy,
  LazyProcessSandbox,
  RoutingSandbox,
  SandboxError,
  SandboxErrorCode,
  type SandboxOutcome,
  selectSandbox,
  type ToolSandbox,
} from "../../src/sandbox/process.js";
import type { Tool } from "../../src/tools/index.js";
import * as tools from "../fixtures/sandbox/tools.js";

function tool(overrides: Partial<Tool> & { risk?: (parameters: JsonObject) => RiskLevel }): Tool {
  const { risk, ...rest } = overrides;
  return {
    ...tools.pid,
    isolation: undefined,
    source: undefined,
    category: ToolCategory.Custom,
    defaultRiskLevel: RiskLevel.Low,
    getEffectiveRiskLevel: risk ?? (() => RiskLevel.Low),
    execute: async () => ToolResult.succeeded("ran in-process"),
    ...rest,
  };
}

class RecordingSandbox implements ToolSandbox {
  readonly ran: string[] = [];
  closed = false;
  constructor(readonly name: string) {}
  async run(ran: Tool): Promise<SandboxOutcome> {
    this.ran.push(ran.id);
    return { kind: "completed", result: ToolResult.succeeded(this.name) };
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

function context(parameters: JsonObject = {}): ToolExecutionContext {
  return new ToolExecutionContext({ services: new ServiceContainer(), parameters });
}

const options = { signal: new AbortController().signal, timeoutMs: 5_000 };

describe("selectSandbox", () => {
  it("runs tools in-process unless something asks for isolation", () => {
    expect(selectSandbox(tool({}))).toEqual({ sandbox: "in-process" });
    expect(selectSandbox(tool({ isolation: "none" }), {})).toEqual({ sandbox: "in-process" });
  });

  it("isolates a tool that asks for it", () => {
    const choice = selectSandbox(tool({ isolation: "process" }));
    expect(choice).toMatchObject({ sandbox: "process", reason: expect.stringContaining("asks") });
  });

  it("isolates the categories the policy names, whatever the tool says", () => {
    const policy: IsolationPolicy = { requireProcessFor: { categories: [ToolCategory.Terminal] } };
    const terminal = tool({ category: ToolCategory.Terminal, isolation: "none" });
    expect(selectSandbox(terminal, policy)).toMatchObject({
      sandbox: "process",
      reason: expect.stringContaining("Terminal"),
    });
    expect(selectSandbox(tool({ category: ToolCategory.Search }), policy).sandbox).toBe(
      "in-process",
    );
  });

  it("isolates calls whose effective risk reaches the policy's level", () => {
    const policy: IsolationPolicy = { requireProcessFor: { riskLevelAtLeast: RiskLevel.High } };
    const shell = tool({
      risk: (parameters) =>
        parameters.command === "rm -rf /" ? RiskLevel.Critical : RiskLevel.Low,
    });
    expect(selectSandbox(shell, policy, { command: "ls" }).sandbox).toBe("in-process");
    expect(selectSandbox(shell, policy, { command: "rm -rf /" })).toMatchObject({
      sandbox: "process",
      reason: expect.stringContaining("this call is Critical"),
    });
    expect(selectSandbox(tool({ defaultRiskLevel: RiskLevel.High }), policy).sandbox).toBe(
      "process",
    );
  });

  it("judges a tool whose risk assessment throws by its default risk", () => {
    const policy: IsolationPolicy = { requireProcessFor: { riskLevelAtLeast: RiskLevel.Medium } };
    const broken = tool({
      defaultRiskLevel: RiskLevel.Medium,
      risk: () => {
        throw new Error("broken");
      },
    });
    expect(selectSandbox(broken, policy, {}).sandbox).toBe("process");
  });
});

describe("RoutingSandbox", () => {
  it("sends each call to the sandbox its isolation needs", async () => {
    const inProcess = new RecordingSandbox("in");
    const isolated = new RecordingSandbox("out");
    const routing = new RoutingSandbox({
      inProcess,
      process: isolated,
      policy: { requireProcessFor: { categories: [ToolCategory.Terminal] } },
    });
    await routing.run(tool({ id: "plain" }), context(), options);
    await routing.run(tools.pid, context(), options);
    const terminal = tool({
      id: "term",
      category: ToolCategory.Terminal,
      source: tools.pid.source,
    });
    await routing.run(terminal, context(), options);
    expect(inProcess.ran).toEqual(["plain"]);
    expect(isolated.ran).toEqual(["pid", "term"]);
    await routing.close();
    expect(inProcess.closed && isolated.closed).toBe(true);
  });

  it("never runs in-process a call the policy requires to isolate but that has no source", async () => {
    const inProcess = new RecordingSandbox("in");
    const isolated = new RecordingSandbox("out");
    const routing = new RoutingSandbox({
      inProcess,
      process: isolated,
      policy: { requireProcessFor: { riskLevelAtLeast: RiskLevel.High } },
    });
    const risky = tool({ id: "risky", defaultRiskLevel: RiskLevel.High });
    const outcome = await routing.run(risky, context(), options);
    expect(outcome.kind).toBe("threw");
    const error = (outcome as { error: SandboxError }).error;
    expect(error).toBeInstanceOf(SandboxError);
    expect(error.code).toBe(SandboxErrorCode.IsolationRequired);
    expect(error.message).toContain("'risky' must run in process isolation");
    expect(error.message).toContain("risk level High");
    expect(error.message).toContain("source: { module, exportName }");
    expect(inProcess.ran).toEqual([]);
    expect(isolated.ran).toEqual([]);
  });

  it("lets the process sandbox explain a tool that asks for isolation without a source", async () => {
    const routing = new RoutingSandbox();
    try {
      expect(routing.inProcess).toBeInstanceOf(InProcessSandbox);
      expect(routing.process).toBeInstanceOf(LazyProcessSandbox);
      const outcome = await routing.run(tool({ isolation: "process" }), context(), options);
      expect((outcome as { error: SandboxError }).error.code).toBe(
        SandboxErrorCode.ToolSourceMissing,
      );
      const plain = await routing.run(tool({}), context(), options);
      expect(plain).toMatchObject({ kind: "completed" });
      expect((plain as { result: ToolResult }).result.data).toBe("ran in-process");
    } finally {
      await routing.close();
    }
  });

  it("returns threw when choosing fails", async () => {
    const routing = new RoutingSandbox({
      inProcess: new RecordingSandbox("in"),
      process: new RecordingSandbox("out"),
    });
    const hostile = {
      ...tool({}),
      get isolation(): never {
        throw new Error("hostile getter");
      },
    } as unknown as Tool;
    const outcome = await routing.run(hostile, context(), options);
    expect(outcome.kind).toBe("threw");
  });
});
