import { describe, expect, it } from "vitest";
import {
  AuditStatus,
  allAuditStatuses,
  auditStatusCode,
  auditStatusFromCode,
  isAuditStatus,
  ToolExecutionStatus,
} from "../../src/execution/index.js";
import { toAuditEntry } from "../../src/store/audit-row.js";

describe("AuditStatus", () => {
  it("keeps the integer codes the status column stores, in vocabulary order", () => {
    expect(allAuditStatuses.map((status) => [status, auditStatusCode(status)])).toEqual([
      ["pending", 0],
      ["inProgress", 1],
      ["completed", 2],
      ["failed", 3],
      ["cancelled", 4],
      ["timeout", 5],
      ["permissionDenied", 6],
      ["validationError", 7],
      ["requiresConfirmation", 8],
      ["denied", 9],
      ["interrupted", 10],
    ]);
  });

  it("is ToolExecutionStatus (same members, same strings) plus Interrupted", () => {
    const { Interrupted, ...executionStatuses } = AuditStatus;
    expect(executionStatuses).toEqual(ToolExecutionStatus);
    expect(Interrupted).toBe("interrupted");
    expect(Object.isFrozen(AuditStatus)).toBe(true);
  });

  it("maps codes back and rejects what is not a status", () => {
    for (const status of allAuditStatuses) {
      expect(auditStatusFromCode(auditStatusCode(status) as number)).toBe(status);
    }
    expect(auditStatusFromCode(11)).toBeUndefined();
    expect(auditStatusFromCode(1.5)).toBeUndefined();
    expect(auditStatusCode("constructor")).toBeUndefined();
    expect(isAuditStatus(AuditStatus.Denied)).toBe(true);
    expect(isAuditStatus("__proto__")).toBe(false);
    expect(isAuditStatus(2)).toBe(false);
  });

  it("reads a row with an unknown code or broken JSON without failing", () => {
    const entry = toAuditEntry({
      id: "x",
      execution_id: "e",
      tool_name: "t",
      status: 99,
      parameters_json: "{broken",
      metadata_json: "[1]",
      started_at: "2026-02-04T00:00:00.000Z",
      completed_at: "2026-02-04T00:00:01.000Z",
      duration_ms: "1000",
      output_size_bytes: "5",
      was_approved: 1,
      timed_out: "t",
      was_cancelled: 0,
    });
    expect(entry).toMatchObject({
      status: "failed",
      parameters: "{broken",
      metadata: null,
      durationMs: 1000,
      outputSizeBytes: 5,
      wasApproved: true,
      timedOut: true,
      wasCancelled: false,
    });
  });
});
