import { describe, expect, it } from "vitest";
import {
  ExecutionTracker,
  isFinalEventType,
  type ToolExecutionEvent,
  ToolExecutionEventType,
} from "../../src/execution/index.js";
import { ToolResult } from "../../src/result/index.js";
import { MockTool } from "../../src/testing/index.js";
import { collect, deferred, executorWith, nextTurn, waitFor } from "./support.js";

function gated() {
  const gate = deferred();
  const tool = new MockTool({
    id: "gated",
    executeFunc: async () => {
      await gate.promise;
      return ToolResult.succeeded();
    },
  });
  return { gate, tool };
}

function event(type: ToolExecutionEventType, message?: string): ToolExecutionEvent {
  return {
    executionId: "x",
    toolName: "t",
    eventType: type,
    timestamp: new Date(),
    ...(message === undefined ? {} : { message }),
  };
}

describe("ToolExecutor.observe", () => {
  it("yields an execution's events in order and completes when it ends", async () => {
    const { gate, tool } = gated();
    const executor = executorWith([tool]);

    const task = executor.execute({ toolName: "gated" }, { executionId: "o1" });
    const observed = collect(executor.observe("o1"));
    gate.resolve();
    const [result, events] = await Promise.all([task, observed]);

    expect(events.map((e) => e.eventType)).toEqual(["Started", "InProgress", "Completed"]);
    expect(events.every((e) => e.executionId === "o1" && e.toolName === "gated")).toBe(true);
    const elapsed = events.map((e) => e.elapsedMs ?? -1);
    expect(elapsed).toEqual([...elapsed].sort((a, b) => a - b));
    expect(events.at(-1)?.timestamp.getTime()).toBeLessThanOrEqual(
      result.completedAt.getTime() + 1,
    );
  });

  it("gives a late subscriber the earlier events first", async () => {
    const { gate, tool } = gated();
    const executor = executorWith([tool]);
    const task = executor.execute({ toolName: "gated" }, { executionId: "o2" });
    await waitFor(() => tool.executeCallCount === 1);

    const iterator = executor.observe("o2")[Symbol.asyncIterator]();
    const first = await iterator.next();
    const second = await iterator.next();
    const pending = iterator.next();
    gate.resolve();
    const third = await pending;
    const end = await iterator.next();
    await task;

    expect([first.value?.eventType, second.value?.eventType, third.value?.eventType]).toEqual([
      "Started",
      "InProgress",
      "Completed",
    ]);
    expect(end.done).toBe(true);
  });

  it("serves several observers the same events", async () => {
    const { gate, tool } = gated();
    const executor = executorWith([tool]);

    const task = executor.execute({ toolName: "gated" }, { executionId: "o3" });
    const a = collect(executor.observe("o3"));
    const b = collect(executor.observe("o3"));
    gate.resolve();
    await task;

    expect((await a).map((e) => e.eventType)).toEqual((await b).map((e) => e.eventType));
    expect(await a).toHaveLength(3);
  });

  it("replays a finished execution's events and completes", async () => {
    const executor = executorWith([MockTool.succeeding("t")]);
    await executor.execute({ toolName: "t" }, { executionId: "done" });

    const events = await collect(executor.observe("done"));

    expect(events.map((e) => e.eventType)).toEqual(["Started", "InProgress", "Completed"]);
  });

  it("completes at once for an unknown id", async () => {
    const executor = executorWith([]);

    expect(await collect(executor.observe("never-seen"))).toEqual([]);
  });

  it("stops when the observer's signal aborts, while the execution goes on", async () => {
    const { gate, tool } = gated();
    const executor = executorWith([tool]);
    const controller = new AbortController();

    const task = executor.execute({ toolName: "gated" }, { executionId: "o4" });
    const observed = collect(executor.observe("o4", controller.signal));
    await waitFor(() => tool.executeCallCount === 1);
    controller.abort();
    const events = await observed;
    gate.resolve();

    expect(events.map((e) => e.eventType)).toEqual(["Started", "InProgress"]);
    expect((await task).status).toBe("completed");
  });

  it("keeps only the last retainFinishedExecutions finished executions for replay", async () => {
    const executor = executorWith([MockTool.succeeding("t")], {
      options: { retainFinishedExecutions: 2 },
    });
    for (const id of ["r1", "r2", "r3"]) {
      await executor.execute({ toolName: "t" }, { executionId: id });
    }

    expect(await collect(executor.observe("r1"))).toEqual([]);
    expect(await collect(executor.observe("r2"))).toHaveLength(3);
    expect(await collect(executor.observe("r3"))).toHaveLength(3);
  });

  it("replays the newest run of an id used again, and forgets it only once it is evicted", async () => {
    const executor = executorWith([MockTool.succeeding("t"), MockTool.failing("f")], {
      options: { retainFinishedExecutions: 3 },
    });
    await executor.execute({ toolName: "t" }, { executionId: "same" });
    await executor.execute({ toolName: "f" }, { executionId: "same" });
    await executor.execute({ toolName: "t" }, { executionId: "other" });

    const replay = await collect(executor.observe("same"));
    expect(replay.at(-1)?.eventType).toBe("Failed");
    await executor.execute({ toolName: "t" }, { executionId: "x1" });
    expect((await collect(executor.observe("same"))).at(-1)?.eventType).toBe("Failed");
    await executor.execute({ toolName: "t" }, { executionId: "x2" });
    expect(await collect(executor.observe("same"))).toEqual([]);
    expect(await collect(executor.observe("other"))).toHaveLength(3);
  });

  it("gives the Started event the execution's start time and the final event its end", async () => {
    const executor = executorWith([MockTool.succeeding("t")]);
    const result = await executor.execute({ toolName: "t" }, { executionId: "times" });
    const events = await collect(executor.observe("times"));
    expect(events[0]?.timestamp.getTime()).toBe(result.startedAt.getTime());
    expect(events.at(-1)?.timestamp.getTime()).toBe(result.completedAt.getTime());
  });

  it("replays nothing finished when retainFinishedExecutions is 0", async () => {
    const executor = executorWith([MockTool.succeeding("t")], {
      options: { retainFinishedExecutions: 0 },
    });
    await executor.execute({ toolName: "t" }, { executionId: "gone" });

    expect(await collect(executor.observe("gone"))).toEqual([]);
  });

  it("puts every per-execution event on the bus as executionEvent too", async () => {
    const executor = executorWith([MockTool.succeeding("t")]);
    const bus: ToolExecutionEvent[] = [];
    executor.events.on("executionEvent", (e) => bus.push(e));

    await executor.execute({ toolName: "t" }, { executionId: "b" });

    expect(bus).toEqual(await collect(executor.observe("b")));
  });
});

describe("ExecutionTracker", () => {
  it("ends its log at the first final event and ignores later pushes", async () => {
    const tracker = new ExecutionTracker("x");
    tracker.push(event(ToolExecutionEventType.Started));
    tracker.push(event(ToolExecutionEventType.Failed));
    tracker.push(event(ToolExecutionEventType.Completed));

    expect(tracker.finished).toBe(true);
    expect((await collect(tracker.stream())).map((e) => e.eventType)).toEqual([
      "Started",
      "Failed",
    ]);
  });

  it("can be finished without a final event, waking waiting observers", async () => {
    const tracker = new ExecutionTracker("x");
    tracker.push(event(ToolExecutionEventType.Started));
    const observed = collect(tracker.stream());
    await nextTurn();

    tracker.finish();
    tracker.finish();

    expect((await observed).map((e) => e.eventType)).toEqual(["Started"]);
  });

  it("lets an observer leave early without disturbing the others", async () => {
    const tracker = new ExecutionTracker("x");
    const early: ToolExecutionEvent[] = [];
    const stayed = collect(tracker.stream());
    const leaving = (async () => {
      for await (const e of tracker.stream()) {
        early.push(e);
        break;
      }
    })();
    tracker.push(event(ToolExecutionEventType.Started));
    await leaving;
    tracker.push(event(ToolExecutionEventType.Warning, "careful"));
    tracker.push(event(ToolExecutionEventType.Completed));

    expect(early).toHaveLength(1);
    expect((await stayed).map((e) => e.eventType)).toEqual(["Started", "Warning", "Completed"]);
  });

  it("returns at once for an observer whose signal is already aborted", async () => {
    const tracker = new ExecutionTracker("x");
    tracker.push(event(ToolExecutionEventType.Started));

    expect(await collect(tracker.stream(AbortSignal.abort()))).toHaveLength(1);
  });

  it("knows which event types are final", () => {
    const final = Object.values(ToolExecutionEventType).filter(isFinalEventType);
    expect(final).toEqual(["Completed", "Failed", "Timeout", "Cancelled"]);
  });
});
