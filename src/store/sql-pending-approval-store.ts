import type {
  DecideResult,
  NewPendingApproval,
  PendingApproval,
  PendingApprovalDecision,
  PendingApprovalFilter,
  PendingApprovalStore,
  PendingApprovalStatus as Status,
} from "../console/index.js";
import { isRiskLevel, RiskLevel, timeOrderedUuid } from "../core/index.js";
import { ConsoleTableStore } from "./console-table-store.js";
import { unstorableTextReason } from "./storable-text.js";
import type { PendingApprovalsTable } from "./store-tables.js";
import { fromStoredTime, toStoredTime } from "./stored-time.js";

/** Text as a key column holds it: unchanged when storable, else its JSON form (no NUL, no lone surrogate). */
export function storableKey(text: string): string {
  return unstorableTextReason(text) === undefined ? text : `json:${JSON.stringify(text)}`;
}

/** What `request_json` holds beside the request. */
interface RequestJson {
  request: Record<string, unknown>;
  details: PendingApproval["details"];
  preview?: PendingApproval["preview"];
}

/**
 * `store.approvals`: the `pending_approvals` table, one Kysely body for SQLite and PostgreSQL.
 * Every write raises the row's `changed_seq` (what other SQLite processes poll) and, on
 * PostgreSQL, NOTIFYs the store's channel in the same statement's transaction.
 */
export class SqlPendingApprovalStore extends ConsoleTableStore implements PendingApprovalStore {
  async open(approval: NewPendingApproval): Promise<PendingApproval> {
    this.state.check("approvals.open");
    const callKey = storableKey(approval.callKey);
    const now = new Date();
    const json: RequestJson = {
      request: {
        ...approval.request,
        requestedAt: approval.request.requestedAt.toISOString(),
      },
      details: approval.details,
      ...(approval.preview === undefined ? {} : { preview: approval.preview }),
    };
    const row = {
      id: timeOrderedUuid(),
      call_key: callKey,
      request_id: storableKey(approval.requestId),
      arguments_hash: approval.argumentsHash,
      session_id: approval.sessionId === undefined ? null : storableKey(approval.sessionId),
      tool_id: storableKey(approval.request.toolId),
      risk_level: approval.request.riskLevel,
      request_json: JSON.stringify(json),
      status: PendingApprovalStatus.Pending,
      decision_json: null,
      decided_by: null,
      decided_at: null,
      created_at: toStoredTime(this.dialect, now),
      expires_at: toStoredTime(this.dialect, approval.expiresAt),
      applied_at: null,
      owner: this.ownership.owner,
    };
    await this.db.transaction().execute(async (tx) => {
      const existing = await tx
        .selectFrom("pending_approvals")
        .select(["id", "status", "session_id", "tool_id", "expires_at"])
        .where("call_key", "=", callKey)
        .where("arguments_hash", "=", approval.argumentsHash)
        .executeTakeFirst();
      if (existing === undefined) {
        await tx
          .insertInto("pending_approvals")
          .values((eb) => ({ ...row, changed_seq: this.nextSeq(eb, "pending_approvals") }))
          // Another process may have asked about the same call meanwhile: its row stands.
          .onConflict((conflict) => conflict.columns(["call_key", "arguments_hash"]).doNothing())
          .execute();
      } else if (
        existing.status === PendingApprovalStatus.Pending &&
        fromStoredTime(existing.expires_at).getTime() <= now.getTime()
      ) {
        // Asked again after its expiry (its process was down when it ran out): it stays expired,
        // and the call is refused as timed out, not given a new waiting time.
        await tx
          .updateTable("pending_approvals")
          .set((eb) => ({
            status: PendingApprovalStatus.Expired,
            decided_at: toStoredTime(this.dialect, now),
            changed_seq: this.nextSeq(eb, "pending_approvals"),
          }))
          .where("id", "=", existing.id)
          .where("status", "=", PendingApprovalStatus.Pending)
          .execute();
      } else if (
        existing.status === PendingApprovalStatus.Pending &&
        existing.session_id === row.session_id &&
        existing.tool_id === row.tool_id
      ) {
        // The same call asked again (its process restarted): the row now names this asker. A
        // row of another session or tool that shares the call id is left as it is: the asker
        // is told (see ConsoleApprovalHandler) and it does not take over that row.
        await tx
          .updateTable("pending_approvals")
          .set((eb) => ({
            request_id: row.request_id,
            request_json: row.request_json,
            owner: row.owner,
            expires_at: row.expires_at,
            changed_seq: this.nextSeq(eb, "pending_approvals"),
          }))
          .where("id", "=", existing.id)
          .execute();
      }
      await this.notify(tx, "approvals");
    });
    this.feed.changed("approvals");
    const stored = await this.db
      .selectFrom("pending_approvals")
      .selectAll()
      .where("call_key", "=", callKey)
      .where("arguments_hash", "=", approval.argumentsHash)
      .executeTakeFirstOrThrow();
    return fromRow(stored);
  }

  async get(id: string): Promise<PendingApproval | undefined> {
    this.state.check("approvals.get");
    if (typeof id !== "string" || unstorableTextReason(id) !== undefined) return undefined;
    const row = await this.db
      .selectFrom("pending_approvals")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const [approval] = await this.#withLiveness([fromRow(row)]);
    return approval;
  }

  async list(filter: PendingApprovalFilter = {}): Promise<PendingApproval[]> {
    this.state.check("approvals.list");
    let query = this.db.selectFrom("pending_approvals").selectAll();
    if (filter.status !== undefined) query = query.where("status", "=", filter.status);
    if (filter.sessionId !== undefined) {
      query = query.where("session_id", "=", storableKey(filter.sessionId));
    }
    if (filter.callKey !== undefined)
      query = query.where("call_key", "=", storableKey(filter.callKey));
    const limit = Math.max(1, Math.min(filter.limit ?? 200, 1000));
    const rows = await query
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(limit)
      .execute();
    return this.#withLiveness(rows.map(fromRow));
  }

  async decide(
    id: string,
    decision: PendingApprovalDecision,
    decidedBy: string,
  ): Promise<DecideResult> {
    this.state.check("approvals.decide");
    const current = await this.get(id);
    if (current === undefined) return { ok: false, problem: "No such pending approval." };
    if (current.status !== PendingApprovalStatus.Pending) {
      return { ok: false, problem: `This call was already ${current.status}.`, approval: current };
    }
    const now = new Date();
    if (current.expiresAt.getTime() <= now.getTime()) {
      await this.expire(id);
      return {
        ok: false,
        problem: "This approval expired before the decision; the call was denied as timed out.",
        approval: (await this.get(id)) ?? current,
      };
    }
    const record: PendingApprovalDecision = {
      ...decision,
      decisionDurationMs: Math.max(0, now.getTime() - current.createdAt.getTime()),
    };
    const changed = await this.db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable("pending_approvals")
        .set((eb) => ({
          status: decision.approved ? PendingApprovalStatus.Approved : PendingApprovalStatus.Denied,
          decision_json: JSON.stringify(record),
          decided_by: storableKey(decidedBy),
          decided_at: toStoredTime(this.dialect, now),
          changed_seq: this.nextSeq(eb, "pending_approvals"),
        }))
        .where("id", "=", id)
        .where("status", "=", PendingApprovalStatus.Pending)
        .executeTakeFirst();
      await this.notify(tx, "approvals");
      return Number(result.numUpdatedRows) > 0;
    });
    this.feed.changed("approvals");
    const after = (await this.get(id)) ?? current;
    if (!changed)
      return { ok: false, problem: `This call was already ${after.status}.`, approval: after };
    return { ok: true, approval: after };
  }

  async expire(id: string): Promise<boolean> {
    this.state.check("approvals.expire");
    if (typeof id !== "string" || unstorableTextReason(id) !== undefined) return false;
    const changed = await this.db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable("pending_approvals")
        .set((eb) => ({
          status: PendingApprovalStatus.Expired,
          decided_at: toStoredTime(this.dialect, new Date()),
          changed_seq: this.nextSeq(eb, "pending_approvals"),
        }))
        .where("id", "=", id)
        .where("status", "=", PendingApprovalStatus.Pending)
        .executeTakeFirst();
      await this.notify(tx, "approvals");
      return Number(result.numUpdatedRows) > 0;
    });
    if (changed) this.feed.changed("approvals");
    return changed;
  }

  async claim(id: string): Promise<boolean> {
    this.state.check("approvals.claim");
    if (typeof id !== "string" || unstorableTextReason(id) !== undefined) return false;
    const result = await this.db
      .updateTable("pending_approvals")
      .set((eb) => ({
        applied_at: toStoredTime(this.dialect, new Date()),
        changed_seq: this.nextSeq(eb, "pending_approvals"),
      }))
      .where("id", "=", id)
      .where("applied_at", "is", null)
      .where("status", "in", [PendingApprovalStatus.Approved, PendingApprovalStatus.Denied])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async #withLiveness(approvals: PendingApproval[]): Promise<PendingApproval[]> {
    const owners = [
      ...new Set(
        approvals
          .filter((a) => a.status === PendingApprovalStatus.Pending || a.appliedAt === undefined)
          .map((a) => a.owner)
          .filter((o): o is string => o !== undefined),
      ),
    ];
    if (owners.length === 0) return approvals;
    const gone = await this.ownership.gone(owners).catch(() => new Set<string>());
    return approvals.map((a) =>
      a.owner !== undefined && gone.has(a.owner) ? { ...a, waiterGone: true } : a,
    );
  }
}

// Values, not an import: the store must not load the console (its server and libraries).
const PendingApprovalStatus = {
  Pending: "pending",
  Approved: "approved",
  Denied: "denied",
  Expired: "expired",
} as const satisfies Record<string, Status>;

function isPendingApprovalStatus(value: string): value is Status {
  return (Object.values(PendingApprovalStatus) as string[]).includes(value);
}

function fromRow(row: PendingApprovalsTable): PendingApproval {
  const json = JSON.parse(row.request_json) as RequestJson;
  const request = json.request;
  const risk = Number(row.risk_level);
  const riskLevel = isRiskLevel(risk) ? risk : RiskLevel.Medium;
  const decision =
    row.decision_json === null
      ? undefined
      : (JSON.parse(row.decision_json) as PendingApprovalDecision);
  return {
    id: row.id,
    callKey: row.call_key,
    requestId: row.request_id,
    argumentsHash: row.arguments_hash,
    ...(row.session_id === null ? {} : { sessionId: row.session_id }),
    toolId: row.tool_id,
    riskLevel,
    request: {
      ...(request as unknown as PendingApproval["request"]),
      riskLevel,
      warnings: Array.isArray(request.warnings) ? (request.warnings as string[]) : [],
      requestedAt: new Date(String(request.requestedAt)),
    },
    details: json.details,
    ...(json.preview === undefined ? {} : { preview: json.preview }),
    status: isPendingApprovalStatus(row.status) ? row.status : PendingApprovalStatus.Expired,
    ...(decision === undefined ? {} : { decision }),
    ...(row.decided_by === null ? {} : { decidedBy: row.decided_by }),
    ...(row.decided_at === null ? {} : { decidedAt: fromStoredTime(row.decided_at) }),
    createdAt: fromStoredTime(row.created_at),
    expiresAt: fromStoredTime(row.expires_at),
    ...(row.applied_at === null ? {} : { appliedAt: fromStoredTime(row.applied_at) }),
    ...(row.owner === null ? {} : { owner: row.owner }),
  };
}
