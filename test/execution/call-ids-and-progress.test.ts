import { describe, expect, it } from "vitest";
import {
  type ToolExecutionContext,
  ToolExecutionContextBuilder,
  type ToolProgress,
} from "../../src/context/index.js";
import {
  type ExecutionIds,
  LicenseTier,
  staticLicense,
  type ToolExecutionEvent,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { busLabel, collect, executorWith, recordBus } from "./support.js";

/** A tool that reports progress twice and returns the ids its context carries. */
function reporting(id = "report") {
  return new MockTool({
    id,
    executeFunc: async (context: ToolExecutionContext) => {
      context.reportProgress("half", 50);
      context.reportProgress("all", 100);
      return ToolResult.succeeded({
        toolCallId: context.toolCallId ?? null,
        sessionId: context.sessionId,
      });
    },
  });
}

function idsOf(event: object): ExecutionIds {
  const { executionId, callId, sessionId } = event as ExecutionIds;
  return {
    executionId,
    ...(callId === undefined ? {} : { callId }),
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}

describe("ToolExecutor: every event carries the call and session it belongs to", () => {
  it("puts the per-call callId and sessionId on every bus event, observed event and the tool's context", async () => {
    const executor = executorWith([reporting()]);
    const bus = recordBus(executor);

    const result = await executor.execute(
      { toolName: "report" },
      { executionId: "e1", callId: "call_1", sessionId: "s-1" },
    );
    const observed = await collect(executor.observe("e1"));

    const expected = { executionId: "e1", callId: "call_1", sessionId: "s-1" };
    expect(bus.map(busLabel)).toEqual([
      "executionEvent:Started",
      "toolExecutionStarted",
      "executionStarted",
      "executionEvent:InProgress",
      "executionEvent:InProgress",
      "executionProgress",
      "executionEvent:InProgress",
      "executionProgress",
      "executionEvent:Completed",
      "toolExecutionCompleted",
      "executionCompleted",
    ]);
    for (const record of bus) expect(idsOf(record.event)).toEqual(expected);
    expect(observed.map(idsOf)).toEqual(observed.map(() => expected));
    expect(result.result.data).toEqual({ toolCallId: "call_1", sessionId: "s-1" });
  });

  it("takes the ids from the ToolInput, the per-call options winning", async () => {
    const executor = executorWith([reporting()]);

    await executor.execute(
      { toolName: "report", callId: "from-input", sessionId: "input-session" },
      { executionId: "e2", callId: "from-options" },
    );
    const [started] = await collect(executor.observe("e2"));

    expect(started).toMatchObject({ callId: "from-options", sessionId: "input-session" });
  });

  it("takes the AIntern context's toolCallId and session, and leaves out the empty session", async () => {
    const executor = executorWith([reporting()]);
    const progress: ExecutionIds[] = [];
    executor.events.on("executionProgress", (e) => progress.push(idsOf(e)));
    const withIds = ToolExecutionContextBuilder.create()
      .withToolCallId("call_9")
      .withSessionId("conversation-3")
      .buildForTesting();
    const bare = ToolExecutionContextBuilder.create().buildForTesting();

    await executor.execute("report", withIds);
    await executor.execute("report", bare);
    const [first] = await collect(executor.observe(withIds.executionId));
    const [second] = await collect(executor.observe(bare.executionId));

    expect(first).toMatchObject({ callId: "call_9", sessionId: "conversation-3" });
    expect(second).not.toHaveProperty("callId");
    expect(second).not.toHaveProperty("sessionId");
    expect(progress[0]).toEqual({
      executionId: withIds.executionId,
      callId: "call_9",
      sessionId: "conversation-3",
    });
  });

  it("keeps the ids of a finished plain success it replays from its compact store", async () => {
    const executor = executorWith([MockTool.succeeding("plain")]);

    await executor.execute(
      { toolName: "plain" },
      { executionId: "e3", callId: "c3", sessionId: "s3" },
    );
    const replayed: ToolExecutionEvent[] = await collect(executor.observe("e3"));

    expect(replayed.map((e) => [e.eventType, e.callId, e.sessionId])).toEqual([
      ["Started", "c3", "s3"],
      ["InProgress", "c3", "s3"],
      ["Completed", "c3", "s3"],
    ]);
  });
});

describe("ToolExecutor: progress", () => {
  it("is on by default: without a license each report is an event and an executionProgress", async () => {
    const executor = executorWith([reporting()]);
    const progress: number[] = [];
    executor.events.on("executionProgress", (e) => progress.push(e.progress.percentComplete ?? -1));

    await executor.execute({ toolName: "report" }, { executionId: "p" });
    const events = await collect(executor.observe("p"));

    expect(progress).toEqual([50, 100]);
    expect(events.filter((e) => e.progressPercent !== undefined).map((e) => e.message)).toEqual([
      "half",
      "all",
    ]);
  });

  it("gives the tool's reports to the call's onProgress, whatever the tier, and survives one that throws", async () => {
    const executor = executorWith([reporting()], { license: staticLicense(LicenseTier.Core) });
    const seen: ToolProgress[] = [];

    const ok = await executor.execute({ toolName: "report" }, { onProgress: (p) => seen.push(p) });
    const throwing = await executor.execute(
      { toolName: "report" },
      {
        onProgress: () => {
          throw new Error("listener bug");
        },
      },
    );

    expect(seen.map((p) => [p.message, p.percentComplete])).toEqual([
      ["half", 50],
      ["all", 100],
    ]);
    expect([ok.status, throwing.status]).toEqual(["completed", "completed"]);
  });
});
