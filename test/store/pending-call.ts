import type { NewPendingApproval } from "../../src/console/index.js";
import { RiskLevel } from "../../src/core/index.js";

/** A call waiting for a person's approval, `n` telling calls apart (`call-<n>`, `req-<n>`, ...). */
export function pendingCall(n: string): NewPendingApproval {
  return {
    callKey: `call-${n}`,
    requestId: `req-${n}`,
    argumentsHash: `hash-${n}`,
    sessionId: `s-${n}`,
    request: {
      id: `req-${n}`,
      toolId: "file-write",
      toolName: "Write File",
      parameters: { path: `${n}.txt` },
      riskLevel: RiskLevel.Medium,
      executionSummary: "Write",
      warnings: [],
      requestedAt: new Date(),
    },
    details: { reason: "Medium Risk calls need approval", round: 1 },
    expiresAt: new Date(Date.now() + 60_000),
  };
}
