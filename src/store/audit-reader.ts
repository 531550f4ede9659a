import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from "kysely";
import type { AuditEntry, AuditFilter, AuditPage, AuditQuery } from "../execution/audit-log.js";
import { auditStatusCode } from "../execution/audit-status.js";
import { type AuditCursor, decodeAuditCursor, encodeAuditCursor } from "./audit-cursor.js";
import { cleanText, toAuditEntry } from "./audit-row.js";
import { InvalidAuditQueryError } from "./invalid-audit-query-error.js";
import type { StoreTables } from "./store-tables.js";

/** Page size when a query gives none. */
export const DEFAULT_AUDIT_LIMIT = 50;
/** The largest page a query may ask for. */
export const MAX_AUDIT_LIMIT = 1000;

type Builder = ExpressionBuilder<StoreTables, "tool_executions">;

/**
 * The read side of the audit log (get, query, count), one Kysely body for both dialects. The
 * given Kysely instance already points at the right table (PostgreSQL `withSchema`, SQLite
 * table prefix); `toTime` turns a Date into what the `started_at` column holds.
 */
export class AuditReader {
  readonly #db: Kysely<StoreTables>;
  readonly #toTime: (date: Date) => Date | string;

  constructor(db: Kysely<StoreTables>, toTime: (date: Date) => Date | string) {
    this.#db = db;
    this.#toTime = toTime;
  }

  async get(executionId: string): Promise<AuditEntry | undefined> {
    const row = await this.#db
      .selectFrom("tool_executions")
      .selectAll()
      .where("execution_id", "=", cleanText(String(executionId)))
      .orderBy("started_at", "desc")
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    return row === undefined ? undefined : toAuditEntry(row);
  }

  async query(query: AuditQuery = {}): Promise<AuditPage> {
    const limit = checkLimit(query.limit);
    const offset = checkOffset(query.offset);
    if (query.cursor !== undefined && offset !== undefined) {
      throw new InvalidAuditQueryError(
        "cursor",
        "Audit query takes a cursor or an offset, not both.",
      );
    }
    const cursor = query.cursor === undefined ? undefined : decodeAuditCursor(query.cursor);
    const conditions = checkFilter(query);
    let select = this.#db
      .selectFrom("tool_executions")
      .selectAll()
      .where((eb) => eb.and([...this.#conditions(eb, conditions), ...this.#after(eb, cursor)]))
      .orderBy("started_at", "desc")
      .orderBy("id", "desc")
      .limit(limit + 1);
    if (offset !== undefined && offset > 0) select = select.offset(offset);
    const rows = await select.execute();
    const entries = rows.slice(0, limit).map(toAuditEntry);
    const last = entries.at(-1);
    if (rows.length <= limit || last === undefined) return Object.freeze({ entries });
    return Object.freeze({
      entries,
      nextCursor: encodeAuditCursor({ startedAtMs: last.startedAt.getTime(), id: last.id }),
    });
  }

  async count(filter: AuditFilter = {}): Promise<number> {
    const conditions = checkFilter(filter);
    const row = await this.#db
      .selectFrom("tool_executions")
      .select((eb) => eb.fn.countAll().as("n"))
      .where((eb) => eb.and(this.#conditions(eb, conditions)))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  #conditions(eb: Builder, filter: CheckedFilter): Expression<SqlBool>[] {
    const where: Expression<SqlBool>[] = [];
    if (filter.executionId !== undefined) where.push(eb("execution_id", "=", filter.executionId));
    if (filter.toolName !== undefined) where.push(eb("tool_name", "=", filter.toolName));
    if (filter.batchId !== undefined) where.push(eb("batch_id", "=", filter.batchId));
    if (filter.userId !== undefined) where.push(eb("user_id", "=", filter.userId));
    if (filter.agentId !== undefined) where.push(eb("agent_id", "=", filter.agentId));
    if (filter.conversationId !== undefined) {
      where.push(eb("conversation_id", "=", filter.conversationId));
    }
    if (filter.statusCodes !== undefined) {
      const [only] = filter.statusCodes;
      if (filter.statusCodes.length === 0) where.push(sql<SqlBool>`1 = 0`);
      else if (filter.statusCodes.length === 1 && only !== undefined) {
        where.push(eb("status", "=", only));
      } else where.push(eb("status", "in", filter.statusCodes));
    }
    if (filter.sessionId !== undefined) where.push(eb("session_id", "=", filter.sessionId));
    if (filter.callId !== undefined) where.push(eb("call_id", "=", filter.callId));
    if (filter.decidedBy !== undefined) where.push(eb("decided_by", "=", filter.decidedBy));
    if (filter.decisions !== undefined) {
      if (filter.decisions.length === 0) where.push(sql<SqlBool>`1 = 0`);
      else where.push(eb("decision", "in", filter.decisions));
    }
    if (filter.from !== undefined) where.push(eb("started_at", ">=", this.#toTime(filter.from)));
    if (filter.to !== undefined) where.push(eb("started_at", "<", this.#toTime(filter.to)));
    if (filter.completedFrom !== undefined) {
      where.push(eb("completed_at", ">=", this.#toTime(filter.completedFrom)));
    }
    return where;
  }

  #after(eb: Builder, cursor: AuditCursor | undefined): Expression<SqlBool>[] {
    if (cursor === undefined) return [];
    const startedAt = this.#toTime(new Date(cursor.startedAtMs));
    return [
      eb.or([
        eb("started_at", "<", startedAt),
        eb.and([eb("started_at", "=", startedAt), eb("id", "<", cursor.id)]),
      ]),
    ];
  }
}

interface CheckedFilter extends Omit<AuditFilter, "status" | "decision"> {
  readonly statusCodes?: readonly number[];
  readonly decisions?: readonly string[];
}

const auditDecisions: ReadonlySet<string> = new Set(["approved", "denied", "invalid", "cancelled"]);

const TEXT_FILTERS = [
  "executionId",
  "sessionId",
  "callId",
  "decidedBy",
  "toolName",
  "batchId",
  "userId",
  "agentId",
  "conversationId",
] as const;

function checkFilter(query: AuditFilter): CheckedFilter {
  // Text is stored with NUL as U+FFFD (PostgreSQL cannot hold NUL): compare it the same way,
  // so a NUL in a filter matches on both dialects instead of failing on one.
  let filter = query;
  for (const field of TEXT_FILTERS) {
    const value = filter[field];
    if (typeof value === "string" && value.includes("\0")) {
      filter = { ...filter, [field]: cleanText(value) };
    }
  }
  for (const field of ["from", "to", "completedFrom"] as const) {
    const value = filter[field];
    if (value !== undefined && (!(value instanceof Date) || Number.isNaN(value.getTime()))) {
      throw new InvalidAuditQueryError(field, `Audit query '${field}' must be a valid Date.`);
    }
  }
  let decisions: readonly string[] | undefined;
  if (filter.decision !== undefined) {
    decisions = typeof filter.decision === "string" ? [filter.decision] : [...filter.decision];
    for (const decision of decisions) {
      if (!auditDecisions.has(decision)) {
        throw new InvalidAuditQueryError(
          "decision",
          `Audit query decision '${String(decision)}' is not one of: ${[...auditDecisions].join(", ")}.`,
        );
      }
    }
  }
  const { decision: _decision, status: _status, ...rest } = filter;
  if (filter.status === undefined)
    return { ...rest, ...(decisions === undefined ? {} : { decisions }) };
  const statuses: readonly string[] =
    typeof filter.status === "string" ? [filter.status] : filter.status;
  const statusCodes = statuses.map((status) => {
    const code = auditStatusCode(status);
    if (code === undefined) {
      throw new InvalidAuditQueryError("status", `Audit query status '${status}' is not a status.`);
    }
    return code;
  });
  return { ...rest, statusCodes, ...(decisions === undefined ? {} : { decisions }) };
}

function checkLimit(limit: number | undefined): number {
  if (limit === undefined) return DEFAULT_AUDIT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_AUDIT_LIMIT) {
    throw new InvalidAuditQueryError(
      "limit",
      `Audit query limit must be a whole number from 1 to ${MAX_AUDIT_LIMIT}, got ${String(limit)}.`,
    );
  }
  return limit;
}

function checkOffset(offset: number | undefined): number | undefined {
  if (offset !== undefined && (!Number.isInteger(offset) || offset < 0)) {
    throw new InvalidAuditQueryError(
      "offset",
      `Audit query offset must be a whole number of at least 0, got ${String(offset)}.`,
    );
  }
  return offset;
}
