import { describe, expect, it } from "vitest";
import { ToolExecutionContextBuilder } from "../../src/context/index.js";
import { ToolErrorCode } from "../../src/core/index.js";
import {
  type AuthorizationRequest,
  allowAllAuthorizer,
  grantPermissions,
  ToolExecutionEventType,
  ToolExecutionStatus,
} from "../../src/execution/index.js";
import { MockTool } from "../../src/testing/index.js";
import { collect, deferred, executorWith, waitFor } from "./support.js";

const reader = () => new MockTool({ id: "reader", requiredPermissions: ["files.read"] });
const writer = () =>
  new MockTool({ id: "writer", requiredPermissions: ["files.read", "files.write"] });

describe("ToolExecutor: authorization", () => {
  it("runs a tool whose permissions grantPermissions holds", async () => {
    const tool = reader();
    const executor = executorWith([tool], { authorizer: grantPermissions(["files.read"]) });

    const result = await executor.execute({ toolName: "reader" });

    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(tool.executeCallCount).toBe(1);
  });

  it("denies a tool whose permissions grantPermissions lacks, naming what is missing", async () => {
    const tool = writer();
    const executor = executorWith([tool], { authorizer: grantPermissions(["files.read"]) });

    const result = await executor.execute({ toolName: "writer" });

    expect(result.status).toBe(ToolExecutionStatus.PermissionDenied);
    expect(result.errorCode).toBe(ToolErrorCode.PermissionDenied);
    expect(result.errorMessage).toBe(
      "Permission denied for 'writer': Missing permission: files.write",
    );
    expect(result.wasApproved).toBe(false);
    expect(tool.executeCallCount).toBe(0);
  });

  it("names every missing permission", async () => {
    const executor = executorWith([writer()], { authorizer: grantPermissions([]) });

    const result = await executor.execute({ toolName: "writer" });

    expect(result.errorMessage).toContain("Missing permissions: files.read, files.write");
  });

  it("denies by default: with no authorizer, a tool that requires a permission does not run", async () => {
    const guarded = reader();
    const open = MockTool.succeeding("open");
    const executor = executorWith([guarded, open]);

    const denied = await executor.execute({ toolName: "reader" });
    const allowed = await executor.execute({ toolName: "open" });

    expect(denied.status).toBe(ToolExecutionStatus.PermissionDenied);
    expect(guarded.executeCallCount).toBe(0);
    expect(allowed.status).toBe(ToolExecutionStatus.Completed);
  });

  it("allowAllAuthorizer authorizes every tool", async () => {
    const executor = executorWith([writer()], { authorizer: allowAllAuthorizer });

    expect((await executor.execute({ toolName: "writer" })).status).toBe(
      ToolExecutionStatus.Completed,
    );
  });

  it("asks a custom, asynchronous authorizer with the tool, execution, parameters and context", async () => {
    const requests: { required: readonly string[]; request: AuthorizationRequest }[] = [];
    const executor = executorWith([writer()], {
      authorizer: {
        authorize: async (required, request, signal) => {
          requests.push({ required, request });
          expect(signal?.aborted).toBe(false);
          await new Promise((resolve) => setTimeout(resolve, 1));
          return request.context?.role === "admin"
            ? { isAuthorized: true }
            : { isAuthorized: false, denialReason: "admins only" };
        },
      },
    });

    const admin = await executor.execute(
      { toolName: "writer", parameters: { path: "a" } },
      { executionId: "e-1", context: { role: "admin" } },
    );
    const guest = await executor.execute({ toolName: "writer" }, { context: { role: "guest" } });

    expect(admin.status).toBe(ToolExecutionStatus.Completed);
    expect(guest.status).toBe(ToolExecutionStatus.PermissionDenied);
    expect(guest.errorMessage).toContain("admins only");
    expect(requests[0]).toEqual({
      required: ["files.read", "files.write"],
      request: {
        toolId: "writer",
        executionId: "e-1",
        parameters: { path: "a" },
        context: { role: "admin" },
      },
    });
  });

  it("hands the authorizer the AIntern context's metadata as its context", async () => {
    let seen: AuthorizationRequest | undefined;
    const executor = executorWith([reader()], {
      authorizer: {
        authorize: (_required, request) => {
          seen = request;
          return { isAuthorized: true };
        },
      },
    });
    const context = ToolExecutionContextBuilder.create()
      .withMetadata("userId", "u-1")
      .buildForTesting();

    await executor.execute("reader", context);

    expect(seen?.context).toEqual({ userId: "u-1" });
    expect(seen?.executionId).toBe(context.executionId);
  });
});

describe("ToolExecutor: confirmation", () => {
  const guarded = () => new MockTool({ id: "guarded", requiresConfirmation: true });

  it("without a callback, ends with requiresConfirmation and does not run the tool", async () => {
    const tool = guarded();
    const executor = executorWith([tool]);

    const result = await executor.execute({ toolName: "guarded" });

    expect(result.status).toBe(ToolExecutionStatus.RequiresConfirmation);
    expect(result.errorCode).toBe(ToolErrorCode.ConfirmationRequired);
    expect(result.wasApproved).toBe(false);
    expect(tool.executeCallCount).toBe(0);
  });

  it("asks for a tool that does not require it when the call sets requireConfirmation", async () => {
    const tool = MockTool.succeeding("plain");
    const executor = executorWith([tool]);
    let asked = 0;

    const result = await executor.execute(
      { toolName: "plain" },
      {
        requireConfirmation: true,
        confirmationCallback: () => {
          asked++;
          return true;
        },
      },
    );

    expect(asked).toBe(1);
    expect(result.status).toBe(ToolExecutionStatus.Completed);
    expect(result.wasApproved).toBe(true);
  });

  it("does not ask for a tool that needs no confirmation", async () => {
    const executor = executorWith([MockTool.succeeding("plain")]);
    let asked = 0;

    await executor.execute(
      { toolName: "plain" },
      {
        confirmationCallback: () => {
          asked++;
          return true;
        },
      },
    );

    expect(asked).toBe(0);
  });

  it("a callback that says no ends with status denied and ConfirmationDenied", async () => {
    const tool = guarded();
    const executor = executorWith([tool]);

    const result = await executor.execute(
      { toolName: "guarded" },
      { executionId: "no", confirmationCallback: async () => false },
    );
    const events = await collect(executor.observe("no"));

    expect(result.status).toBe(ToolExecutionStatus.Denied);
    expect(result.errorCode).toBe(ToolErrorCode.ConfirmationDenied);
    expect(result.errorMessage).toBe("Confirmation denied by user");
    expect(result.wasApproved).toBe(false);
    expect(tool.executeCallCount).toBe(0);
    expect(events.map((e) => e.eventType)).toEqual([
      ToolExecutionEventType.Started,
      ToolExecutionEventType.ConfirmationRequested,
      ToolExecutionEventType.Failed,
    ]);
  });

  it("counts only a literal true as yes", async () => {
    const tool = guarded();
    const executor = executorWith([tool]);

    const result = await executor.execute(
      { toolName: "guarded" },
      { confirmationCallback: () => "yes" as unknown as boolean },
    );

    expect(result.status).toBe(ToolExecutionStatus.Denied);
    expect(tool.executeCallCount).toBe(0);
  });

  it("a callback that throws or rejects denies the call and says why", async () => {
    const tool = guarded();
    const executor = executorWith([tool]);

    const threw = await executor.execute(
      { toolName: "guarded" },
      {
        confirmationCallback: () => {
          throw new Error("dialog crashed");
        },
      },
    );
    const rejected = await executor.execute(
      { toolName: "guarded" },
      { confirmationCallback: () => Promise.reject(new Error("no UI")) },
    );

    for (const result of [threw, rejected]) {
      expect(result.status).toBe(ToolExecutionStatus.Denied);
      expect(result.errorCode).toBe(ToolErrorCode.ConfirmationDenied);
    }
    expect(threw.errorMessage).toBe("Confirmation failed: dialog crashed");
    expect(rejected.errorMessage).toBe("Confirmation failed: no UI");
    expect(tool.executeCallCount).toBe(0);
  });

  it("emits ConfirmationRequested and ConfirmationReceived around a yes", async () => {
    const executor = executorWith([guarded()]);
    const types: string[] = [];
    executor.events.on("executionEvent", (e) => types.push(e.eventType));

    await executor.execute({ toolName: "guarded" }, { confirmationCallback: () => true });

    expect(types).toEqual([
      "Started",
      "ConfirmationRequested",
      "ConfirmationReceived",
      "InProgress",
      "Completed",
    ]);
  });

  it("cancelling while the callback is pending ends the call as cancelled and aborts the callback's signal", async () => {
    const tool = guarded();
    const executor = executorWith([tool]);
    let callbackSignal: AbortSignal | undefined;
    const never = deferred<boolean>();

    const task = executor.execute(
      { toolName: "guarded" },
      {
        executionId: "waiting",
        confirmationCallback: (_input, signal) => {
          callbackSignal = signal;
          return never.promise;
        },
      },
    );
    await waitFor(() => callbackSignal !== undefined);
    executor.cancel("waiting");
    const result = await task;

    expect(result.status).toBe(ToolExecutionStatus.Cancelled);
    expect(callbackSignal?.aborted).toBe(true);
    expect(tool.executeCallCount).toBe(0);
  });

  it("waiting for a confirmation holds no concurrency slot", async () => {
    const executor = executorWith([guarded(), MockTool.succeeding("other")], {
      options: { maxConcurrentExecutions: 1 },
    });
    const answer = deferred<boolean>();

    const waiting = executor.execute(
      { toolName: "guarded" },
      { confirmationCallback: () => answer.promise },
    );
    const other = await executor.execute({ toolName: "other" });
    answer.resolve(true);

    expect(other.status).toBe(ToolExecutionStatus.Completed);
    expect((await waiting).status).toBe(ToolExecutionStatus.Completed);
  });
});
