import { describe, expect, it } from "vitest";
import { FinishedExecutions } from "../../src/execution/finished-executions.js";
import {
  ExecutionTracker,
  resolveExecutorOptions,
  type ToolExecutionEvent,
  ToolExecutionEventType,
} from "../../src/execution/index.js";
import { collect } from "./support.js";

/** A finished log of a plain success, as the executor writes it. */
function plainSuccess(executionId: string, startedAt = 1_700_000_000_000): ExecutionTracker {
  const tracker = new ExecutionTracker(executionId);
  tracker.record("Started", "read", "Execution started", 0, startedAt);
  tracker.record("InProgress", "read", "Executing tool", 0.25, startedAt + 1);
  tracker.record("Completed", "read", "Execution completed", 3.5, startedAt + 4);
  return tracker;
}

describe("FinishedExecutions", () => {
  it("replays a plain success kept as numbers with the same events as its tracker", async () => {
    const finished = new FinishedExecutions(10);
    const tracker = plainSuccess("a");
    finished.add(tracker);
    const replayed = finished.find("a");
    expect(replayed).not.toBe(tracker);
    expect(replayed?.finished).toBe(true);
    expect(await collect(replayed!.stream())).toEqual(await collect(tracker.stream()));
  });

  it("keeps any other log whole: failures, progress, warnings", async () => {
    const finished = new FinishedExecutions(10);
    const failed = new ExecutionTracker("f");
    failed.record("Started", "read", "Execution started", 0, 1);
    failed.record("Failed", "read", "boom", 2, 3, undefined, { status: "Failed" });
    const progress = plainSuccess("p");
    const withProgress = new ExecutionTracker("q");
    withProgress.record("Started", "read", "Execution started", 0, 1);
    withProgress.record("InProgress", "read", "half", 1, 2, 50);
    withProgress.record("Completed", "read", "Execution completed", 3, 4);
    finished.add(failed);
    finished.add(progress);
    finished.add(withProgress);
    expect(finished.find("f")).toBe(failed);
    expect(finished.find("q")).toBe(withProgress);
    const events: ToolExecutionEvent[] = await collect(finished.find("q")!.stream());
    expect(events[1]?.progressPercent).toBe(50);
  });

  it("drops the oldest when full and finds the newest run of a reused id", async () => {
    const finished = new FinishedExecutions(2);
    finished.add(plainSuccess("a", 1));
    finished.add(plainSuccess("b", 2));
    finished.add(plainSuccess("b", 3));
    expect(finished.find("a")).toBeUndefined();
    const events = await collect(finished.find("b")!.stream());
    expect(events[0]?.timestamp.getTime()).toBe(3);
  });

  it("keeps nothing with capacity 0", () => {
    const finished = new FinishedExecutions(0);
    finished.add(plainSuccess("a"));
    expect(finished.find("a")).toBeUndefined();
  });

  it("grows past its first allocation and still finds the first entries", async () => {
    const finished = new FinishedExecutions(5_000);
    for (let index = 0; index < 4_000; index++) finished.add(plainSuccess(`e${index}`, index));
    const first = await collect(finished.find("e0")!.stream());
    const last = await collect(finished.find("e3999")!.stream());
    expect(first[0]?.timestamp.getTime()).toBe(0);
    expect(last[0]?.timestamp.getTime()).toBe(3_999);
    expect(first.map((e) => e.eventType)).toEqual([
      ToolExecutionEventType.Started,
      ToolExecutionEventType.InProgress,
      ToolExecutionEventType.Completed,
    ]);
  });
});

describe("ExecutionTracker flat log", () => {
  it("gives back pushed events field for field", async () => {
    const tracker = new ExecutionTracker("x");
    const event: ToolExecutionEvent = {
      executionId: "x",
      toolName: "t",
      eventType: ToolExecutionEventType.Warning,
      timestamp: new Date(5),
      elapsedMs: 1.5,
      message: "careful",
      progressPercent: 10,
      data: { key: "value" },
    };
    tracker.push(event);
    expect(tracker.size).toBe(1);
    expect(tracker.eventAt(0)).toEqual(event);
  });

  it("is not a plain success when a message differs", () => {
    const tracker = new ExecutionTracker("x");
    tracker.record("Started", "t", "Execution started", 0, 1);
    tracker.record("InProgress", "t", "Working", 1, 2);
    tracker.record("Completed", "t", "Execution completed", 2, 3);
    expect(tracker.writeStandardTimes(new Float64Array(5), 0)).toBe(false);
  });
});

describe("retainFinishedExecutions", () => {
  it.each([2.5, Number.POSITIVE_INFINITY, -1, 1_000_001])("refuses %s", (value) => {
    expect(() => resolveExecutorOptions({ retainFinishedExecutions: value })).toThrow(
      /retainFinishedExecutions must be a whole number from 0 to 1,000,000/,
    );
  });
});
