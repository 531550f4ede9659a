import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  MemoryPermissionStore,
  type PermissionStore,
  RememberedPermissions,
} from "../../src/approval/index.js";
import {
  ApprovalDecision,
  interruptedCallMessage,
  interruptRecord,
  MemoryToolCallStore,
  parseToolCalls,
  type ToolCallBatch,
  ToolCallLifecycle,
  ToolCallProcessor,
  ToolCallRequest,
  ToolCallStatus,
  type ToolCallStore,
  toProviderMessages,
} from "../../src/calls/index.js";
import { ToolExecutor } from "../../src/execution/index.js";
import { ToolRegistry } from "../../src/registry/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { type StoreTarget, storeTargets } from "../store/store-targets.js";
import {
  type CallSpec,
  makeExecutor,
  makeProcessor,
  makeTools,
  makeToolsProcessor,
  makeWorkspace,
  openAIBatch,
  openAIResponse,
  recordingHandler,
  silentHandler,
  type Tools,
  type Workspace,
  waitFor,
} from "./processor-support.js";

/** The stores of one process: call lifecycles and persistent permissions. */
interface Stores {
  readonly calls: ToolCallStore;
  readonly permissions: PermissionStore;
}

/**
 * Where lifecycles and grants are kept, and what a restart does to them: `restart()` ends the
 * first process's stores and opens what it left behind. SQLite and PostgreSQL close the store
 * and open the same database again (`openStore` fails calls a closed store left Executing); the
 * memory stores copy what was saved into fresh ones.
 */
interface RestartTarget {
  readonly name: string;
  /** `alongside()` opens a second store on the same database while the first stays open. */
  open(): Promise<Stores & { restart(): Promise<Stores>; alongside?(): Promise<Stores> }>;
  cleanup(): Promise<void>;
}

function memoryTarget(): RestartTarget {
  return {
    name: "memory",
    async open() {
      const calls = new MemoryToolCallStore();
      const permissions = new MemoryPermissionStore();
      return {
        calls,
        permissions,
        async restart() {
          const fresh = new MemoryToolCallStore();
          for (const call of (await calls.list()).reverse()) await fresh.save(call);
          return { calls: fresh, permissions };
        },
      };
    },
    cleanup: async () => undefined,
  };
}

function databaseTarget(name: string, make: () => StoreTarget): RestartTarget {
  let target: StoreTarget | undefined;
  return {
    name,
    async open() {
      target ??= make();
      const place = target.place();
      const store = await place.open();
      return {
        calls: store.calls,
        permissions: store.permissions,
        async restart() {
          await store.close();
          const reopened = await place.open();
          return { calls: reopened.calls, permissions: reopened.permissions };
        },
        async alongside() {
          const second = await place.open();
          return { calls: second.calls, permissions: second.permissions };
        },
      };
    },
    cleanup: async () => target?.cleanup(),
  };
}

const targets: readonly RestartTarget[] = [
  memoryTarget(),
  ...storeTargets.map((t) => databaseTarget(t.name, t.make)),
];

afterAll(async () => {
  for (const target of targets) await target.cleanup();
});

let workspace: Workspace;
let tools: Tools;

beforeEach(() => {
  workspace = makeWorkspace();
  tools = makeTools();
});

afterEach(() => workspace.cleanup());

/** A tool that runs until its signal aborts (a process that dies mid-call). */
function blockingTool() {
  return new MockTool({
    id: "blocking",
    executeFunc: (_context, signal) =>
      new Promise<ToolResult>((resolve) => {
        signal.addEventListener("abort", () => resolve(ToolResult.cancelled()), { once: true });
      }),
  });
}

/**
 * Starts processing call `call_block` on `store` with a tool that runs until stopped, and waits
 * until the tool runs. `resubmit(store)` processes the same call again through a new processor.
 */
async function startBlockingCall(store: ToolCallStore) {
  const blocking = blockingTool();
  const executor = new ToolExecutor({ registry: new ToolRegistry({ tools: [blocking] }) });
  const controller = new AbortController();
  const batch = openAIBatch([["call_block", "blocking", {}]]);
  const running = new ToolCallProcessor({ executor, store }).process(batch, controller.signal);
  await waitFor(() => blocking.executeCallCount === 1);
  return {
    blocking,
    batch,
    async resubmit(on: ToolCallStore): Promise<ToolCallBatch> {
      const again = openAIBatch([["call_block", "blocking", {}]]);
      await new ToolCallProcessor({ executor, store: on }).process(again);
      return again;
    },
    async stop(): Promise<void> {
      controller.abort();
      await running;
    },
  };
}

describe.each(targets)("ToolCallProcessor across restarts ($name)", (target) => {
  const calls: CallSpec[] = [
    ["call_count", "counter", {}],
    ["call_write", "file-write", { path: "a.txt", content: "once" }],
    ["call_bad", "file-read", {}],
  ];

  it("a call completed by a first processor is not executed again by a second one; its stored result is answered", async () => {
    const { calls: store } = await target.open();
    const config = {
      approvalHandler: recordingHandler(() => ApprovalDecision.approve()),
      workspacePath: workspace.root,
      store,
    };
    const batch = openAIBatch(calls);
    await new ToolCallProcessor({ executor: makeExecutor(tools), ...config }).process(batch);
    const firstAnswer = toProviderMessages(batch, "openai-chat");
    expect(tools.counter.executeCallCount).toBe(1);
    expect(tools.log.writes).toHaveLength(1);

    const handler = recordingHandler(() => ApprovalDecision.approve());
    const second = makeProcessor({
      executor: makeExecutor(tools),
      ...config,
      approvalHandler: handler,
    });
    await second.processor.process(batch);
    expect(tools.counter.executeCallCount).toBe(1);
    expect(tools.log.writes).toHaveLength(1);
    expect(handler.prompts).toHaveLength(0);
    expect(second.transitions).toEqual([]);
    expect(toProviderMessages(batch, "openai-chat")).toEqual(firstAnswer);
  });

  it("the same response parsed again after a restart (new request ids, same call ids) is answered from the store", async () => {
    const opened = await target.open();
    const response = openAIResponse(calls);
    const first = parseToolCalls(response, { format: "openai-chat" });
    await new ToolCallProcessor({
      executor: makeExecutor(tools),
      approvalHandler: recordingHandler(() => ApprovalDecision.approve()),
      workspacePath: workspace.root,
      store: opened.calls,
    }).process(first);
    const firstAnswer = toProviderMessages(first, "openai-chat");

    const { calls: store } = await opened.restart();
    const again = parseToolCalls(response, { format: "openai-chat" });
    expect(again.calls[0]!.id).not.toBe(first.calls[0]!.id);
    const handler = recordingHandler(() => ApprovalDecision.approve());
    await new ToolCallProcessor({
      executor: makeExecutor(tools),
      approvalHandler: handler,
      workspacePath: workspace.root,
      store,
    }).process(again);
    expect(tools.counter.executeCallCount).toBe(1);
    expect(tools.log.writes).toHaveLength(1);
    expect(handler.prompts).toHaveLength(0);
    expect(again.allCompleted).toBe(true);
    expect(again.getLifecycle(again.calls[0]!)?.id).toBe(again.calls[0]!.id);
    expect(toProviderMessages(again, "openai-chat")).toEqual(firstAnswer);
  });

  it("a stored call is reused only for the same tool and arguments", async () => {
    const { calls: store } = await target.open();
    const processor = new ToolCallProcessor({ executor: makeExecutor(tools), store });
    await processor.process(openAIBatch([["call_1", "counter", { n: 1 }]]));
    await processor.process(openAIBatch([["call_1", "counter", { n: 2 }]]));
    expect(tools.counter.executedParameters).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it("a call left awaiting approval when the process died is pending after the restart", async () => {
    const opened = await target.open();
    const controller = new AbortController();
    const dying = makeToolsProcessor(tools, silentHandler(), {
      store: opened.calls,
      sessionId: "conv-1",
    });
    const batch = openAIBatch([
      ["call_wait", "risky-counter", { n: 1 }],
      ["call_safe", "counter", {}],
    ]);
    const running = dying.processor.process(batch, controller.signal);
    await waitFor(
      async () =>
        (await opened.calls.get("call_wait", "conv-1"))?.record.status === "AwaitingApproval",
    );

    // The process "dies" here: a new processor starts over what was stored.
    const { calls: store } = await opened.restart();
    const restarted = new ToolCallProcessor({ executor: makeExecutor(tools), store });
    const pending = await restarted.pendingApprovals();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toBeInstanceOf(ToolCallLifecycle);
    expect(pending[0]!.status).toBe(ToolCallStatus.AwaitingApproval);
    expect(pending[0]!.request).toMatchObject({
      providerCallId: "call_wait",
      toolId: "risky-counter",
      parameters: { n: 1 },
    });
    expect((await store.get("call_wait", "conv-1"))?.sessionId).toBe("conv-1");
    // Its id belongs to its session: another session does not see it.
    expect(await store.get("call_wait")).toBeUndefined();

    // Processing the batch again asks again, and runs it once approved.
    const handler = recordingHandler(() => ApprovalDecision.approve());
    const resumed = new ToolCallProcessor({
      executor: makeExecutor(tools),
      approvalHandler: handler,
      store,
      sessionId: "conv-1",
    });
    await resumed.process(batch);
    expect(handler.prompts).toHaveLength(1);
    expect(tools.riskyCounter.executeCallCount).toBe(1);
    expect(await resumed.pendingApprovals()).toEqual([]);

    controller.abort();
    await running;
  });

  it("a record left Executing is marked Failed as interrupted, and the call is not run again", async () => {
    const opened = await target.open();
    const call = await startBlockingCall(opened.calls);
    expect((await opened.calls.get("call_block"))?.record.status).toBe(ToolCallStatus.Executing);

    const { calls: store } = await opened.restart();
    await store.markInterrupted();
    const stored = await store.get("call_block");
    expect(stored?.record.status).toBe(ToolCallStatus.Failed);
    expect(stored?.record.errorMessage).toBe(interruptedCallMessage);
    expect(stored?.record.transitions.at(-1)).toMatchObject({
      from: ToolCallStatus.Executing,
      to: ToolCallStatus.Failed,
    });
    expect(await store.markInterrupted()).toBe(0);

    const again = await call.resubmit(store);
    expect(call.blocking.executeCallCount).toBe(1);
    expect(again.getLifecycle(again.calls[0]!)?.status).toBe(ToolCallStatus.Failed);
    expect(toProviderMessages(again, "openai-chat")[0]!.content).toContain("Interrupted");
    await call.stop();
  });

  it("a record left Executing that nobody marked is never run again by the next processor", async () => {
    const opened = await target.open();
    const call = await startBlockingCall(opened.calls);
    const { calls: store } = await opened.restart();

    const again = await call.resubmit(store);
    expect(call.blocking.executeCallCount).toBe(1);
    expect(again.getLifecycle(again.calls[0]!)?.errorMessage).toBe(interruptedCallMessage);
    expect((await store.get("call_block"))?.record.status).toBe(ToolCallStatus.Failed);
    await call.stop();
  });

  it("the same call submitted again while it runs is refused, not run twice nor marked interrupted", async () => {
    const opened = await target.open();
    const call = await startBlockingCall(opened.calls);

    // A second processor on the same store, while the call runs.
    const again = await call.resubmit(opened.calls);
    const refused = again.getLifecycle(again.calls[0]!);
    expect(refused?.status).toBe(ToolCallStatus.Cancelled);
    expect(refused?.errorMessage).toContain("already being processed");
    expect(call.blocking.executeCallCount).toBe(1);
    expect((await opened.calls.get("call_block"))?.record.status).toBe(ToolCallStatus.Executing);

    await call.stop();
    const stored = await opened.calls.get("call_block");
    expect(stored?.record.errorMessage).not.toBe(interruptedCallMessage);
    expect(call.batch.getLifecycle(call.batch.calls[0]!)?.isTerminal).toBe(true);
  });

  it("a call executing under another open store on the same database is not marked interrupted", async () => {
    const opened = await target.open();
    if (opened.alongside === undefined) return; // memory stores are one per process
    const call = await startBlockingCall(opened.calls);

    const { calls: second } = await opened.alongside();
    const again = await call.resubmit(second);
    expect(again.getLifecycle(again.calls[0]!)?.status).toBe(ToolCallStatus.Cancelled);
    expect(call.blocking.executeCallCount).toBe(1);
    expect((await second.get("call_block"))?.record.status).toBe(ToolCallStatus.Executing);
    expect(await second.markInterrupted()).toBe(0);
    await call.stop();
  });

  it("a tool-scoped grant survives the restart: listed, used without asking, and revocable", async () => {
    const opened = await target.open();
    const first = new ToolCallProcessor({
      executor: makeExecutor(tools),
      approvalHandler: recordingHandler(() => ApprovalDecision.approve({ rememberForTool: true })),
      permissions: new RememberedPermissions({ store: opened.permissions }),
      workspacePath: workspace.root,
      approver: "ana",
    });
    await first.process(openAIBatch([["g1", "risky-counter", { n: 1 }]]));

    const { permissions } = await opened.restart();
    const [grant, ...others] = await permissions.list({ toolId: "risky-counter" });
    expect(others).toEqual([]);
    expect(grant).toMatchObject({ scope: "tool", toolId: "risky-counter", grantedBy: "ana" });

    const handler = recordingHandler(() => ApprovalDecision.deny("should not be asked"));
    const second = new ToolCallProcessor({
      executor: makeExecutor(tools),
      approvalHandler: handler,
      permissions: new RememberedPermissions({ store: permissions }),
      workspacePath: workspace.root,
    });
    await second.process(openAIBatch([["g2", "risky-counter", { n: 2 }]]));
    expect(handler.prompts).toHaveLength(0);
    expect(tools.riskyCounter.executeCallCount).toBe(2);

    expect(await permissions.revoke(grant!.id)).toBe(true);
    await second.process(openAIBatch([["g3", "risky-counter", { n: 3 }]]));
    expect(handler.prompts).toHaveLength(1);
    expect(tools.riskyCounter.executeCallCount).toBe(2);
  });

  it("every transition of a call is saved: the stored record ends as the lifecycle ends", async () => {
    const { calls: store } = await target.open();
    const batch = openAIBatch(calls);
    await new ToolCallProcessor({
      executor: makeExecutor(tools),
      approvalHandler: recordingHandler(() => ApprovalDecision.deny("no")),
      workspacePath: workspace.root,
      store,
      sessionId: "conv-2",
    }).process(batch);
    const stored = await store.list({ sessionId: "conv-2" });
    expect(stored.map((s) => s.callId).sort()).toEqual(["call_bad", "call_count", "call_write"]);
    for (const call of batch.calls) {
      const record = (await store.get(call.providerCallId!, "conv-2"))!.record;
      expect(record).toEqual(batch.getLifecycle(call)!.toRecord());
    }
    expect(
      (await store.list({ status: [ToolCallStatus.Denied, ToolCallStatus.ValidationFailed] })).map(
        (s) => s.callId,
      ),
    ).toEqual(expect.arrayContaining(["call_write", "call_bad"]));
  });
});

describe("ToolCallProcessor idempotency keys", () => {
  it("an id aintern synthesized is not an idempotency key: the same call in a later turn runs again", async () => {
    const store = new MemoryToolCallStore();
    const processor = new ToolCallProcessor({ executor: makeExecutor(tools), store });
    const gemini = {
      candidates: [
        { content: { role: "model", parts: [{ functionCall: { name: "counter", args: {} } }] } },
      ],
    };
    const turn1 = parseToolCalls(gemini, { format: "gemini" });
    const turn2 = parseToolCalls(gemini, { format: "gemini" });
    expect(turn1.calls[0]!.callIdSynthesized).toBe(true);
    expect(turn2.calls[0]!.providerCallId).toBe(turn1.calls[0]!.providerCallId);
    await processor.process(turn1);
    await processor.process(turn2);
    expect(tools.counter.executeCallCount).toBe(2);
  });

  it("a request built by hand is stored under its request id", async () => {
    const store = new MemoryToolCallStore();
    const request = ToolCallRequest.create("counter", "Counter", {}, 0);
    const { ToolCallBatch } = await import("../../src/calls/index.js");
    await new ToolCallProcessor({ executor: makeExecutor(tools), store }).process(
      ToolCallBatch.single(request, 0),
    );
    expect((await store.get(request.id))?.record.status).toBe(ToolCallStatus.Completed);
  });
});

describe("ToolCallProcessor with a failing store", () => {
  it("a store that cannot be read keeps the call from running: it is cancelled", async () => {
    const store = new MemoryToolCallStore();
    store.get = async () => {
      throw new Error("database is locked");
    };
    const batch = openAIBatch([["c1", "counter", {}]]);
    await new ToolCallProcessor({ executor: makeExecutor(tools), store }).process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.Cancelled);
    expect(lifecycle.errorMessage).toContain("database is locked");
    expect(tools.counter.executeCallCount).toBe(0);
  });

  it("a store that cannot save the Executing record keeps the tool from running", async () => {
    const store = new MemoryToolCallStore();
    const save = store.save.bind(store);
    store.save = async (call) => {
      if (call.record.status === ToolCallStatus.Executing) throw new Error("disk full");
      return save(call);
    };
    const batch = openAIBatch([["c1", "counter", {}]]);
    await new ToolCallProcessor({ executor: makeExecutor(tools), store }).process(batch);
    const lifecycle = batch.getLifecycle(batch.calls[0]!)!;
    expect(lifecycle.status).toBe(ToolCallStatus.Failed);
    expect(lifecycle.errorMessage).toContain("disk full");
    expect(tools.counter.executeCallCount).toBe(0);
    expect((await store.get("c1"))?.record.status).toBe(ToolCallStatus.Failed);
  });

  it("a store that cannot save the awaiting record cancels the call before anyone is asked", async () => {
    const store = new MemoryToolCallStore();
    const save = store.save.bind(store);
    store.save = async (call) => {
      if (call.record.status === ToolCallStatus.AwaitingApproval) throw new Error("read-only");
      return save(call);
    };
    const handler = recordingHandler(() => ApprovalDecision.approve());
    const batch = openAIBatch([["c1", "risky-counter", {}]]);
    await new ToolCallProcessor({
      executor: makeExecutor(tools),
      store,
      approvalHandler: handler,
    }).process(batch);
    expect(batch.getLifecycle(batch.calls[0]!)?.status).toBe(ToolCallStatus.Cancelled);
    expect(handler.prompts).toHaveLength(0);
    expect(tools.riskyCounter.executeCallCount).toBe(0);
  });
});

describe("MemoryToolCallStore and interruptRecord", () => {
  function record(status: "Executing" | "Completed") {
    const lifecycle = ToolCallLifecycle.forRequest(
      ToolCallRequest.create("counter", "Counter", { n: 1 }, 0),
    );
    lifecycle.startValidation();
    lifecycle.approve();
    lifecycle.startExecution();
    if (status === "Completed") lifecycle.complete(ToolResult.succeeded());
    return lifecycle.toRecord();
  }

  it("lists newest first, filtered by status, session and limit", async () => {
    const store = new MemoryToolCallStore();
    await store.save({ callId: "a", sessionId: "s1", record: record("Completed") });
    await store.save({ callId: "b", record: record("Executing") });
    await store.save({ callId: "c", sessionId: "s1", record: record("Executing") });
    expect((await store.list()).map((c) => c.callId)).toEqual(["c", "b", "a"]);
    expect((await store.list({ status: "Executing" })).map((c) => c.callId)).toEqual(["c", "b"]);
    expect((await store.list({ sessionId: "s1", limit: 1 })).map((c) => c.callId)).toEqual(["c"]);
    expect((await store.get("b"))?.sessionId).toBe("default");
    // Saving again moves a call to the front.
    await store.save({ callId: "a", sessionId: "s1", record: record("Completed") });
    expect((await store.list())[0]?.callId).toBe("a");
    expect(await store.markInterrupted()).toBe(2);
    expect(await store.list({ status: "Executing" })).toEqual([]);
  });

  it("returns copies: changing what get returned does not change the store", async () => {
    const store = new MemoryToolCallStore();
    await store.save({ callId: "a", record: record("Completed") });
    const got = await store.get("a");
    got!.record.status = "Failed";
    expect((await store.get("a"))?.record.status).toBe("Completed");
    expect(await store.get("missing")).toBeUndefined();
  });

  it("interruptRecord changes only an Executing record", () => {
    const at = new Date("2025-05-01T10:00:00Z");
    const done = record("Completed");
    expect(interruptRecord(done, at)).toBe(done);
    const failed = interruptRecord(record("Executing"), at);
    expect(failed).toMatchObject({
      status: "Failed",
      errorMessage: interruptedCallMessage,
      executionCompleted: at.toISOString(),
    });
    expect(ToolCallLifecycle.fromRecord(failed).failed).toBe(true);
  });

  it("a processor without a store has no pending approvals", async () => {
    expect(
      await new ToolCallProcessor({ executor: makeExecutor(tools) }).pendingApprovals(),
    ).toEqual([]);
  });
});
