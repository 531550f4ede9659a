import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PendingApprovalStatus } from "../../src/console/index.js";
import { openStore } from "../../src/store/index.js";
import { postgresUrl } from "../store/store-targets.js";
import { AgentProcess, eventually } from "./console-helpers.js";

// The agent and the console in different processes on one store: the console here is the test
// process deciding through the same store the console server uses.

const folder = mkdtempSync(join(tmpdir(), "aintern-console-xproc-"));
const schemas: string[] = [];

afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  if (schemas.length === 0) return;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const targets = [
  {
    dialect: "sqlite",
    place: () => ({
      url: `sqlite:${join(folder, `${randomBytes(4).toString("hex")}.db`)}`,
      schema: undefined,
    }),
  },
  {
    dialect: "postgres",
    place: () => {
      const schema = `console_${randomBytes(4).toString("hex")}`;
      schemas.push(schema);
      return { url: postgresUrl, schema };
    },
  },
] as const;

describe.each(targets)("agent and console in two processes on $dialect", (target) => {
  it("approves a call another process waits on", async () => {
    const place = target.place();
    const workspace = join(folder, randomBytes(4).toString("hex"));
    mkdirSync(workspace);
    const store = await openStore(
      place.url,
      place.schema === undefined ? {} : { schema: place.schema },
    );
    const agent = new AgentProcess(place.url, workspace, "s-1", place.schema);
    try {
      await agent.ready;
      const answer = agent.call("x-1", "append-line", { line: "one" });
      const row = await eventually(
        async () =>
          (
            await store.approvals.list({ callKey: "x-1", status: PendingApprovalStatus.Pending })
          )[0],
      );
      const decided = await store.approvals.decide(row.id, { approved: true }, "tester");
      expect(decided.ok).toBe(true);
      expect((await answer).status).toBe("Completed");
      const after = await store.approvals.get(row.id);
      expect(after?.decidedBy).toBe("tester");
      expect(after?.appliedAt).toBeInstanceOf(Date);
    } finally {
      await agent.stop();
      await store.close();
    }
  }, 40_000);

  it("runs a call once when its agent was killed while waiting and the approval came meanwhile", async () => {
    const place = target.place();
    const workspace = join(folder, randomBytes(4).toString("hex"));
    mkdirSync(workspace);
    const store = await openStore(
      place.url,
      place.schema === undefined ? {} : { schema: place.schema },
    );
    const runs = () => {
      try {
        return readFileSync(join(workspace, "runs.log"), "utf8")
          .split("\n")
          .filter((l) => l !== "");
      } catch {
        return [];
      }
    };
    const first = new AgentProcess(place.url, workspace, "s-2", place.schema);
    await first.ready;
    void first.call("k-1", "append-line", { line: "once" });
    const row = await eventually(
      async () =>
        (await store.approvals.list({ callKey: "k-1", status: PendingApprovalStatus.Pending }))[0],
    );
    await first.kill();
    // The console shows that the waiting process is gone, and still takes the decision.
    await eventually(async () =>
      (await store.approvals.get(row.id))?.waiterGone === true ? true : undefined,
    );
    expect((await store.approvals.decide(row.id, { approved: true }, "tester")).ok).toBe(true);
    expect(runs()).toEqual([]);

    const second = new AgentProcess(place.url, workspace, "s-2", place.schema);
    await second.ready;
    const answer = await second.call("k-1", "append-line", { line: "once" });
    expect(answer.status).toBe("Completed");
    expect(runs()).toEqual(["once"]);
    // Given again, the call is answered from the store and not run again.
    const again = await second.call("k-1", "append-line", { line: "once" });
    expect(again.status).toBe("Completed");
    expect(runs()).toEqual(["once"]);

    // An approval that expires while its agent is down is refused, not run.
    void second.call("k-2", "append-line", { line: "late" });
    const late = await eventually(
      async () =>
        (await store.approvals.list({ callKey: "k-2", status: PendingApprovalStatus.Pending }))[0],
    );
    await second.kill();
    await store.approvals.expire(late.id);
    expect((await store.approvals.decide(late.id, { approved: true }, "tester")).ok).toBe(false);
    const third = new AgentProcess(place.url, workspace, "s-2", place.schema);
    try {
      await third.ready;
      const refused = await third.call("k-2", "append-line", { line: "late" });
      expect(refused.status).toBe("Denied");
      expect(refused.content).toContain("timed out");
      expect(runs()).toEqual(["once"]);
    } finally {
      await third.stop();
      await store.close();
    }
  }, 120_000);
});
