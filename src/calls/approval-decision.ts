import type { ApprovalRequest } from "../approval/index.js";
import type { JsonObject } from "../core/index.js";
import { hashToolCallArguments } from "./hash-tool-call-arguments.js";
import { frozenJsonObject } from "./json-utils.js";

/** The fields of an {@link ApprovalDecision} (the C# object initializer). */
export interface ApprovalDecisionInit {
  approved: boolean;
  reason?: string;
  modifiedParameters?: JsonObject;
  rememberForSession?: boolean;
  rememberForTool?: boolean;
  rememberPattern?: string;
  /** Default: now. */
  decidedAt?: Date;
  decisionDurationMs?: number;
  requestId?: string;
  argumentsHash?: string;
  /** Who decided (a console operator, an OAuth subject); see {@link ApprovalDecision.decidedBy}. */
  decidedBy?: string;
}

/**
 * When and for which request a decision was made: the trailing options of every
 * {@link ApprovalDecision} factory.
 */
export interface ApprovalDecisionBinding {
  /** When the decision was made (default: now). */
  decidedAt?: Date;
  /** How long the person took to decide. */
  decisionDurationMs?: number;
  /** The request the decision answers; see {@link ApprovalDecision.bindTo}. */
  requestId?: string;
  /** {@link hashToolCallArguments} of the arguments the person saw. */
  argumentsHash?: string;
}

/** Remember options of {@link ApprovalDecision.approve}. */
export interface ApproveOptions extends ApprovalDecisionBinding {
  /** Auto-approve similar calls for the rest of the session. */
  rememberForSession?: boolean;
  /** Auto-approve this tool from now on (persisted). */
  rememberForTool?: boolean;
  /** A glob (`"src/**\/*.ts"`) or command prefix (`"npm *"`) the remembered approval covers. */
  rememberPattern?: string;
}

/** Options of {@link ApprovalDecision.approveWithModifications}. */
export interface ApproveWithModificationsOptions extends ApprovalDecisionBinding {
  rememberForSession?: boolean;
}

/**
 * A person's answer to an approval prompt (spec 002 `ApprovalDecision`): approve or deny, edited
 * parameters, and whether to remember the answer. Immutable.
 *
 * A decision can be bound to the request it answers (`requestId`, `argumentsHash`): a lifecycle
 * refuses a bound decision whose request id or argument hash does not match, so an approval given
 * for one call, or for other arguments, cannot be replayed onto another.
 *
 * @example
 * ```ts
 * lifecycle.approve(ApprovalDecision.approve({ rememberForSession: true }).bindTo(request));
 * lifecycle.deny(ApprovalDecision.deny("Do not touch the lockfile"));
 * ```
 */
export class ApprovalDecision {
  /** Whether the call was approved. */
  readonly approved: boolean;
  /** Why the call was denied; passed to the model so it can adapt. */
  readonly reason: string | undefined;
  /** Parameters the person edited; when set they replace the request's parameters. */
  readonly modifiedParameters: JsonObject | undefined;
  /** Remember the approval for this session. */
  readonly rememberForSession: boolean;
  /** Remember the approval for this tool, persistently. */
  readonly rememberForTool: boolean;
  /** The pattern the remembered approval covers; undefined remembers the exact tool. */
  readonly rememberPattern: string | undefined;
  /** When the decision was made. */
  readonly decidedAt: Date;
  /** How long the person took to decide, in milliseconds. */
  readonly decisionDurationMs: number;
  /** The id of the request this decision answers, when bound. */
  readonly requestId: string | undefined;
  /** {@link hashToolCallArguments} of the arguments this decision answers, when bound. */
  readonly argumentsHash: string | undefined;
  /**
   * Who decided, when known: the console's operator, the OAuth subject of an MCP client's
   * request. Recorded in the audit row's `decided_by` and as the `grantedBy` of what it remembers.
   */
  readonly decidedBy: string | undefined;

  constructor(init: ApprovalDecisionInit) {
    this.approved = init.approved;
    this.reason = init.reason;
    this.modifiedParameters =
      init.modifiedParameters === undefined ? undefined : frozenJsonObject(init.modifiedParameters);
    this.rememberForSession = init.rememberForSession ?? false;
    this.rememberForTool = init.rememberForTool ?? false;
    this.rememberPattern = init.rememberPattern;
    this.decidedAt = new Date((init.decidedAt ?? new Date()).getTime());
    this.decisionDurationMs = init.decisionDurationMs ?? 0;
    this.requestId = init.requestId;
    this.argumentsHash = init.argumentsHash;
    this.decidedBy = init.decidedBy;
    Object.freeze(this);
  }

  /** Whether the call was denied. */
  get denied(): boolean {
    return !this.approved;
  }

  /** Whether the person edited the parameters. */
  get parametersModified(): boolean {
    return this.modifiedParameters !== undefined;
  }

  /** Whether any remember option is set. */
  get shouldRemember(): boolean {
    return this.rememberForSession || this.rememberForTool;
  }

  /** An approval, optionally remembered for the session, for the tool, or for a pattern. */
  static approve(options: ApproveOptions = {}): ApprovalDecision {
    return new ApprovalDecision({ ...options, approved: true });
  }

  /** An approval that runs the call with the parameters the person edited. */
  static approveWithModifications(
    modifiedParameters: JsonObject,
    options: ApproveWithModificationsOptions = {},
  ): ApprovalDecision {
    return new ApprovalDecision({ ...options, approved: true, modifiedParameters });
  }

  /** A denial, with the reason the model will see. */
  static deny(reason?: string, options: ApprovalDecisionBinding = {}): ApprovalDecision {
    return new ApprovalDecision({ ...options, approved: false, reason });
  }

  /** A denial because nobody answered in time: reason "Approval request timed out". */
  static timeout(options: ApprovalDecisionBinding = {}): ApprovalDecision {
    return new ApprovalDecision({
      ...options,
      approved: false,
      reason: "Approval request timed out",
    });
  }

  /** A denial because the request was cancelled: reason "Request was cancelled". */
  static cancelled(options: ApprovalDecisionBinding = {}): ApprovalDecision {
    return new ApprovalDecision({ ...options, approved: false, reason: "Request was cancelled" });
  }

  /**
   * A copy bound to `request`: its id, and the hash of the arguments the person was shown (the
   * request's parameters, not the edited ones).
   */
  bindTo(request: Pick<ApprovalRequest, "id" | "parameters">): ApprovalDecision {
    return new ApprovalDecision({
      ...this.#init(),
      requestId: request.id,
      argumentsHash: hashToolCallArguments(request.parameters),
    });
  }

  /**
   * Why this decision cannot answer `request`, or undefined when it can: an unbound decision
   * answers any request; a bound one only the request (and arguments) it was bound to.
   */
  mismatch(request: Pick<ApprovalRequest, "id" | "parameters">): string | undefined {
    if (this.requestId !== undefined && this.requestId !== request.id) {
      return `the decision answers request ${this.requestId}, not ${request.id}`;
    }
    if (
      this.argumentsHash !== undefined &&
      this.argumentsHash !== hashToolCallArguments(request.parameters)
    ) {
      return "the decision was made for other arguments than the request carries";
    }
    return undefined;
  }

  /** `Approved`, `Approved (remembered)` or `Denied: <reason>`. */
  toString(): string {
    if (this.approved) return this.shouldRemember ? "Approved (remembered)" : "Approved";
    return `Denied: ${this.reason ?? "no reason"}`;
  }

  #init(): ApprovalDecisionInit {
    return {
      approved: this.approved,
      reason: this.reason,
      modifiedParameters: this.modifiedParameters,
      rememberForSession: this.rememberForSession,
      rememberForTool: this.rememberForTool,
      rememberPattern: this.rememberPattern,
      decidedAt: this.decidedAt,
      decisionDurationMs: this.decisionDurationMs,
      requestId: this.requestId,
      argumentsHash: this.argumentsHash,
      ...(this.decidedBy === undefined ? {} : { decidedBy: this.decidedBy }),
    };
  }

  /** A copy that names who decided. */
  by(decidedBy: string): ApprovalDecision {
    return new ApprovalDecision({ ...this.#init(), decidedBy });
  }
}
