import { AinternError, RiskLevel } from "../core/index.js";
import { matchCommandPattern, parseCommand, validateCommandPattern } from "../shell/index.js";
import type { PolicyCall } from "./approval-policy.js";
import { isSignedGrant, signedGrantId } from "./grant-signature.js";
import { callSubjects, type ParameterKindConfig } from "./parameter-kinds.js";
import { matchPathPattern, validatePathPattern } from "./path-pattern.js";
import {
  MemoryPermissionStore,
  type PermissionFilter,
  type PermissionGrant,
  type PermissionPatternKind,
  type PermissionStore,
} from "./permission-grant.js";

/** What to remember from an approved call. */
export interface RememberRequest {
  readonly call: PolicyCall;
  readonly sessionId: string;
  readonly rememberForSession: boolean;
  readonly rememberForTool: boolean;
  readonly rememberPattern?: string;
  readonly grantedBy?: string;
}

/** Settings of {@link RememberedPermissions}. */
export interface RememberedPermissionsConfig extends ParameterKindConfig {
  /** Where `tool`-scoped grants persist; default in memory (lost on restart). */
  readonly store?: PermissionStore;
  readonly now?: () => Date;
  /**
   * A secret that signs the grants this makes and that the store's grants must carry to be
   * honoured (see `signedGrantId`): rows added to the store by anything else (a store file a
   * repository brought along) are ignored. `aintern` passes the user's key from
   * `$AINTERN_HOME`; without one every stored grant is honoured.
   */
  readonly grantKey?: Uint8Array;
}

/** A pattern that cannot be remembered (wrong kind for the call, or not a valid pattern). */
export class InvalidRememberPatternError extends AinternError {
  constructor(pattern: string, problem: string) {
    super("INVALID_REMEMBER_PATTERN", `Cannot remember pattern '${pattern}': ${problem}`);
    this.name = "InvalidRememberPatternError";
  }
}

/**
 * Remembered approvals: session grants in memory, tool grants in a {@link PermissionStore}.
 *
 * Safety rules:
 * - Critical calls are never covered by a remembered permission, and never remembered: each one
 *   asks (the policy's "Critical always asks").
 * - A grant never covers a call whose effective risk is higher than the call it was granted for.
 * - A pattern is remembered only when it covers the call it was approved on: an approval of one
 *   call cannot grant others that no one was shown (`rm *` given on `touch a.txt`).
 * - A pattern grant covers a call only when every path (or command) parameter of the call matches
 *   it; path patterns are matched after resolving and confining the path to the workspace,
 *   command patterns word by word on every segment of the command, and a command with
 *   substitution, redirection or that does not parse never matches.
 * - A command that does not parse is never covered, whatever the grant.
 * - Protected paths (the policy's) are not covered whatever was remembered: the processor asks.
 */
export class RememberedPermissions {
  readonly #store: PermissionStore;
  readonly #session = new MemoryPermissionStore();
  readonly #config: RememberedPermissionsConfig;
  readonly #now: () => Date;

  constructor(config: RememberedPermissionsConfig = {}) {
    this.#config = config;
    this.#store = config.store ?? new MemoryPermissionStore();
    this.#now = config.now ?? (() => new Date());
  }

  /**
   * Stores what an approval asked to remember; returns the grants made (none for a Critical call
   * or a decision that remembers nothing). A `rememberForTool` decision on a call the store
   * cannot hold permanently is kept for the session only.
   */
  async remember(request: RememberRequest): Promise<PermissionGrant[]> {
    const { call } = request;
    if (!request.rememberForSession && !request.rememberForTool) return [];
    if (call.riskLevel >= RiskLevel.Critical) return [];
    const patternKind = this.#patternKind(request);
    const base = {
      toolId: call.toolId,
      maxRiskLevel: call.riskLevel,
      createdAt: this.#now(),
      ...(request.rememberPattern === undefined ? {} : { pattern: request.rememberPattern }),
      ...(patternKind === undefined ? {} : { patternKind }),
      ...(call.workspacePath === undefined ? {} : { workspacePath: call.workspacePath }),
      ...(request.grantedBy === undefined ? {} : { grantedBy: request.grantedBy }),
    };
    if (request.rememberPattern !== undefined) {
      // A pattern is remembered on the strength of this call: it must cover it. Otherwise an
      // answer to one prompt (a form's pattern field, the console's) would grant calls no one
      // was shown, e.g. `rm *` given while approving `touch a.txt`.
      const probe: PermissionGrant = { ...base, id: "", scope: "session", sessionId: "" };
      if (!this.covers(probe, call)) {
        throw new InvalidRememberPatternError(
          request.rememberPattern,
          `it does not cover the call it was given for (${describeSubjects(call, this.#config)}); a remembered pattern must include that call`,
        );
      }
    }
    const grants: PermissionGrant[] = [];
    if (request.rememberForTool) {
      const key = this.#config.grantKey;
      const unsigned = { ...base, scope: "tool" as const };
      const grant: PermissionGrant = {
        ...unsigned,
        id: key === undefined ? crypto.randomUUID() : signedGrantId(key, unsigned),
      };
      await this.#store.add(grant);
      grants.push(grant);
    } else {
      const grant: PermissionGrant = {
        ...base,
        id: crypto.randomUUID(),
        scope: "session",
        sessionId: request.sessionId,
      };
      await this.#session.add(grant);
      grants.push(grant);
    }
    return grants;
  }

  /** The first grant covering `call` in `sessionId`, or undefined. */
  async find(call: PolicyCall, sessionId: string): Promise<PermissionGrant | undefined> {
    if (call.riskLevel >= RiskLevel.Critical) return undefined;
    const filter = { toolId: call.toolId };
    const key = this.#config.grantKey;
    const stored = await this.#store.list(filter);
    const candidates = [
      ...(await this.#session.list(filter)).filter((g) => g.sessionId === sessionId),
      ...(key === undefined ? stored : stored.filter((grant) => isSignedGrant(key, grant))),
    ];
    return candidates.find((grant) => this.covers(grant, call));
  }

  /** Whether `grant` covers `call` (see the class's safety rules). */
  covers(grant: PermissionGrant, call: PolicyCall): boolean {
    if (grant.toolId.toLowerCase() !== call.toolId.toLowerCase()) return false;
    if (call.riskLevel >= RiskLevel.Critical || call.riskLevel > grant.maxRiskLevel) return false;
    if (grant.expiresAt !== undefined && grant.expiresAt.getTime() <= this.#now().getTime())
      return false;
    // A grant given in one workspace is that workspace's, whatever its kind: a store shared by
    // two workspaces (a `--db`, a linked `.aintern`) must not carry "always" from one to the other.
    if (grant.workspacePath !== undefined && grant.workspacePath !== call.workspacePath) {
      return false;
    }
    const subjects = callSubjects(call.toolId, call.parameters, this.#config);
    // A command that cannot be read cannot be judged: it is never covered, pattern or not.
    if (subjects.commands.some((c) => !parseCommand(c).ok)) return false;
    if (grant.pattern === undefined) return true;
    if (grant.patternKind === "command") {
      const pattern = grant.pattern;
      return (
        subjects.commands.length > 0 &&
        subjects.commands.every((c) => matchCommandPattern(pattern, c))
      );
    }
    const workspace = call.workspacePath;
    if (workspace === undefined || subjects.paths.length === 0) return false;
    const pattern = grant.pattern;
    return subjects.paths.every((p) => matchPathPattern(pattern, p, workspace));
  }

  /** Every grant: the sessions' and the store's. */
  async list(filter?: PermissionFilter): Promise<PermissionGrant[]> {
    return [...(await this.#session.list(filter)), ...(await this.#store.list(filter))];
  }

  /** Revokes a grant by id, wherever it is; resolves whether one was found. */
  async revoke(id: string): Promise<boolean> {
    return (await this.#session.revoke(id)) || (await this.#store.revoke(id));
  }

  /** Forgets a session's grants (call when a conversation ends). */
  async endSession(sessionId: string): Promise<void> {
    for (const grant of await this.#session.list()) {
      if (grant.sessionId === sessionId) await this.#session.revoke(grant.id);
    }
  }

  #patternKind(request: RememberRequest): PermissionPatternKind | undefined {
    const pattern = request.rememberPattern;
    if (pattern === undefined) return undefined;
    const subjects = callSubjects(request.call.toolId, request.call.parameters, this.#config);
    if (subjects.commands.length > 0) {
      const problem = validateCommandPattern(pattern);
      if (problem !== undefined) throw new InvalidRememberPatternError(pattern, problem);
      return "command";
    }
    if (subjects.paths.length > 0) {
      const problem = validatePathPattern(pattern);
      if (problem !== undefined) throw new InvalidRememberPatternError(pattern, problem);
      return "path";
    }
    throw new InvalidRememberPatternError(
      pattern,
      "the call has no path or command parameter to match it against",
    );
  }
}

/** The paths or commands of `call`, for a message. */
function describeSubjects(call: PolicyCall, kinds: ParameterKindConfig): string {
  const subjects = callSubjects(call.toolId, call.parameters, kinds);
  const items = subjects.commands.length > 0 ? subjects.commands : subjects.paths;
  const shown = items
    .slice(0, 3)
    .map((item) => `'${item.length > 80 ? `${item.slice(0, 80)}...` : item}'`);
  return `${shown.join(", ")}${items.length > 3 ? ", ..." : ""}`;
}
