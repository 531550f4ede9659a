import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ApprovalDecision } from "../../src/calls/index.js";
import {
  createSampleWorkspace,
  flagApprovalHandler,
  readRecordedResponse,
  runTurn,
} from "../../src/cli/index.js";

const recording = join(import.meta.dirname, "../../examples/recorded/openai-agent-turn.json");
const cleanup: string[] = [];

afterEach(async () => {
  for (const path of cleanup.splice(0)) await rm(path, { recursive: true, force: true });
});

async function setup() {
  const workspacePath = await createSampleWorkspace();
  const dir = await mkdtemp(join(tmpdir(), "aintern-turn-db-"));
  cleanup.push(workspacePath, dir);
  return { workspacePath, storeUrl: `sqlite:${join(dir, "audit.db")}` };
}

describe("runTurn", () => {
  it("answers every call of the recorded response and audits every execution", async () => {
    const { workspacePath, storeUrl } = await setup();
    const response = await readRecordedResponse(recording);
    const result = await runTurn({
      response,
      workspacePath,
      storeUrl,
      approvalHandler: flagApprovalHandler("none"),
    });
    const byId = new Map(result.statuses.map((s) => [s.callId, s.status]));
    expect(result.statuses).toHaveLength(9);
    expect(result.messages).toHaveLength(9);
    expect(byId.get("call_list_1")).toBe("Completed");
    expect(byId.get("call_read_2")).toBe("Completed");
    expect(byId.get("call_search_3")).toBe("Completed"); // trailing comma repaired
    expect(byId.get("call_write_4")).toBe("Completed"); // Low: runs without asking
    expect(byId.get("call_delete_6")).toBe("Denied"); // High: asked, --approve none
    expect(byId.get("call_install_9")).toBe("Denied"); // curl | sh: Critical
    expect(byId.get("call_typo_8")).toBe("ValidationFailed");
    const ids = (result.messages as { tool_call_id: string }[]).map((m) => m.tool_call_id);
    expect(new Set(ids).size).toBe(9);
    // Every call has its audit row: the executions, and the denied and invalid calls (which
    // never reached the executor) with their decision.
    const executed = result.auditRows.filter((r) => r.decision === "approved");
    expect(executed.map((r) => r.toolName).sort()).toEqual(
      [
        "file-read",
        "file-read",
        "file-write",
        "list-directory",
        "search",
        "terminal-execute",
      ].sort(),
    );
    const notRun = result.auditRows.filter((r) => r.decision !== "approved");
    expect(notRun.map((r) => [r.callId, r.decision]).sort()).toEqual(
      [
        ["call_delete_6", "denied"],
        ["call_install_9", "denied"],
        ["call_typo_8", "invalid"],
      ].sort(),
    );
    const outside = result.auditRows.find((r) => r.errorCode === "PathOutsideWorkspace");
    expect(outside?.toolName).toBe("file-read");
    expect(await readFile(join(workspacePath, "src/greeting.ts"), "utf8")).toContain("hello");
    expect(existsSync(join(workspacePath, "notes/old.md"))).toBe(true);
  });

  it("runs approved high-risk calls and never re-runs a completed call on a second turn", async () => {
    const { workspacePath, storeUrl } = await setup();
    const response = await readRecordedResponse(recording);
    let asked = 0;
    const approveDeletesOnly = {
      requestApproval(request: { toolId: string }) {
        asked++;
        return request.toolId === "file-delete"
          ? ApprovalDecision.approve({})
          : ApprovalDecision.deny("not this one");
      },
    };
    const first = await runTurn({
      response,
      workspacePath,
      storeUrl,
      approvalHandler: approveDeletesOnly as never,
    });
    expect(first.statuses.find((s) => s.callId === "call_delete_6")?.status).toBe("Completed");
    expect(existsSync(join(workspacePath, "notes/old.md"))).toBe(false);
    expect(asked).toBe(2);

    const second = await runTurn({
      response,
      workspacePath,
      storeUrl,
      approvalHandler: approveDeletesOnly as never,
    });
    expect(second.statuses.map((s) => s.status)).toEqual(first.statuses.map((s) => s.status));
    expect(second.auditRows).toHaveLength(0); // nothing executed again
    expect(asked).toBe(2);
  });
});
