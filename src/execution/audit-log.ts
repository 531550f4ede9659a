import type { JsonObject, JsonValue } from "../core/index.js";
import type { AuditStatus } from "./audit-status.js";

/**
 * What the executor records when an execution starts, before the tool runs (`audit.begin`).
 * If the process dies before `audit.complete`, the next `openStore` on the same database turns
 * it into an audit row with status `interrupted`, filled from these fields.
 */
export interface AuditStart {
  /** The execution's id (spec 003 `ExecutionId`); unique among executions in flight. */
  readonly executionId: string;
  /** The id of the tool being run (stored in `tool_name`, at most 64 characters). */
  readonly toolName: string;
  readonly startedAt: Date;
  /**
   * The input parameters as the executor chose to record them (it decides redaction). Given here,
   * they are kept for `complete`, which may then leave `parameters` out.
   */
  readonly parameters?: JsonValue;
  readonly batchId?: string | null;
  readonly userId?: string | null;
  readonly agentId?: string | null;
  readonly conversationId?: string | null;
  readonly sandboxId?: string | null;
  /** Extra JSON kept in `metadata_json` (for example the ToolInput metadata). */
  readonly metadata?: JsonObject | null;
}

/**
 * What a call's gate decided (issue 11): which call, in which session, approved or denied, by
 * whom, how widely, with which remembered grant, and the hashes of the arguments (original and,
 * when a person edited them, edited). Written on the call's audit row by the processor (calls
 * that never ran) and by the executor (calls it ran, from the context's approval details).
 */
export interface AuditCallDecision {
  /** The call's id in its session (the provider's call id). */
  readonly callId?: string | null;
  readonly sessionId?: string | null;
  /** `approved`, `denied`, `invalid` (failed validation) or `cancelled` (before a decision). */
  readonly decision?: AuditDecision | null;
  /**
   * Who decided: `policy` (ran unasked), `remembered` (a remembered grant), `person` (the
   * approval handler), `host` (a decision the host framework made), `rule` (a deny rule),
   * `no-handler`, `timeout`, `handler-error`, `validation`, `caller` (cancelled by the caller).
   * A person's or host's decision that names who made it (`ApprovalDecision.decidedBy`: the
   * console's operator, an MCP client's OAuth subject; else the processor's `approver`) is
   * recorded under that name instead of `person` / `host`.
   */
  readonly decidedBy?: string | null;
  /** For approvals: `once`, `session`, `tool` or `pattern`. */
  readonly approvalScope?: string | null;
  /** The remembered grant that allowed the call, or the one an approval created. */
  readonly grantId?: string | null;
  /** SHA-256 of the arguments the model sent (`hashToolCallArguments`). */
  readonly argumentsHash?: string | null;
  /** SHA-256 of the arguments a person edited them into, when edited. */
  readonly editedArgumentsHash?: string | null;
}

/** What a call's gate decided: see {@link AuditCallDecision}. */
export type AuditDecision = "approved" | "denied" | "invalid" | "cancelled";

/** What the executor hands the store when an execution has finished (`audit.complete`). */
export interface AuditRecord extends AuditCallDecision {
  readonly executionId: string;
  readonly toolName: string;
  /** The outcome, from the executor's status vocabulary. */
  readonly status: AuditStatus;
  /** Recorded parameters; when left out, those given to `begin` are used. */
  readonly parameters?: JsonValue;
  /** A short, human-readable summary of the result (for example `ToolResult.toLogSummary()`). */
  readonly resultSummary?: string | null;
  /** At most 1024 characters are kept (longer messages end with "…"). */
  readonly errorMessage?: string | null;
  /** A {@link ToolErrorCode} value; at most 64 characters. */
  readonly errorCode?: string | null;
  readonly startedAt: Date;
  readonly completedAt: Date;
  /** Defaults to `completedAt - startedAt`; stored rounded to whole milliseconds. */
  readonly durationMs?: number;
  readonly outputSizeBytes?: number | null;
  readonly sandboxId?: string | null;
  readonly agentId?: string | null;
  readonly userId?: string | null;
  readonly conversationId?: string | null;
  readonly batchId?: string | null;
  readonly metadata?: JsonObject | null;
  readonly wasApproved?: boolean;
  readonly timedOut?: boolean;
  readonly wasCancelled?: boolean;
}

/** One audit row as read back: every column of `tool_executions`, in camelCase. */
export interface AuditEntry {
  /** The row's own id (a UUID the store generates). */
  readonly id: string;
  readonly executionId: string;
  readonly toolName: string;
  readonly status: AuditStatus;
  /** The recorded parameters, or `null` when none were recorded. */
  readonly parameters: JsonValue | null;
  readonly resultSummary: string | null;
  readonly errorMessage: string | null;
  readonly errorCode: string | null;
  readonly startedAt: Date;
  readonly completedAt: Date;
  readonly durationMs: number;
  readonly outputSizeBytes: number | null;
  readonly sandboxId: string | null;
  readonly agentId: string | null;
  readonly userId: string | null;
  readonly conversationId: string | null;
  readonly batchId: string | null;
  readonly metadata: JsonObject | null;
  readonly wasApproved: boolean;
  readonly timedOut: boolean;
  readonly wasCancelled: boolean;
  readonly callId: string | null;
  readonly sessionId: string | null;
  readonly decision: AuditDecision | null;
  readonly decidedBy: string | null;
  readonly approvalScope: string | null;
  readonly grantId: string | null;
  readonly argumentsHash: string | null;
  readonly editedArgumentsHash: string | null;
}

/** Which audit rows to count or list. Every field given must match (AND). */
export interface AuditFilter {
  readonly executionId?: string;
  readonly toolName?: string;
  /** One status, or any of several. */
  readonly status?: AuditStatus | readonly AuditStatus[];
  readonly batchId?: string;
  readonly userId?: string;
  readonly agentId?: string;
  readonly conversationId?: string;
  /** Rows of calls of this session (`processCall`'s or the processor's session). */
  readonly sessionId?: string;
  readonly callId?: string;
  /** One decision, or any of several. */
  readonly decision?: AuditDecision | readonly AuditDecision[];
  readonly decidedBy?: string;
  /** Rows that started at or after this instant. */
  readonly from?: Date;
  /** Rows that started before this instant (exclusive). */
  readonly to?: Date;
  /**
   * Rows that completed at or after this instant: what a follower polls with, since a long
   * execution's row is written after rows of executions that started later.
   */
  readonly completedFrom?: Date;
}

/** A page request: a filter plus paging. Rows come newest first (by `startedAt`, then `id`). */
export interface AuditQuery extends AuditFilter {
  /** Rows per page: default 50, at most 1000. */
  readonly limit?: number;
  /** Rows to skip. Not together with `cursor`. */
  readonly offset?: number;
  /** The `nextCursor` of the previous page: stable paging while rows are being added. */
  readonly cursor?: string;
}

/** One page of audit rows. */
export interface AuditPage {
  readonly entries: readonly AuditEntry[];
  /** Pass as `cursor` to get the next page; absent on the last page. */
  readonly nextCursor?: string;
}

/**
 * The audit trail of tool executions (spec 003 `IAuditLogService`, table `tool_executions`).
 *
 * The executor calls `begin` before a tool runs and `complete` when it has finished; between the
 * two the execution is "in flight" and survives a crash as evidence. `complete` resolves once the
 * row is durable: committed, concurrent completes sharing one transaction (group commit), or, in
 * a SQLite file store, written ahead to its journal and inserted within 20 ms (every read through
 * the store inserts what waits first; after a crash, the next open does).
 *
 * @example
 * ```ts
 * const store = await openStore("sqlite:./aintern.db");
 * await store.audit.begin({ executionId, toolName: "file-read", startedAt });
 * // ... run the tool ...
 * await store.audit.complete({ executionId, toolName: "file-read", status: "completed",
 *   startedAt, completedAt: new Date() });
 * const { entries } = await store.audit.query({ toolName: "file-read", limit: 20 });
 * ```
 */
export interface AuditLog {
  /** Records that an execution has started. Resolves once the evidence would survive a crash. */
  begin(start: AuditStart): Promise<void>;
  /** Writes the execution's audit row; resolves once it is durable (see above). */
  complete(record: AuditRecord): Promise<void>;
  /** The newest row of an execution, or `undefined`. */
  get(executionId: string): Promise<AuditEntry | undefined>;
  /** A page of rows, newest first. */
  query(query?: AuditQuery): Promise<AuditPage>;
  /** How many rows match. */
  count(filter?: AuditFilter): Promise<number>;
  /**
   * Turns executions that were started by a process that has since died into `interrupted` rows
   * and returns how many it wrote. `openStore` calls it; long-running services sharing a
   * PostgreSQL database may call it now and then to pick up other processes' crashes.
   */
  recoverInterrupted(): Promise<number>;
}
