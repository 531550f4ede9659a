import type { JsonObject, RiskLevel } from "../core/index.js";

/**
 * Where a pending approval stands: waiting for a person, answered, or given up on (its waiting
 * time ran out, or the call it asked about was cancelled).
 */
export const PendingApprovalStatus = {
  Pending: "pending",
  Approved: "approved",
  Denied: "denied",
  Expired: "expired",
} as const;

/** One of the {@link PendingApprovalStatus} values. */
export type PendingApprovalStatus =
  (typeof PendingApprovalStatus)[keyof typeof PendingApprovalStatus];

/** Whether `value` is a {@link PendingApprovalStatus}. */
export function isPendingApprovalStatus(value: unknown): value is PendingApprovalStatus {
  return value === "pending" || value === "approved" || value === "denied" || value === "expired";
}

/** What the console shows of a file-write: the file as it is, and what the call would write. */
export interface FileWritePreview {
  readonly kind: "file-write";
  /** The path as the model gave it. */
  readonly path: string;
  /** The current content; `null` when the file does not exist (or could not be read). */
  readonly before: string | null;
  /** Why `before` is null although the file may exist (too big, binary, outside the workspace). */
  readonly beforeNote?: string;
  readonly after: string;
}

/** The call a pending approval asks about, as the waiting process saw it. */
export interface PendingApprovalRequest {
  /** The request id (`ToolCallRequest.id`) the decision will be bound to. */
  readonly id: string;
  readonly providerCallId?: string;
  readonly toolId: string;
  readonly toolName: string;
  readonly parameters: JsonObject;
  readonly riskLevel: RiskLevel;
  readonly executionSummary: string;
  readonly warnings: readonly string[];
  readonly requestedAt: Date;
  /** The tool's input schema (JSON Schema), so that the console can check edited arguments. */
  readonly inputSchema?: JsonObject;
  /** A tool category (`FileSystem`, `Terminal`, ...), for display. */
  readonly category?: string;
  /**
   * The digest of the tool's definition when the row was opened: a decision made on the row is
   * applied only to a call of the tool with that definition.
   */
  readonly toolDefinition?: string;
}

/** Why the process asks (the processor's `ApprovalPromptDetails`). */
export interface PendingApprovalDetails {
  readonly reason: string;
  /** The Critical warning. */
  readonly warning?: string;
  readonly round: number;
  readonly previousProblem?: string;
}

/** A person's answer, as the console records it. */
export interface PendingApprovalDecision {
  readonly approved: boolean;
  /** For a denial: the reason the model will see. */
  readonly reason?: string;
  /** Edited arguments that replace the request's. */
  readonly modifiedParameters?: JsonObject;
  readonly rememberForSession?: boolean;
  readonly rememberForTool?: boolean;
  readonly rememberPattern?: string;
  /** How long the person took, in ms (from the row's creation). */
  readonly decisionDurationMs?: number;
}

/**
 * A call waiting for a person: one row of the `pending_approvals` table, keyed by the call (the
 * provider's call id, or the request id when the provider gave none) and the hash of its
 * arguments, so that a process that restarts and asks again about the same call finds the
 * decision given while it was down.
 */
export interface PendingApproval {
  /** The row's own id (a time-ordered UUID). */
  readonly id: string;
  /** The provider's call id, or the request id when the call had none of its own. */
  readonly callKey: string;
  /** The request id the decision will be bound to (the latest asker's). */
  readonly requestId: string;
  /** `hashToolCallArguments` of the arguments shown. */
  readonly argumentsHash: string;
  readonly sessionId?: string;
  readonly toolId: string;
  readonly riskLevel: RiskLevel;
  readonly request: PendingApprovalRequest;
  readonly details: PendingApprovalDetails;
  readonly preview?: FileWritePreview;
  readonly status: PendingApprovalStatus;
  readonly decision?: PendingApprovalDecision;
  /** Who decided (the console's operator, or an OAuth subject). */
  readonly decidedBy?: string;
  readonly decidedAt?: Date;
  readonly createdAt: Date;
  /** When an undecided approval expires (and its call is denied as timed out). */
  readonly expiresAt: Date;
  /** When the waiting process took the decision; a decision is taken once. */
  readonly appliedAt?: Date;
  /** The store (process) that waits; see {@link PendingApproval.waiterGone}. */
  readonly owner?: string;
  /** True when the waiting process is known to be gone (its decision waits for its restart). */
  readonly waiterGone?: boolean;
}

/** What {@link PendingApprovalStore.open} records. */
export interface NewPendingApproval {
  readonly callKey: string;
  readonly requestId: string;
  readonly argumentsHash: string;
  readonly sessionId?: string;
  readonly request: PendingApprovalRequest;
  readonly details: PendingApprovalDetails;
  readonly preview?: FileWritePreview;
  readonly expiresAt: Date;
}

/** Filter of {@link PendingApprovalStore.list}. */
export interface PendingApprovalFilter {
  readonly status?: PendingApprovalStatus;
  readonly sessionId?: string;
  readonly callKey?: string;
  /** At most this many rows, newest first (default 200). */
  readonly limit?: number;
}

/** What {@link PendingApprovalStore.decide} did. */
export type DecideResult =
  | { readonly ok: true; readonly approval: PendingApproval; readonly problem?: never }
  | {
      readonly ok: false;
      /** Why not: not found, already decided, expired. */
      readonly problem: string;
      readonly approval?: PendingApproval;
    };

/** What changed in the console's tables, for {@link ConsoleChangeFeed} listeners. */
export type ConsoleChange = "approvals" | "executions";

/**
 * Tells listeners, in this process, that another (or this) process changed the console's
 * tables: within 250 ms (PostgreSQL `LISTEN/NOTIFY`; SQLite polls an indexed change counter).
 */
export interface ConsoleChangeFeed {
  /** Starts listening; returns the function that stops. */
  watch(listener: (change: ConsoleChange) => void): () => void;
}

/**
 * Where pending approvals live, shared by every process on one store (`store.approvals`). The
 * waiting side ({@link ConsoleApprovalHandler}) opens a row and waits; the console lists and
 * decides. Implemented by the SQLite and PostgreSQL stores.
 */
export interface PendingApprovalStore extends ConsoleChangeFeed {
  /**
   * Records a pending approval. When a row for the same call key and argument hash exists (the
   * process asked before and restarted), that row is returned instead: still pending and of the
   * same session and tool, it now names `requestId` and this process; otherwise it is returned as
   * it is (the caller must check that it is its own call's).
   */
  open(approval: NewPendingApproval): Promise<PendingApproval>;
  get(id: string): Promise<PendingApproval | undefined>;
  /** Rows newest first. */
  list(filter?: PendingApprovalFilter): Promise<PendingApproval[]>;
  /**
   * Answers a pending approval. Refused (`ok: false`) when the row is missing, already decided,
   * or past its expiry (it is then marked expired).
   */
  decide(id: string, decision: PendingApprovalDecision, decidedBy: string): Promise<DecideResult>;
  /** Marks a still pending row expired; resolves whether it did. */
  expire(id: string): Promise<boolean>;
  /**
   * Takes a decided row's decision for the waiting call: only the first caller gets `true`, so a
   * decision is applied once, whichever process asks.
   */
  claim(id: string): Promise<boolean>;
}

/** A tool execution running in some process, as the console's running page shows it. */
export interface RunningExecution {
  readonly executionId: string;
  readonly toolId: string;
  readonly toolName: string;
  readonly sessionId?: string;
  readonly callId?: string;
  readonly owner: string;
  readonly startedAt: Date;
  readonly updatedAt: Date;
  /** 0-100, absent while the tool has not reported a percentage. */
  readonly percent?: number;
  readonly message?: string;
  readonly cancelRequestedAt?: Date;
  readonly cancelRequestedBy?: string;
}

/** What {@link RunningExecutionStore.start} records. */
export interface NewRunningExecution {
  readonly executionId: string;
  readonly toolId: string;
  readonly toolName: string;
  readonly sessionId?: string;
  readonly callId?: string;
  readonly startedAt: Date;
}

/**
 * Executions in flight across processes (`store.executions`): the running process reports
 * start, progress and end ({@link reportExecutions}); the console lists them and asks for a
 * cancellation, which the running process carries out.
 */
export interface RunningExecutionStore extends ConsoleChangeFeed {
  start(execution: NewRunningExecution): Promise<void>;
  progress(
    executionId: string,
    percent: number | undefined,
    message: string | undefined,
  ): Promise<void>;
  finish(executionId: string): Promise<void>;
  /** The executions of live processes, oldest first (rows of dead processes are dropped). */
  list(): Promise<RunningExecution[]>;
  get(executionId: string): Promise<RunningExecution | undefined>;
  /** Asks the running process to cancel; resolves whether the execution was running. */
  requestCancel(executionId: string, requestedBy: string): Promise<boolean>;
  /** The ids of this store's executions whose cancellation was asked for. */
  cancelRequests(): Promise<string[]>;
}
