import { constants } from "node:fs";
import { open, realpath } from "node:fs/promises";
import { isAbsolute, relative, resolve } from "node:path";
import {
  ApprovalDecision,
  type ApprovalHandler,
  type ApprovalPromptDetails,
  hashToolCallArguments,
  type ToolCallRequest,
} from "../calls/index.js";
import type { JsonObject } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import {
  type FileWritePreview,
  type PendingApproval,
  PendingApprovalStatus,
  type PendingApprovalStore,
} from "./pending-approval.js";

/** Default time a call waits for the console before it is denied as timed out: 10 minutes. */
export const DEFAULT_CONSOLE_APPROVAL_TIMEOUT_MS = 600_000;

/** The most of a file the console's diff shows (larger files are described, not diffed). */
const MAX_PREVIEW_BYTES = 256 * 1024;

/** Construction options of a {@link ConsoleApprovalHandler}. */
export interface ConsoleApprovalHandlerConfig {
  /** Where pending approvals are recorded: `store.approvals` of `openStore`. */
  readonly approvals: PendingApprovalStore;
  /**
   * How long a call waits before it is denied as timed out (default 10 minutes). Give the
   * processor an `approvalTimeoutMs` at least as long: it stops waiting at whichever comes first.
   */
  readonly timeoutMs?: number;
  /**
   * The session the calls belong to (shown and filtered on in the console); default the
   * session the processor names for each call (an MCP connection's).
   */
  readonly sessionId?: string;
  /** Looks a tool up for the console: its input schema (to check edits) and category. */
  readonly getTool?: (toolId: string) => Tool | undefined;
  /** The workspace, to show a file-write's diff against the file as it is. */
  readonly workspacePath?: string;
}

/**
 * An {@link ApprovalHandler} that hands approvals to the web console (`aintern console`), in
 * this process or any other on the same store: it records the pending approval as a row and
 * waits for a person's decision, learned within 250 ms of it being given. After `timeoutMs`
 * the row expires and the call is denied as timed out; when the processor gives up (its own
 * timeout, or the batch is cancelled) the row expires too.
 *
 * Across restarts: the row is keyed by the call (the provider's call id) and the hash of its
 * arguments, so a process that was killed while waiting, and is given the same call again,
 * finds the decision made meanwhile and applies it once (a decision is claimed by exactly one
 * asker), or is refused when the approval expired.
 *
 * @example
 * ```ts
 * const store = await openStore("sqlite:./.aintern/aintern.db");
 * const processor = new ToolCallProcessor({
 *   executor,
 *   store: store.calls,
 *   approvalHandler: new ConsoleApprovalHandler({ approvals: store.approvals }),
 *   approvalTimeoutMs: DEFAULT_CONSOLE_APPROVAL_TIMEOUT_MS,
 * });
 * ```
 */
export class ConsoleApprovalHandler implements ApprovalHandler {
  readonly #config: ConsoleApprovalHandlerConfig;
  readonly #timeoutMs: number;

  constructor(config: ConsoleApprovalHandlerConfig) {
    this.#config = config;
    const timeoutMs = config.timeoutMs ?? DEFAULT_CONSOLE_APPROVAL_TIMEOUT_MS;
    if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
      throw new RangeError(`timeoutMs must be a positive number of milliseconds, got ${timeoutMs}`);
    }
    this.#timeoutMs = timeoutMs;
  }

  async requestApproval(
    request: ToolCallRequest,
    signal: AbortSignal,
    details?: ApprovalPromptDetails,
  ): Promise<ApprovalDecision> {
    const approval = await this.open(request, details);
    const sessionId = this.#config.sessionId ?? details?.sessionId;
    if (!sameKey(approval.sessionId, sessionId) || approval.request.toolId !== request.toolId) {
      // Another session's (or tool's) call with the same call id and arguments: its decision,
      // or its expiry, is not this call's to take.
      return ApprovalDecision.deny(
        `The call id '${approval.callKey}' with these arguments was already asked about in another ${approval.request.toolId === request.toolId ? "session" : "tool's call"}; that approval is not this call's, and this call was not asked about. Call it again with a new call id.`,
      ).bindTo(request);
    }
    const shown = approval.request.toolDefinition;
    if (
      shown !== undefined &&
      details?.toolDefinition !== undefined &&
      shown !== details.toolDefinition
    ) {
      // The row (maybe decided before a restart) shows the tool as it was: not this one.
      await this.withdraw(approval.id).catch(() => false);
      return ApprovalDecision.deny(
        `The approval in the console was for tool '${request.toolId}' as it was when it was asked; the tool changed since (its definition was replaced), so nothing ran. Call it again to be asked about it as it is now.`,
      ).bindTo(request);
    }
    return this.#awaitDecision(approval, request, signal);
  }

  /**
   * Records the call as waiting for the console without waiting for the decision, and returns
   * its row (the MCP server does this to send the row's page by URL elicitation before it waits).
   * A later `requestApproval` for the same call id and arguments waits on this same row.
   */
  async open(request: ToolCallRequest, details?: ApprovalPromptDetails): Promise<PendingApproval> {
    const tool = safeTool(this.#config.getTool, request.toolId);
    const preview = await this.#preview(request, tool);
    const sessionId = this.#config.sessionId ?? details?.sessionId;
    return this.#config.approvals.open({
      callKey:
        request.providerCallId !== undefined && !request.callIdSynthesized
          ? request.providerCallId
          : request.id,
      requestId: request.id,
      argumentsHash: hashToolCallArguments(request.parameters),
      ...(sessionId === undefined ? {} : { sessionId }),
      request: {
        id: request.id,
        ...(request.providerCallId === undefined ? {} : { providerCallId: request.providerCallId }),
        toolId: request.toolId,
        toolName: request.toolName === "" ? request.toolId : request.toolName,
        parameters: request.parameters,
        riskLevel: request.riskLevel,
        executionSummary: request.executionSummary,
        warnings: request.warnings ?? [],
        requestedAt: request.requestedAt,
        ...(tool === undefined ? {} : { inputSchema: tool.inputSchema as unknown as JsonObject }),
        ...(tool === undefined ? {} : { category: String(tool.category) }),
        ...(details?.toolDefinition === undefined
          ? {}
          : { toolDefinition: details.toolDefinition }),
      },
      details: {
        reason: details?.reason ?? "This call needs approval",
        round: details?.round ?? 1,
        ...(details?.warning === undefined ? {} : { warning: details.warning }),
        ...(details?.previousProblem === undefined
          ? {}
          : { previousProblem: details.previousProblem }),
      },
      ...(preview === undefined ? {} : { preview }),
      expiresAt: new Date(Date.now() + this.#timeoutMs),
    });
  }

  /** Expires a still pending row (its call will not wait for it); resolves whether it did. */
  async withdraw(approvalId: string): Promise<boolean> {
    return this.#config.approvals.expire(approvalId);
  }

  /**
   * Resolves with the row once it no longer waits for a person: decided in the console, expired
   * (its waiting time ran out: it is marked so), or withdrawn; with `undefined` when the row is
   * gone or `signal` aborts first. Learns of a decision as the waiting call does (within 250 ms),
   * and takes nothing: the waiting call still applies the decision.
   */
  async settled(approvalId: string, signal: AbortSignal): Promise<PendingApproval | undefined> {
    const approvals = this.#config.approvals;
    const changes = watchApprovals(approvals);
    try {
      for (;;) {
        if (signal.aborted) return undefined;
        changes.reset();
        const approval = await approvals.get(approvalId);
        if (approval === undefined || approval.status !== PendingApprovalStatus.Pending) {
          return approval;
        }
        const remainingMs = approval.expiresAt.getTime() - Date.now();
        if (remainingMs <= 0) {
          await approvals.expire(approval.id);
          return approvals.get(approval.id);
        }
        await changes.next(remainingMs, signal);
      }
    } finally {
      changes.stop();
    }
  }

  async #awaitDecision(
    opened: PendingApproval,
    request: ToolCallRequest,
    signal: AbortSignal,
  ): Promise<ApprovalDecision> {
    const approvals = this.#config.approvals;
    // Watching from before each read: a decision made between a read and the wait wakes it.
    const changes = watchApprovals(approvals);
    let approval: PendingApproval | undefined;
    try {
      changes.reset();
      approval = await approvals.get(opened.id);
      while (approval !== undefined && approval.status === PendingApprovalStatus.Pending) {
        const remainingMs = approval.expiresAt.getTime() - Date.now();
        if (signal.aborted) {
          await approvals.expire(approval.id).catch(() => undefined);
          return ApprovalDecision.cancelled().bindTo(request);
        }
        if (remainingMs <= 0) {
          await approvals.expire(approval.id);
        } else {
          await changes.next(remainingMs, signal);
        }
        changes.reset();
        approval = await approvals.get(opened.id);
      }
    } finally {
      changes.stop();
    }
    if (approval === undefined || approval.status === PendingApprovalStatus.Expired) {
      return ApprovalDecision.timeout().bindTo(request);
    }
    return this.#apply(approval, request);
  }

  /** The decision of a decided row, taken once: a second asker of the same row is refused. */
  async #apply(approval: PendingApproval, request: ToolCallRequest): Promise<ApprovalDecision> {
    if (!(await this.#config.approvals.claim(approval.id))) {
      return ApprovalDecision.deny(
        "This approval was already used by another run of the same call; it is not applied twice.",
      ).bindTo(request);
    }
    const decision = approval.decision;
    const timing = {
      ...(approval.decidedAt === undefined ? {} : { decidedAt: approval.decidedAt }),
      decisionDurationMs: decision?.decisionDurationMs ?? 0,
    };
    // Who decided in the console (its operator): recorded in the audit row and on grants.
    const by = approval.decidedBy === undefined ? {} : { decidedBy: approval.decidedBy };
    if (approval.status !== PendingApprovalStatus.Approved || decision?.approved !== true) {
      const reason = decision?.reason?.trim();
      const denial = ApprovalDecision.deny(
        reason === undefined || reason === "" ? "Denied in the console" : reason,
        timing,
      ).bindTo(request);
      return approval.decidedBy === undefined ? denial : denial.by(approval.decidedBy);
    }
    return new ApprovalDecision({
      approved: true,
      ...timing,
      ...by,
      ...(decision.modifiedParameters === undefined
        ? {}
        : { modifiedParameters: decision.modifiedParameters }),
      rememberForSession: decision.rememberForSession ?? false,
      rememberForTool: decision.rememberForTool ?? false,
      ...(decision.rememberPattern === undefined
        ? {}
        : { rememberPattern: decision.rememberPattern }),
    }).bindTo(request);
  }

  /** For a call that writes a file's whole content: the file as it is now, for the diff. */
  async #preview(
    request: ToolCallRequest,
    tool: Tool | undefined,
  ): Promise<FileWritePreview | undefined> {
    const { path, content } = request.parameters;
    if (typeof path !== "string" || typeof content !== "string") return undefined;
    if (tool !== undefined && String(tool.category) !== "FileSystem") return undefined;
    // The file is not shown, saying why (a note), or as new (none).
    const unseen = (beforeNote?: string): FileWritePreview => ({
      kind: "file-write",
      path,
      before: null,
      ...(beforeNote === undefined ? {} : { beforeNote }),
      after: content,
    });
    const workspace = this.#config.workspacePath;
    if (workspace === undefined) return unseen("no workspace known");
    const absolute = resolve(workspace, path);
    if (isOutside(resolve(workspace), absolute)) return unseen("outside the workspace");
    // Where the path really leads: a link in the workspace to a file outside it (a cloned
    // repository may hold one) must not bring that file's content into the card and the store.
    let real: string;
    try {
      real = await realpath(absolute);
    } catch {
      return unseen();
    }
    const realWorkspace = await realpath(workspace).catch(() => resolve(workspace));
    if (isOutside(realWorkspace, real)) return unseen("a link that leads outside the workspace");
    return { kind: "file-write", path, ...(await readForDiff(real)), after: content };
  }
}

/** Whether `path` is outside the folder `root` (both absolute). */
function isOutside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel.startsWith("..") || isAbsolute(rel);
}

async function readForDiff(
  absolute: string,
): Promise<{ before: string | null; beforeNote?: string }> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    // The real path, opened without following a link that replaced it since.
    handle = await open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
    const stat = await handle.stat();
    if (!stat.isFile()) return { before: null, beforeNote: "not a regular file" };
    if (stat.size > MAX_PREVIEW_BYTES) {
      return {
        before: null,
        beforeNote: `the current file is ${stat.size} bytes, too big to diff`,
      };
    }
    const buffer = Buffer.alloc(stat.size);
    await handle.read(buffer, 0, stat.size, 0);
    if (buffer.includes(0)) return { before: null, beforeNote: "the current file is binary" };
    return { before: buffer.toString("utf8") };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" ? { before: null } : { before: null, beforeNote: "could not be read" };
  } finally {
    await handle?.close();
  }
}

/** Whether a stored key (the store writes some as `json:"..."`) is `key`. */
function sameKey(stored: string | undefined, key: string | undefined): boolean {
  if (stored === key) return true;
  if (stored === undefined || key === undefined || !stored.startsWith("json:")) return false;
  try {
    return JSON.parse(stored.slice("json:".length)) === key;
  } catch {
    return false;
  }
}

function safeTool(getTool: ((id: string) => Tool | undefined) | undefined, id: string) {
  try {
    return getTool?.(id);
  } catch {
    return undefined;
  }
}

/**
 * Watches the approvals for as long as a loop waits on one row: `reset` before each read of the
 * row, then `next` resolves on a change seen since (at once if there was one), after `ms`, or
 * when `signal` aborts. Watching across the reads, not from after each, means a change made
 * between a read and the wait is never missed.
 */
function watchApprovals(approvals: PendingApprovalStore): {
  reset(): void;
  next(ms: number, signal: AbortSignal): Promise<void>;
  stop(): void;
} {
  let changed = false;
  let wake: (() => void) | undefined;
  const stop = approvals.watch((change) => {
    if (change !== "approvals") return;
    changed = true;
    wake?.();
  });
  return {
    reset: () => {
      changed = false;
    },
    next: (ms, signal) => {
      if (changed || signal.aborted) return Promise.resolve();
      return new Promise((done) => {
        const finish = (): void => {
          clearTimeout(timer);
          signal.removeEventListener("abort", finish);
          wake = undefined;
          done();
        };
        const timer = setTimeout(finish, Math.min(ms, 2 ** 31 - 1));
        wake = finish;
        signal.addEventListener("abort", finish, { once: true });
      });
    },
    stop,
  };
}
