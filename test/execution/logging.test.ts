import pino from "pino";
import { describe, expect, it } from "vitest";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import type { AuditLog } from "../../src/execution/index.js";
import {
  grantPermissions,
  LicenseTier,
  staticLicense,
  type ToolExecutorOptions,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { JsonSchemaBuilder } from "../../src/schema/index.js";
import { MockTool } from "../../src/testing/index.js";
import type { Tool } from "../../src/tools/index.js";
import { blockingTool, collect, executorWith, rawThrowingTool, waitFor } from "./support.js";

interface LogLine {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

/** A real pino logger writing JSON lines into memory. */
function capturedPino() {
  const raw: string[] = [];
  const logger = pino(
    { level: "debug" },
    {
      write(chunk: string) {
        raw.push(chunk);
      },
    },
  );
  const lines = (): LogLine[] => raw.map((line) => JSON.parse(line) as LogLine);
  return { logger, lines, text: () => raw.join("") };
}

const INFO = 30;
const WARN = 40;
const ERROR = 50;

const SECRET = "s3cr3t-api-key-value";

function secretTool() {
  return new MockTool({
    id: "login",
    schema: JsonSchemaBuilder.create()
      .addString("user", "User", { required: true })
      .addString("token", "Token", { required: true, pattern: "^[0-9]+$", maxLength: 8 })
      .build(),
  });
}

function setup(options: ToolExecutorOptions = {}, tools: Tool[] = []) {
  const log = capturedPino();
  const executor = executorWith(tools, {
    logger: log.logger,
    options,
    license: staticLicense(LicenseTier.Teams),
  });
  return { ...log, executor };
}

describe("ToolExecutor: structured logs (spec 003 section 7)", () => {
  it("logs the start and the finish of an execution with the spec's messages and fields", async () => {
    const { executor, lines } = setup({}, [MockTool.succeeding("t")]);

    const result = await executor.execute({ toolName: "t" }, { executionId: "e1" });

    const [started, finished] = lines();
    expect(started).toMatchObject({
      level: INFO,
      executionId: "e1",
      toolName: "t",
      msg: "[TLS-EXE] Tool execution started. ExecutionId: e1, Tool: t",
    });
    expect(finished).toMatchObject({
      level: INFO,
      executionId: "e1",
      toolName: "t",
      status: "completed",
      durationMs: result.durationMs,
      result: "Success: Operation completed successfully",
    });
    expect(finished?.msg).toBe(
      `[TLS-EXE] Tool execution finished. ExecutionId: e1, Tool: t, Status: completed, Duration: ${Math.round(result.durationMs)}ms`,
    );
  });

  it("warns about an unknown tool", async () => {
    const { executor, lines } = setup();

    await executor.execute({ toolName: "ghost" }, { executionId: "e2" });

    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: WARN,
        msg: "[TLS-EXE] Tool not found. ExecutionId: e2, Tool: ghost",
      }),
    );
  });

  it("warns about a denied authorization with the reason", async () => {
    const log = capturedPino();
    const executor = executorWith([new MockTool({ id: "adm", requiredPermissions: ["admin"] })], {
      logger: log.logger,
      authorizer: grantPermissions(),
    });

    await executor.execute({ toolName: "adm" }, { executionId: "e3" });

    expect(log.lines()).toContainEqual(
      expect.objectContaining({
        level: WARN,
        reason: "Missing permission: admin",
        msg: "[TLS-EXE] Authorization denied. ExecutionId: e3, Tool: adm, Reason: Missing permission: admin",
      }),
    );
  });

  it("warns about a timeout with the timeout in milliseconds", async () => {
    const { executor, lines } = setup({}, [blockingTool("slow")]);

    await executor.execute({ toolName: "slow" }, { executionId: "e4", timeoutMs: 15 });

    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: WARN,
        timeoutMs: 15,
        msg: "[TLS-EXE] Execution timed out. ExecutionId: e4, Tool: slow, Timeout: 15ms",
      }),
    );
  });

  it("logs a cancellation request", async () => {
    const { executor, lines } = setup({}, [blockingTool("slow")]);

    const task = executor.execute({ toolName: "slow" }, { executionId: "e5" });
    await waitFor(() => executor.isExecuting("e5"));
    executor.cancel("e5");
    await task;

    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: INFO,
        msg: "[TLS-EXE] Cancellation requested. ExecutionId: e5",
      }),
    );
  });

  it("logs a tool that throws past its base class as an error, with the error", async () => {
    const { executor, lines } = setup({}, [rawThrowingTool("raw-throw", "Raw", "kaboom")]);

    await executor.execute({ toolName: "raw-throw" }, { executionId: "e6" });

    const line = lines().find((l) => l.level === ERROR);
    expect(line?.msg).toBe(
      "[TLS-EXE] Execution failed with exception. ExecutionId: e6, Tool: raw-throw",
    );
    expect(line?.err).toMatchObject({ message: "kaboom" });
  });

  it("logs a batch's completion with its counts, a stop on failure, and an oversized batch", async () => {
    const { executor, lines } = setup({}, [MockTool.succeeding("ok"), MockTool.failing("bad")]);

    await executor.executeBatch([{ toolName: "ok" }, { toolName: "bad" }, { toolName: "ok" }], {
      executionId: "b1",
    });
    await executor.executeBatch([{ toolName: "bad" }, { toolName: "ok" }], {
      executionId: "b2",
      continueOnFailure: false,
    });
    await expect(
      executor.executeBatch(Array.from({ length: 51 }, () => ({ toolName: "ok" }))),
    ).rejects.toThrow();

    const messages = lines().map((l) => l.msg);
    expect(messages).toContain(
      "[TLS-EXE] Batch execution completed. ExecutionId: b1, Total: 3, Success: 2, Failed: 1",
    );
    expect(messages).toContain(
      "[TLS-EXE] Batch execution stopped due to failure. Tool: bad, Status: failed",
    );
    expect(messages).toContain(
      "[TLS-EXE] Batch execution completed. ExecutionId: b2, Total: 2, Success: 0, Failed: 2",
    );
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: WARN,
        msg: "[TLS-EXE] Batch size exceeds limit. Count: 51, Max: 50, Tier: Teams",
      }),
    );
  });

  it("logs a failed audit write as an error and as a Warning event, and still resolves", async () => {
    const log = capturedPino();
    const broken: AuditLog = {
      begin: async () => undefined,
      complete: async () => {
        throw new Error("disk full");
      },
      get: async () => undefined,
      query: async () => ({ entries: [] }),
      count: async () => 0,
      recoverInterrupted: async () => 0,
    };
    const executor = executorWith([MockTool.succeeding("t")], {
      logger: log.logger,
      audit: broken,
    });

    const result = await executor.execute({ toolName: "t" }, { executionId: "e7" });
    const events = await collect(executor.observe("e7"));

    expect(result.status).toBe("completed");
    expect(log.lines()).toContainEqual(
      expect.objectContaining({
        level: ERROR,
        msg: "[TLS-EXE] Audit write failed. ExecutionId: e7",
      }),
    );
    expect(events.map((e) => e.eventType)).toEqual([
      "Started",
      "InProgress",
      "Warning",
      "Completed",
    ]);
    expect(events[2]?.message).toBe("Audit write failed: disk full");
  });

  it("leaves the result summary out when logResults is off", async () => {
    const { executor, lines } = setup({ logResults: false }, [MockTool.succeeding("t")]);

    await executor.execute({ toolName: "t" });

    expect(lines().at(-1)).not.toHaveProperty("result");
  });
});

describe("ToolExecutor: parameters in logs", () => {
  it("with logParameters off (the default), no parameter value reaches the log, even from validation errors", async () => {
    const { executor, lines, text } = setup({}, [secretTool()]);

    await executor.execute({ toolName: "login", parameters: { user: "ann", token: "42" } });
    const invalid = await executor.execute({
      toolName: "login",
      parameters: { user: "ann", token: SECRET },
    });

    expect(executor.options.logParameters).toBe(false);
    expect(invalid.status).toBe("validationError");
    expect(invalid.errorMessage).toContain(SECRET); // the model still sees what it sent
    expect(text()).not.toContain(SECRET);
    expect(text()).not.toContain('"42"');
    expect(lines()[0]?.parameters).toBe("[redacted]");
    expect(lines()).toContainEqual(
      expect.objectContaining({
        level: WARN,
        msg: expect.stringMatching(
          /^\[TLS-EXE\] Parameter validation failed\. ExecutionId: .+, Tool: login, Errors: token \(/,
        ),
      }),
    );
  });

  it("with logParameters on, logs the parameters and the full validation message", async () => {
    const { executor, lines, text } = setup({ logParameters: true }, [secretTool()]);

    await executor.execute({ toolName: "login", parameters: { user: "ann", token: SECRET } });

    expect(lines()[0]?.parameters).toEqual({ user: "ann", token: SECRET });
    expect(text()).toContain(`Errors: `);
    expect(lines().find((l) => l.level === WARN)?.msg).toContain(SECRET);
  });

  it("redacts the parameters of the toolExecutionStarted notification unless logParameters is on", async () => {
    const seen: unknown[] = [];
    for (const logParameters of [false, true]) {
      const executor = executorWith([MockTool.succeeding("t")], { options: { logParameters } });
      executor.events.on("toolExecutionStarted", (e) => seen.push(e.parameters));
      await executor.execute({ toolName: "t", parameters: { token: SECRET } });
    }
    expect(seen).toEqual(["[redacted]", { token: SECRET }]);
  });

  it("logs the AIntern path's start with redacted parameters too", async () => {
    const { executor, lines } = setup({}, [
      new MockTool({ id: "t", executeFunc: async () => ToolResult.succeeded() }),
    ]);

    await executor.execute(
      "t",
      ToolExecutionContextBuilder.create().withParameters({ token: SECRET }).buildForTesting(),
    );

    expect(lines()[0]?.parameters).toBe("[redacted]");
  });
});
