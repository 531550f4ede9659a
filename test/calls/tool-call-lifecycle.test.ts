import { describe, expect, it, vi } from "vitest";
import {
  ApprovalDecision,
  allToolCallStatuses,
  canTransition,
  InvalidDecisionError,
  InvalidTransitionError,
  isTerminalToolCallStatus,
  ToolCallLifecycle,
  type ToolCallLifecycleRecord,
  ToolCallRequest,
  ToolCallStatus,
  type ToolCallTransition,
} from "../../src/calls/index.js";
import { AinternError, ToolErrorCode } from "../../src/core/index.js";
import { ToolArtifact, ToolResult, ToolResultBuilder } from "../../src/result/index.js";
import {
  ToolValidationError,
  ToolValidationResult,
  ToolValidationWarning,
} from "../../src/validation/index.js";

const S = ToolCallStatus;

/** A clock that returns the given instants in order, then repeats the last. */
function steppingClock(...isoTimes: string[]): () => Date {
  let i = 0;
  return () => new Date(isoTimes[Math.min(i++, isoTimes.length - 1)]!);
}

function request(parameters = { path: "a.txt" }): ToolCallRequest {
  return new ToolCallRequest({
    toolId: "file-read",
    toolName: "Read File",
    parameters,
    requestedAt: new Date("2025-01-01T00:00:00.000Z"),
  });
}

type Step = (l: ToolCallLifecycle) => void;
const toValidating: Step = (l) => l.startValidation();
const paths: Record<ToolCallStatus, Step[]> = {
  Parsed: [],
  Validating: [toValidating],
  ValidationFailed: [toValidating, (l) => l.failValidation("bad")],
  AwaitingApproval: [toValidating, (l) => l.requestApproval()],
  Approved: [toValidating, (l) => l.approve()],
  Denied: [toValidating, (l) => l.requestApproval(), (l) => l.deny(ApprovalDecision.deny("no"))],
  Executing: [toValidating, (l) => l.approve(), (l) => l.startExecution()],
  Completed: [
    toValidating,
    (l) => l.approve(),
    (l) => l.startExecution(),
    (l) => l.complete(ToolResult.succeeded("ok")),
  ],
  Failed: [toValidating, (l) => l.approve(), (l) => l.startExecution(), (l) => l.fail("boom")],
  TimedOut: [toValidating, (l) => l.approve(), (l) => l.startExecution(), (l) => l.timeout()],
  Cancelled: [(l) => l.cancel()],
};

function lifecycleIn(status: ToolCallStatus, config = {}): ToolCallLifecycle {
  const lifecycle = ToolCallLifecycle.forRequest(request(), config);
  for (const step of paths[status]) step(lifecycle);
  expect(lifecycle.status).toBe(status);
  return lifecycle;
}

/** The method that asks for a move to `to` (Parsed has none: nothing moves back to it). */
const moves: Record<Exclude<ToolCallStatus, "Parsed">, Step> = {
  Validating: (l) => l.startValidation(),
  ValidationFailed: (l) => l.failValidation("bad"),
  AwaitingApproval: (l) => l.requestApproval(),
  Approved: (l) =>
    l.approve(l.status === S.AwaitingApproval ? ApprovalDecision.approve() : undefined),
  Denied: (l) => l.deny(ApprovalDecision.deny("no")),
  Executing: (l) => l.startExecution(),
  Completed: (l) => l.complete(ToolResult.succeeded("ok")),
  Failed: (l) => l.fail("boom"),
  TimedOut: (l) => l.timeout(),
  Cancelled: (l) => l.cancel(),
};

function moveTo(lifecycle: ToolCallLifecycle, to: Exclude<ToolCallStatus, "Parsed">): void {
  moves[to](lifecycle);
}

// Spec 002's flow diagram, written out independently of the implementation.
const legal = new Set([
  "Parsed>Validating",
  "Validating>ValidationFailed",
  "Validating>AwaitingApproval",
  "Validating>Approved",
  "AwaitingApproval>Approved",
  "AwaitingApproval>Denied",
  "Approved>Executing",
  "Executing>Completed",
  "Executing>Failed",
  "Executing>TimedOut",
  "Parsed>Cancelled",
  "Validating>Cancelled",
  "AwaitingApproval>Cancelled",
  "Approved>Cancelled",
  "Executing>Cancelled",
]);

describe("ToolCallLifecycle state machine", () => {
  const pairs = allToolCallStatuses.flatMap((from) =>
    allToolCallStatuses.map((to) => ({ from, to, ok: legal.has(`${from}>${to}`) })),
  );

  it("has eleven states, six of them terminal", () => {
    expect(allToolCallStatuses).toHaveLength(11);
    expect(allToolCallStatuses.filter(isTerminalToolCallStatus)).toEqual([
      S.ValidationFailed,
      S.Denied,
      S.Completed,
      S.Failed,
      S.Cancelled,
      S.TimedOut,
    ]);
    expect(pairs).toHaveLength(121);
    expect(pairs.filter((p) => p.ok)).toHaveLength(15);
  });

  it.each(pairs)("$from -> $to is legal: $ok", ({ from, to, ok }) => {
    expect(canTransition(from, to)).toBe(ok);
    if (to === S.Parsed) return; // no method moves back to Parsed; canTransition says so above
    const events: ToolCallTransition[] = [];
    const lifecycle = lifecycleIn(from);
    expect(lifecycle.canMoveTo(to)).toBe(ok);
    lifecycle.onTransition((t) => events.push(t));
    if (ok) {
      moveTo(lifecycle, to);
      expect(lifecycle.status).toBe(to);
      expect(events.map((e) => `${e.from}>${e.to}`)).toEqual([`${from}>${to}`]);
    } else {
      const before = lifecycle.toRecord();
      let thrown: unknown;
      try {
        moveTo(lifecycle, to);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidTransitionError);
      const error = thrown as InvalidTransitionError;
      expect(error.code).toBe("INVALID_TRANSITION");
      expect(AinternError.isInstance(error)).toBe(true);
      expect(error.from).toBe(from);
      expect(error.to).toBe(to);
      expect(error.message).toContain(`from ${from} to ${to}`);
      expect(lifecycle.toRecord()).toEqual(before);
      expect(events).toEqual([]);
    }
  });

  it("explains an illegal move from a terminal state and from a live one", () => {
    const done = lifecycleIn(S.Completed);
    expect(() => done.startExecution()).toThrow(/Completed is a terminal state/);
    const parsed = lifecycleIn(S.Parsed);
    expect(() => parsed.startExecution()).toThrow(
      /from Parsed a call can only move to Validating, Cancelled/,
    );
  });
});

describe("ToolCallLifecycle", () => {
  it("ToolCallLifecycle_StartExecution_SetsTimestamp: stamps the start from the clock", () => {
    const clock = steppingClock(
      "2025-01-01T00:00:01.000Z",
      "2025-01-01T00:00:02.000Z",
      "2025-01-01T00:00:03.000Z",
    );
    const lifecycle = ToolCallLifecycle.forRequest(request(), { clock });
    expect(lifecycle.executionStarted).toBeUndefined();
    lifecycle.startValidation();
    lifecycle.approve();
    lifecycle.startExecution();
    expect(lifecycle.status).toBe(S.Executing);
    expect(lifecycle.validationStarted).toEqual(new Date("2025-01-01T00:00:01.000Z"));
    expect(lifecycle.executionStarted).toEqual(new Date("2025-01-01T00:00:03.000Z"));
    expect(lifecycle.isActive).toBe(true);
    expect(lifecycle.durationMs).toBeUndefined();
  });

  it("ToolCallLifecycle_Complete_SetsResult: keeps the result and completion time", () => {
    const lifecycle = lifecycleIn(S.Executing);
    const result = ToolResult.succeeded({ lines: 3 }, "Read 3 lines");
    lifecycle.complete(result);
    expect(lifecycle.status).toBe(S.Completed);
    expect(lifecycle.result).toBe(result);
    expect(lifecycle.executionCompleted).toBeInstanceOf(Date);
    expect(lifecycle.succeeded).toBe(true);
    expect(lifecycle.failed).toBe(false);
    expect(lifecycle.isTerminal).toBe(true);
  });

  it("a completed call whose result is a failure has not succeeded", () => {
    const lifecycle = lifecycleIn(S.Executing);
    lifecycle.complete(ToolResult.failed("File not found", ToolErrorCode.PathNotFound));
    expect(lifecycle.succeeded).toBe(false);
    expect(lifecycle.failed).toBe(false);
  });

  it("ToolCallLifecycle_Duration_CalculatesCorrectly: end minus start, in ms", () => {
    const clock = steppingClock(
      "2025-01-01T00:00:00.100Z", // validating
      "2025-01-01T00:00:00.200Z", // awaiting approval
      "2025-01-01T00:00:00.900Z", // approved
      "2025-01-01T00:00:01.000Z", // executing
      "2025-01-01T00:00:03.250Z", // completed
    );
    const lifecycle = ToolCallLifecycle.forRequest(request(), { clock });
    lifecycle.startValidation();
    lifecycle.requestApproval();
    lifecycle.approve(
      ApprovalDecision.approve({ decidedAt: new Date("2025-01-01T00:00:00.800Z") }),
    );
    expect(lifecycle.durationMs).toBeUndefined();
    lifecycle.startExecution();
    lifecycle.complete(ToolResult.succeeded());
    expect(lifecycle.durationMs).toBe(2250);
    expect(lifecycle.approvalWaitMs).toBe(600);
    expect(lifecycle.totalDurationMs).toBe(3250);
    expect(lifecycle.endedAt).toEqual(new Date("2025-01-01T00:00:03.250Z"));
    expect(lifecycle.toString()).toBe(
      "ToolCallLifecycle(Read File, Status=Completed, Duration=2250ms)",
    );
  });

  it("measures a running lifecycle's total duration up to now", () => {
    const clock = steppingClock("2025-01-01T00:00:05.000Z");
    const lifecycle = ToolCallLifecycle.forRequest(request(), { clock });
    expect(lifecycle.totalDurationMs).toBe(5000);
    expect(lifecycle.endedAt).toBeUndefined();
    expect(lifecycle.approvalWaitMs).toBeUndefined();
    expect(lifecycle.toString()).toBe("ToolCallLifecycle(Read File, Status=Parsed, Duration=ms)");
  });

  it("ToolCallLifecycle_IsTerminal_CorrectForStatuses: true for exactly the six final states", () => {
    const expected: Record<ToolCallStatus, boolean> = {
      Parsed: false,
      Validating: false,
      ValidationFailed: true,
      AwaitingApproval: false,
      Approved: false,
      Denied: true,
      Executing: false,
      Completed: true,
      Failed: true,
      Cancelled: true,
      TimedOut: true,
    };
    for (const status of allToolCallStatuses) {
      expect(lifecycleIn(status).isTerminal, status).toBe(expected[status]);
    }
    expect(lifecycleIn(S.AwaitingApproval).isWaiting).toBe(true);
    expect(lifecycleIn(S.Validating).isActive).toBe(true);
    expect(lifecycleIn(S.Approved).isActive).toBe(false);
  });

  it("tracks auto-approval and explicit approval", () => {
    const auto = lifecycleIn(S.Approved);
    expect(auto.approvalRequired).toBe(false);
    expect(auto.wasAutoApproved).toBe(true);
    expect(auto.isApproved).toBe(true);
    expect(auto.approvalDecision).toBeUndefined();

    const asked = lifecycleIn(S.AwaitingApproval);
    expect(asked.approvalRequired).toBe(true);
    expect(asked.isApproved).toBe(false);
    expect(asked.approvalRequested).toBeInstanceOf(Date);
    const decision = ApprovalDecision.approve();
    asked.approve(decision);
    expect(asked.approvalDecision).toBe(decision);
    expect(asked.wasAutoApproved).toBe(false);
    expect(asked.isApproved).toBe(true);
    expect(asked.wasDenied).toBe(false);

    const denied = lifecycleIn(S.Denied);
    expect(denied.wasDenied).toBe(true);
    expect(denied.isApproved).toBe(false);
  });

  it("runs with the parameters a person edited", () => {
    const lifecycle = lifecycleIn(S.AwaitingApproval);
    expect(lifecycle.effectiveParameters).toEqual({ path: "a.txt" });
    lifecycle.approve(ApprovalDecision.approveWithModifications({ path: "b.txt" }));
    expect(lifecycle.effectiveParameters).toEqual({ path: "b.txt" });
    expect(lifecycle.request.parameters).toEqual({ path: "a.txt" });
  });

  it("refuses decisions that do not fit", () => {
    const awaiting = lifecycleIn(S.AwaitingApproval);
    const expectDecisionError = (fn: () => void, pattern: RegExp) => {
      let thrown: unknown;
      try {
        fn();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidDecisionError);
      expect((thrown as InvalidDecisionError).code).toBe("INVALID_DECISION");
      expect((thrown as Error).message).toMatch(pattern);
    };
    expectDecisionError(() => awaiting.approve(), /needs the person's decision/);
    expectDecisionError(() => awaiting.approve(ApprovalDecision.deny("x")), /denies/);
    expectDecisionError(
      () => awaiting.deny(ApprovalDecision.approve()),
      /deny was given an approval/,
    );
    const other = request();
    expectDecisionError(
      () => awaiting.approve(ApprovalDecision.approve().bindTo(other)),
      /answers request/,
    );
    const stale = ApprovalDecision.approve().bindTo(request({ path: "other.txt" }));
    const rebound = new ApprovalDecision({
      approved: true,
      requestId: awaiting.id,
      argumentsHash: stale.argumentsHash,
    });
    expectDecisionError(() => awaiting.approve(rebound), /other arguments/);
    expect(awaiting.status).toBe(S.AwaitingApproval);

    awaiting.approve(ApprovalDecision.approve().bindTo(awaiting.request));
    expect(awaiting.status).toBe(S.Approved);
  });

  it("records failure, timeout and cancellation messages", () => {
    const failing = lifecycleIn(S.Executing);
    const cause = new Error("ENOENT");
    failing.fail("Could not read", cause);
    expect(failing.errorMessage).toBe("Could not read");
    expect(failing.exception).toBe(cause);
    expect(failing.failed).toBe(true);

    const slow = lifecycleIn(S.TimedOut);
    expect(slow.errorMessage).toBe("Tool execution timed out");
    expect(slow.failed).toBe(true);

    expect(lifecycleIn(S.Cancelled).errorMessage).toBe("Tool execution was cancelled");
    const waiting = lifecycleIn(S.AwaitingApproval);
    waiting.cancel("User closed the session");
    expect(waiting.errorMessage).toBe("User closed the session");
    expect(waiting.executionCompleted).toBeInstanceOf(Date);
    expect(waiting.durationMs).toBeUndefined();

    const invalid = lifecycleIn(S.ValidationFailed);
    expect(invalid.errorMessage).toBe("bad");
    expect(invalid.failed).toBe(true);
  });

  it("emits one transition event per move, after the move, and survives a throwing listener", () => {
    const seen: string[] = [];
    const onListenerError = vi.fn();
    const lifecycle = ToolCallLifecycle.forRequest(request(), {
      onTransition: (t) => seen.push(`${t.from}>${t.to}@${t.lifecycle.status}:${t.toolId}`),
      onListenerError,
    });
    const off = lifecycle.onTransition(() => {
      throw new Error("listener bug");
    });
    lifecycle.startValidation();
    expect(onListenerError).toHaveBeenCalledTimes(1);
    off();
    lifecycle.requestApproval();
    expect(onListenerError).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([
      "Parsed>Validating@Validating:file-read",
      "Validating>AwaitingApproval@AwaitingApproval:file-read",
    ]);
    expect(lifecycle.transitions.map((t) => t.to)).toEqual([S.Validating, S.AwaitingApproval]);
  });

  it("hands out copies of its dates", () => {
    const lifecycle = lifecycleIn(S.Validating);
    lifecycle.validationStarted!.setFullYear(1999);
    lifecycle.transitions[0]!.at.setFullYear(1999);
    expect(lifecycle.validationStarted!.getFullYear()).not.toBe(1999);
    expect(lifecycle.transitions[0]!.at.getFullYear()).not.toBe(1999);
  });
});

describe("ToolCallLifecycle records", () => {
  it("round-trips every field through JSON", () => {
    const clock = steppingClock(
      "2025-01-01T00:00:01.000Z",
      "2025-01-01T00:00:02.000Z",
      "2025-01-01T00:00:03.000Z",
      "2025-01-01T00:00:04.000Z",
      "2025-01-01T00:00:05.000Z",
    );
    const validated = new ToolCallRequest({
      providerCallId: "call_1",
      toolId: "file-write",
      toolName: "Write File",
      iterationNumber: 2,
      parameters: { path: "a.txt", content: "hi" },
      rawJson: '{"path":"a.txt","content":"hi"}',
      validationResult: ToolValidationResult.validWithWarnings(
        ToolValidationWarning.deprecated("content", "text"),
      ),
      riskLevel: 2,
      executionSummary: "Write a.txt",
      warnings: ["Overwrites a.txt"],
      requiresApproval: true,
      requestedAt: new Date("2025-01-01T00:00:00.000Z"),
    });
    const lifecycle = ToolCallLifecycle.forRequest(validated, { clock });
    lifecycle.startValidation();
    lifecycle.requestApproval();
    lifecycle.approve(
      ApprovalDecision.approveWithModifications(
        { path: "b.txt", content: "hi" },
        { rememberForSession: true, decisionDurationMs: 900 },
      ).bindTo(validated),
    );
    lifecycle.startExecution();
    const result = ToolResultBuilder.create()
      .asSuccess()
      .withMessage("Wrote 2 bytes")
      .withData({ bytes: 2 })
      .withArtifact(ToolArtifact.custom("file", "b.txt", { description: "Written", isNew: true }))
      .withDuration(1000)
      .withSuggestion("Run the tests")
      .withTruncation(100)
      .withMetadata("encoding", "utf8")
      .build();
    lifecycle.complete(result);

    const record = JSON.parse(JSON.stringify(lifecycle.toRecord())) as ToolCallLifecycleRecord;
    expect(record.version).toBe(1);
    expect(record.status).toBe("Completed");
    expect(record.request.providerCallId).toBe("call_1");
    const restored = ToolCallLifecycle.fromRecord(record);

    // ToolArtifact cannot be given a timestamp, so a restored artifact is stamped anew.
    const withoutArtifactTimes = (r: ToolCallLifecycleRecord) => ({
      ...r,
      result: { ...r.result!, artifacts: r.result!.artifacts.map(({ timestamp: _, ...a }) => a) },
    });
    expect(withoutArtifactTimes(restored.toRecord())).toEqual(
      withoutArtifactTimes(lifecycle.toRecord()),
    );
    expect(restored.status).toBe(S.Completed);
    expect(restored.request.id).toBe(validated.id);
    expect(restored.request.validationResult?.warnings[0]?.message).toContain("deprecated");
    expect(restored.approvalDecision?.modifiedParameters).toEqual({ path: "b.txt", content: "hi" });
    expect(restored.approvalDecision?.mismatch(restored.request)).toBeUndefined();
    expect(restored.effectiveParameters).toEqual({ path: "b.txt", content: "hi" });
    expect(restored.result?.toLlmContext()).toBe(result.toLlmContext());
    expect(restored.durationMs).toBe(1000);
    expect(restored.approvalWaitMs).toBe(lifecycle.approvalWaitMs);
    expect(restored.transitions).toEqual(lifecycle.transitions);
  });

  it("restores a live lifecycle that can carry on, and keeps failures and exceptions", () => {
    const executing = lifecycleIn(S.Executing);
    const restored = ToolCallLifecycle.fromRecord(executing.toRecord());
    expect(restored.status).toBe(S.Executing);
    restored.fail("Process restarted", new TypeError("lost"));
    const again = ToolCallLifecycle.fromRecord(restored.toRecord());
    expect(again.errorMessage).toBe("Process restarted");
    expect(again.exception).toBeInstanceOf(Error);
    expect((again.exception as Error).name).toBe("TypeError");
    expect((again.exception as Error).message).toBe("lost");
    expect(() => again.cancel()).toThrow(InvalidTransitionError);

    const thrownString = lifecycleIn(S.Executing);
    thrownString.fail("odd", "a string was thrown");
    expect(thrownString.toRecord().exception).toEqual({
      name: "Error",
      message: "a string was thrown",
    });
  });

  it("keeps an invalid request's validation errors and a failed result", () => {
    const invalid = new ToolCallRequest({
      toolId: "t",
      validationResult: ToolValidationResult.invalid(
        ToolValidationError.typeMismatch("depth", "integer", "string", "3"),
      ),
    });
    const lifecycle = ToolCallLifecycle.forRequest(invalid);
    lifecycle.startValidation();
    lifecycle.approve();
    lifecycle.startExecution();
    lifecycle.complete(ToolResult.failed("nope", "Custom"));
    const restored = ToolCallLifecycle.fromRecord(lifecycle.toRecord());
    expect(restored.request.isValid).toBe(false);
    expect(restored.request.validationErrors).toEqual(invalid.validationErrors);
    expect(restored.result?.success).toBe(false);
    expect(restored.result?.errorCode).toBe("Custom");
  });

  it("names the result when a record's result is not a tool result", () => {
    const good = lifecycleIn(S.Parsed).toRecord();
    const record = { ...good, result: { success: true, durationMs: -1 } };
    expect(() =>
      ToolCallLifecycle.fromRecord(record as unknown as ToolCallLifecycleRecord),
    ).toThrow(
      /its result is not a tool result \(Invalid result JSON: 'durationMs' has the wrong type\)/,
    );
  });

  it("refuses records that are not lifecycle records", () => {
    const good = lifecycleIn(S.Parsed).toRecord();
    const bad: unknown[] = [
      null,
      { ...good, version: 2 },
      { ...good, status: "Paused" },
      { ...good, request: undefined },
      { ...good, request: { ...good.request, riskLevel: 9 } },
      { ...good, request: { ...good.request, parameters: [1] } },
      { ...good, request: { ...good.request, requestedAt: "yesterday" } },
      { ...good, transitions: [{ from: "Parsed", to: "Nowhere", at: good.request.requestedAt }] },
      { ...good, result: { success: "yes" } },
      { ...good, result: { success: true, artifacts: [{ type: "file" }] } },
    ];
    for (const record of bad) {
      expect(() => ToolCallLifecycle.fromRecord(record as ToolCallLifecycleRecord)).toThrow(
        expect.objectContaining({ code: "INVALID_RECORD" }),
      );
    }
  });
});
