import { describe, expect, it } from "vitest";
import type { ToolExecutionContext } from "../../src/context/index.js";
import type { AuditLog } from "../../src/execution/index.js";
import {
  type Authorizer,
  LicenseTier,
  staticLicense,
  type ToolExecutionOptions,
  ToolExecutionStatus,
  type ToolExecutor,
  type ToolInput,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool, type MockToolConfig } from "../../src/testing/index.js";
import { ToolValidationResult } from "../../src/validation/index.js";
import { collect, executorWith } from "./support.js";

/**
 * One shared journal: the bus events, and calls into the authorizer, the tool's validation,
 * the confirmation callback, the tool itself and the audit log, in the order they happened.
 */
function journaled(
  config: MockToolConfig & { readonly valid?: boolean; readonly authorized?: boolean },
) {
  const journal: string[] = [];
  const tool = new MockTool({
    id: "step-tool",
    executeFunc: async (context: ToolExecutionContext, signal: AbortSignal) => {
      journal.push("tool");
      return config.executeFunc?.(context, signal) ?? ToolResult.succeeded();
    },
    validateFunc: () => {
      journal.push("validate");
      return config.valid === false
        ? ToolValidationResult.missingRequired("path")
        : ToolValidationResult.valid();
    },
    requiredPermissions: config.requiredPermissions ?? ["files.read"],
    ...(config.requiresConfirmation === undefined
      ? {}
      : { requiresConfirmation: config.requiresConfirmation }),
  });
  const authorizer: Authorizer = {
    authorize: () => {
      journal.push("authorize");
      return config.authorized === false
        ? { isAuthorized: false, denialReason: "no" }
        : { isAuthorized: true };
    },
  };
  const audit: AuditLog = {
    begin: async () => {
      journal.push("audit.begin");
    },
    complete: async (record) => {
      journal.push(`audit.complete:${record.status}`);
    },
    get: async () => undefined,
    query: async () => ({ entries: [] }),
    count: async () => 0,
    recoverInterrupted: async () => 0,
  };
  const executor = executorWith([tool], {
    authorizer,
    audit,
    license: staticLicense(LicenseTier.Teams),
  });
  // Bus events go into the same journal as they happen.
  executor.events.on("executionEvent", (e) => journal.push(`executionEvent:${e.eventType}`));
  for (const name of [
    "toolExecutionStarted",
    "executionStarted",
    "toolExecutionCompleted",
    "toolExecutionFailed",
    "toolExecutionTimeout",
    "executionCompleted",
  ] as const) {
    executor.events.on(name, () => journal.push(name));
  }
  return { executor, journal };
}

/** A tool run that lasts until its signal aborts, then reports a cancelled result. */
function untilAborted(_context: ToolExecutionContext, signal: AbortSignal): Promise<ToolResult> {
  return new Promise((resolve) =>
    signal.addEventListener("abort", () => resolve(ToolResult.cancelled()), { once: true }),
  );
}

async function runObserved(
  executor: ToolExecutor,
  input: ToolInput,
  options: ToolExecutionOptions & { readonly executionId: string },
  afterStart?: () => void,
) {
  const task = executor.execute(input, options);
  const observed = collect(executor.observe(options.executionId));
  afterStart?.();
  const [result, events] = await Promise.all([task, observed]);
  return { result, events: events.map((e) => e.eventType) };
}

describe("ToolExecutor: the steps of spec 003 section 5.1, in order", () => {
  it("runs Started, lookup, authorization, validation, confirmation, InProgress, the tool, the audit and the final event", async () => {
    const { executor, journal } = journaled({ requiresConfirmation: true });

    const { result, events } = await runObserved(
      executor,
      { toolName: "step-tool" },
      {
        executionId: "ordered",
        confirmationCallback: () => {
          journal.push("confirm");
          return true;
        },
      },
    );

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(journal).toEqual([
      "audit.begin", // as soon as execute accepts it: a queued execution leaves evidence too
      "executionEvent:Started",
      "toolExecutionStarted",
      "executionStarted",
      "authorize",
      "validate",
      "executionEvent:ConfirmationRequested",
      "confirm",
      "executionEvent:ConfirmationReceived",
      "executionEvent:InProgress",
      "validate", // ToolBase.execute validates again before its core: it never trusts its caller
      "tool",
      "audit.complete:completed",
      "executionEvent:Completed",
      "toolExecutionCompleted",
      "executionCompleted",
    ]);
    expect(events).toEqual([
      "Started",
      "ConfirmationRequested",
      "ConfirmationReceived",
      "InProgress",
      "Completed",
    ]);
  });

  it("stops after lookup for an unknown tool: audit, then Failed", async () => {
    const { executor, journal } = journaled({});

    const { result, events } = await runObserved(
      executor,
      { toolName: "nope" },
      { executionId: "missing" },
    );

    expect(result.status).toBe(ToolExecutionStatus.Failed);
    expect(journal).toEqual([
      "audit.begin", // as soon as execute accepts it: a queued execution leaves evidence too
      "executionEvent:Started",
      "toolExecutionStarted",
      "audit.complete:failed",
      "executionEvent:Failed",
      "toolExecutionFailed",
      "executionCompleted",
    ]);
    expect(events).toEqual(["Started", "Failed"]);
  });

  it("stops after authorization when it is denied: no validation, no confirmation, no run", async () => {
    const { executor, journal } = journaled({ authorized: false, requiresConfirmation: true });

    const { result, events } = await runObserved(
      executor,
      { toolName: "step-tool" },
      { executionId: "denied" },
    );

    expect(result.status).toBe(ToolExecutionStatus.PermissionDenied);
    expect(journal).toEqual([
      "audit.begin", // as soon as execute accepts it: a queued execution leaves evidence too
      "executionEvent:Started",
      "toolExecutionStarted",
      "executionStarted",
      "authorize",
      "audit.complete:permissionDenied",
      "executionEvent:Failed",
      "toolExecutionFailed",
      "executionCompleted",
    ]);
    expect(events).toEqual(["Started", "Failed"]);
  });

  it("skips authorization for a tool that requires no permission", async () => {
    const { executor, journal } = journaled({ requiredPermissions: [] });

    await executor.execute({ toolName: "step-tool" });

    expect(journal).not.toContain("authorize");
    expect(journal).toContain("tool");
  });

  it("stops after validation when it fails: no confirmation, no run", async () => {
    const { executor, journal } = journaled({ valid: false, requiresConfirmation: true });

    const { result, events } = await runObserved(
      executor,
      { toolName: "step-tool" },
      { executionId: "invalid" },
    );

    expect(result.status).toBe(ToolExecutionStatus.ValidationError);
    expect(journal.slice(4)).toEqual([
      "authorize",
      "validate",
      "audit.complete:validationError",
      "executionEvent:Failed",
      "toolExecutionFailed",
      "executionCompleted",
    ]);
    expect(events).toEqual(["Started", "Failed"]);
  });

  it("stops after ConfirmationRequested when there is no callback", async () => {
    const { executor, journal } = journaled({ requiresConfirmation: true });

    const { result, events } = await runObserved(
      executor,
      { toolName: "step-tool" },
      { executionId: "unconfirmed" },
    );

    expect(result.status).toBe(ToolExecutionStatus.RequiresConfirmation);
    expect(journal.slice(6)).toEqual([
      "executionEvent:ConfirmationRequested",
      "audit.complete:requiresConfirmation",
      "executionEvent:Failed",
      "toolExecutionFailed",
      "executionCompleted",
    ]);
    expect(events).toEqual(["Started", "ConfirmationRequested", "Failed"]);
  });

  it("ends a timed-out run with the audit, then Timeout and the timeout notification", async () => {
    const { executor, journal } = journaled({ executeFunc: untilAborted });

    const { result, events } = await runObserved(
      executor,
      { toolName: "step-tool" },
      { executionId: "late", timeoutMs: 20 },
    );

    expect(result.status).toBe(ToolExecutionStatus.Timeout);
    expect(journal.slice(-5)).toEqual([
      "audit.complete:timeout",
      "executionEvent:Timeout",
      "toolExecutionTimeout",
      "toolExecutionFailed",
      "executionCompleted",
    ]);
    expect(events).toEqual(["Started", "InProgress", "Timeout"]);
  });

  it("ends a cancelled run with the audit, then Cancelled and no timeout notification", async () => {
    const { executor, journal } = journaled({ executeFunc: untilAborted });

    const { result, events } = await runObserved(
      executor,
      { toolName: "step-tool" },
      { executionId: "stopped" },
      () => setTimeout(() => executor.cancel("stopped"), 10),
    );

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(journal.slice(-4)).toEqual([
      "audit.complete:cancelled",
      "executionEvent:Cancelled",
      "toolExecutionFailed",
      "executionCompleted",
    ]);
    expect(journal).not.toContain("toolExecutionTimeout");
    expect(events).toEqual(["Started", "InProgress", "Cancelled"]);
  });
});
