import { describe, expect, it } from "vitest";
import { AinternError, ToolErrorCode } from "../../src/core/index.js";
import {
  isFinalExecutionStatus,
  ToolExecutionError,
  ToolExecutionResult,
  ToolExecutionStatus,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";

const startedAt = new Date(Date.now() - 1_000);

describe("ToolExecutionResult", () => {
  it("success() is completed and approved", () => {
    const result = ToolExecutionResult.success("t", "e", ToolResult.succeeded(1), startedAt);

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.success).toBe(true);
    expect(result.wasApproved).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.wasCancelled).toBe(false);
    expect(result.completedAt.getTime()).toBeGreaterThan(startedAt.getTime());
    expect(result.durationMs).toBe(result.completedAt.getTime() - startedAt.getTime());
  });

  it("failed() is failed, not approved, and exposes the result's error", () => {
    const result = ToolExecutionResult.failed("t", "e", ToolResult.failed("nope", "X"), startedAt);

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(result.success).toBe(false);
    expect(result.wasApproved).toBe(false);
    expect(result.errorMessage).toBe("nope");
    expect(result.errorCode).toBe("X");
  });

  it("cancelled() is cancelled with a cancelled result", () => {
    const result = ToolExecutionResult.cancelled("t", "e", startedAt);

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(result.wasCancelled).toBe(true);
    expect(result.errorCode).toBe(ToolErrorCode.Cancelled);
  });

  it("timeout() has the timeout status, timedOut set and the timeout result", () => {
    const result = ToolExecutionResult.timeout("t", "e", startedAt, 30_000);

    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(result.timedOut).toBe(true);
    expect(result.wasCancelled).toBe(false);
    expect(result.errorCode).toBe(ToolErrorCode.Timeout);
    expect(result.errorMessage).toBe("Operation timed out after 30.0s");
  });

  it("toolNotFound() fails with ToolNotFound and a fresh execution id", () => {
    const a = ToolExecutionResult.toolNotFound("ghost");
    const b = ToolExecutionResult.toolNotFound("ghost", "Tool 'ghost' not found. Available: none");

    expect(a.status).toBe(ToolExecutionStatus.Failed);
    expect(a.errorCode).toBe("ToolNotFound");
    expect(a.errorMessage).toBe("Tool 'ghost' not found");
    expect(a.executionId).not.toBe(b.executionId);
    expect(b.errorMessage).toBe("Tool 'ghost' not found. Available: none");
    expect(a.durationMs).toBe(0);
  });

  it("is frozen, and carries the input, the batch id and the Lexichord metadata", () => {
    const input = { toolName: "t", parameters: { a: 1 } };
    const result = new ToolExecutionResult({
      toolId: "t",
      executionId: "e",
      result: ToolResult.succeeded(),
      status: ToolExecutionStatus.Completed,
      startedAt,
      completedAt: new Date(startedAt.getTime() + 5),
      durationMs: 4.5,
      input,
      batchId: "b",
      mayStillBeRunning: true,
    });

    expect(Object.isFrozen(result)).toBe(true);
    expect(result.input).toBe(input);
    expect(result.batchId).toBe("b");
    expect(result.mayStillBeRunning).toBe(true);
    expect(result.metadata).toEqual({
      executionId: "e",
      startedAt,
      completedAt: new Date(startedAt.getTime() + 5),
      durationMs: 4.5,
    });
    expect(
      new ToolExecutionResult({
        toolId: "t",
        executionId: "e",
        result: ToolResult.succeeded(),
        status: ToolExecutionStatus.Completed,
        startedAt,
      }).input,
    ).toEqual({ toolName: "t" });
  });
});

describe("ToolExecutionStatus", () => {
  it("has every status of both specs, and only pending and inProgress are not final", () => {
    expect(Object.values(ToolExecutionStatus)).toEqual([
      "pending",
      "inProgress",
      "completed",
      "failed",
      "cancelled",
      "timeout",
      "permissionDenied",
      "validationError",
      "requiresConfirmation",
      "denied",
    ]);
    const notFinal = Object.values(ToolExecutionStatus).filter((s) => !isFinalExecutionStatus(s));
    expect(notFinal).toEqual(["pending", "inProgress"]);
  });
});

describe("ToolExecutionError", () => {
  it("is an AinternError with a code and a cause", () => {
    const cause = new Error("root");
    const error = new ToolExecutionError("BATCH_TOO_LARGE", "too big", { cause });

    expect(error).toBeInstanceOf(AinternError);
    expect(error.code).toBe("BATCH_TOO_LARGE");
    expect(error.name).toBe("ToolExecutionError");
    expect(error.cause).toBe(cause);
  });
});
