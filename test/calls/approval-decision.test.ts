import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApprovalDecision, hashToolCallArguments, ToolCallRequest } from "../../src/calls/index.js";

describe("ApprovalDecision", () => {
  it("ApprovalDecision_Approve_SetsApprovedTrue: approves, with remember options", () => {
    const plain = ApprovalDecision.approve();
    expect(plain.approved).toBe(true);
    expect(plain.denied).toBe(false);
    expect(plain.shouldRemember).toBe(false);
    expect(plain.reason).toBeUndefined();
    expect(plain.toString()).toBe("Approved");

    const remembered = ApprovalDecision.approve({
      rememberForSession: true,
      rememberPattern: "src/**/*.ts",
      decisionDurationMs: 1200,
    });
    expect(remembered.approved).toBe(true);
    expect(remembered.rememberForSession).toBe(true);
    expect(remembered.rememberForTool).toBe(false);
    expect(remembered.rememberPattern).toBe("src/**/*.ts");
    expect(remembered.shouldRemember).toBe(true);
    expect(remembered.decisionDurationMs).toBe(1200);
    expect(remembered.toString()).toBe("Approved (remembered)");
    expect(ApprovalDecision.approve({ rememberForTool: true }).shouldRemember).toBe(true);
  });

  it("ApprovalDecision_Deny_SetsReasonCorrectly: denies with the reason the model will see", () => {
    const decision = ApprovalDecision.deny("Do not touch the lockfile");
    expect(decision.approved).toBe(false);
    expect(decision.denied).toBe(true);
    expect(decision.reason).toBe("Do not touch the lockfile");
    expect(decision.toString()).toBe("Denied: Do not touch the lockfile");
    expect(ApprovalDecision.deny().toString()).toBe("Denied: no reason");
  });

  it("ApprovalDecision_Timeout_HasCorrectReason: a timeout is a denial", () => {
    const decision = ApprovalDecision.timeout();
    expect(decision.approved).toBe(false);
    expect(decision.reason).toBe("Approval request timed out");
    const cancelled = ApprovalDecision.cancelled();
    expect(cancelled.approved).toBe(false);
    expect(cancelled.reason).toBe("Request was cancelled");
  });

  it("approves with modified parameters, which are frozen copies", () => {
    const edited = { path: "safe.txt" };
    const decision = ApprovalDecision.approveWithModifications(edited, {
      rememberForSession: true,
    });
    expect(decision.approved).toBe(true);
    expect(decision.parametersModified).toBe(true);
    expect(decision.modifiedParameters).toEqual({ path: "safe.txt" });
    expect(decision.rememberForSession).toBe(true);
    expect(Object.isFrozen(decision.modifiedParameters)).toBe(true);
    expect(Object.isFrozen(edited)).toBe(false);
    expect(ApprovalDecision.approve().parametersModified).toBe(false);
  });

  it("records when it was decided, defaulting to now", () => {
    const before = Date.now();
    const decision = ApprovalDecision.deny("no");
    expect(decision.decidedAt.getTime()).toBeGreaterThanOrEqual(before);
    const at = new Date("2025-05-05T00:00:00Z");
    expect(ApprovalDecision.timeout({ decidedAt: at }).decidedAt).toEqual(at);
    expect(Object.isFrozen(decision)).toBe(true);
  });

  it("binds to a request and its arguments, and reports mismatches", () => {
    const request = ToolCallRequest.create("file-write", "Write", { path: "a.txt", b: 1 }, 0);
    const bound = ApprovalDecision.approve({ rememberForSession: true }).bindTo(request);
    expect(bound.requestId).toBe(request.id);
    expect(bound.argumentsHash).toBe(hashToolCallArguments({ b: 1, path: "a.txt" }));
    expect(bound.rememberForSession).toBe(true);
    expect(bound.mismatch(request)).toBeUndefined();

    const other = ToolCallRequest.create("file-write", "Write", { path: "a.txt", b: 1 }, 0);
    expect(bound.mismatch(other)).toContain(`not ${other.id}`);
    const changedArgs = request.withParameters({ path: "b.txt", b: 1 });
    expect(bound.mismatch(changedArgs)).toContain("other arguments");
    expect(ApprovalDecision.deny("x").mismatch(other)).toBeUndefined();
  });
});

describe("hashToolCallArguments", () => {
  it("is SHA-256 of canonical JSON: sorted keys, no whitespace", () => {
    const expected = createHash("sha256")
      .update('{"a":[1,{"c":3,"d":null}],"b":"x"}')
      .digest("hex");
    expect(hashToolCallArguments({ b: "x", a: [1, { d: null, c: 3 }] })).toBe(expected);
    expect(hashToolCallArguments({ b: "x", a: [1, { c: 3, d: null }] })).toBe(expected);
  });

  it("writes the canonical form of nested, unordered and numeric-looking keys as sorted text", () => {
    const parameters = JSON.parse(
      '{"b": {"z": [3, {"y": 1, "x": "é"}], "10": 1, "9": 2}, "A": [], "a": {}, "": "\u2028"}',
    );
    const expected = createHash("sha256")
      .update('{"":"\u2028","A":[],"a":{},"b":{"10":1,"9":2,"z":[3,{"x":"é","y":1}]}}')
      .digest("hex");
    expect(hashToolCallArguments(parameters)).toBe(expected);
  });

  it("differs for different arguments and keeps __proto__ as a plain key", () => {
    expect(hashToolCallArguments({ a: 1 })).not.toBe(hashToolCallArguments({ a: 2 }));
    expect(hashToolCallArguments({ a: [1, 2] })).not.toBe(hashToolCallArguments({ a: [2, 1] }));
    const withProto = JSON.parse('{"__proto__": {"x": 1}}');
    const expected = createHash("sha256").update('{"__proto__":{"x":1}}').digest("hex");
    expect(hashToolCallArguments(withProto)).toBe(expected);
  });
});
