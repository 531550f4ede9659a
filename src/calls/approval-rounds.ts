import {
  type ApprovalPolicy,
  InvalidRememberPatternError,
  type PolicyDecision,
  type RememberedPermissions,
} from "../approval/index.js";
import { type JsonObject, type RiskLevel, riskLevelName } from "../core/index.js";
import { type Tool, toolDefinitionDigest } from "../tools/index.js";
import { ApprovalDecision } from "./approval-decision.js";
import type { ApprovalHandler, ApprovalPromptDetails } from "./approval-handler.js";
import { type CallGate, errorText } from "./call-gate.js";
import { hashToolCallArguments } from "./hash-tool-call-arguments.js";
import type { ToolCallRequest } from "./tool-call-request.js";

/** Settings of the approval rounds (from the processor's config). */
export interface ApprovalRoundsConfig {
  readonly gate: CallGate;
  readonly policy: ApprovalPolicy;
  readonly permissions: RememberedPermissions;
  readonly handler: ApprovalHandler | undefined;
  /** Milliseconds; `Infinity` waits as long as the handler takes. */
  readonly timeoutMs: number;
  readonly maxRounds: number;
  readonly approver: string | undefined;
  /**
   * The tool the registry holds under an id now. With it, an approval given after the tool was
   * replaced or removed while it was asked about (an upstream's `list_changed` during the
   * prompt) is refused: the person approved the tool as it was shown, and a grant remembered
   * after the change's revocation would cover the new definition.
   */
  readonly currentTool?: (toolId: string) => Tool | undefined;
}

/** One call to decide on. */
export interface ApprovalQuestion {
  /** The assessed request (risk, summary). */
  readonly request: ToolCallRequest;
  readonly tool: Tool;
  readonly verdict: PolicyDecision & { kind: "ask" };
  readonly sessionId: string;
  /** The call's id in its session (the provider's id), when it has one. */
  readonly callId: string | undefined;
  readonly signal: AbortSignal | undefined;
  /**
   * A decision already made (the host framework asked the person): used instead of the handler,
   * for one round only.
   */
  readonly given: ApprovalDecision | undefined;
}

/** Whose word a decision is. */
export type DecisionSource =
  | "person"
  | "host"
  | "rule"
  | "no-handler"
  | "timeout"
  | "handler-error";

/** The outcome of asking: a decision to apply, or a cancellation. */
export type Asked =
  | {
      readonly kind: "decided";
      readonly decision: ApprovalDecision;
      readonly parameters: JsonObject;
      readonly risk: RiskLevel;
      /** Who decided (a denial by the policy after an edit is "rule"). */
      readonly source: DecisionSource;
      /** The grant stored for a remembered approval. */
      readonly grantId?: string;
    }
  | { readonly kind: "cancelled" };

/** The longest timer Node can arm; a longer approval timeout waits without one. */
const maxTimerMs = 2_147_483_647;

/**
 * Asks a person about one call, as many rounds as it takes: an approval whose (possibly edited)
 * parameters are valid and no riskier than what was shown, or a denial. Gives up after
 * `maxRounds` with a denial. Remembers what an approval asks to remember.
 */
export class ApprovalRounds {
  readonly #config: ApprovalRoundsConfig;

  constructor(config: ApprovalRoundsConfig) {
    this.#config = config;
  }

  async ask(question: ApprovalQuestion): Promise<Asked> {
    const { request, tool, verdict, given } = question;
    const handler = this.#config.handler;
    if (handler === undefined && given === undefined) {
      return decided(
        ApprovalDecision.deny(
          "No approval handler is configured, so calls that need approval are denied",
        ).bindTo(request),
        request,
        "no-handler",
      );
    }
    const maxRounds = given === undefined ? this.#config.maxRounds : 1;
    const answeredBy: DecisionSource = given === undefined ? "person" : "host";
    let shown = request;
    let previousProblem: string | undefined;
    let warning = verdict.warning;
    for (let round = 1; round <= maxRounds; round++) {
      const details: ApprovalPromptDetails = {
        reason: round === 1 ? verdict.reason : `Asked again: ${previousProblem}`,
        riskLevel: shown.riskLevel,
        round,
        sessionId: question.sessionId,
        summary: shown.executionSummary,
        toolDefinition: toolDefinitionDigest(tool),
        ...(question.callId === undefined ? {} : { callId: question.callId }),
        ...(warning === undefined ? {} : { warning }),
        ...(previousProblem === undefined ? {} : { previousProblem }),
      };
      const answer =
        given === undefined
          ? await this.#requestDecision(handler!, shown, details, question.signal)
          : rebind(given, shown);
      if (answer === "cancelled") return { kind: "cancelled" };
      if (answer.source !== undefined) {
        return decided(answer.decision.bindTo(request), request, answer.source);
      }
      const decision = answer.decision;
      const mismatch = decision.mismatch(shown);
      if (mismatch !== undefined) {
        return decided(
          ApprovalDecision.deny(`Approval refused: ${mismatch}`).bindTo(request),
          request,
          answeredBy,
        );
      }
      // It answered what was shown (maybe an edit), checked above; from here it is bound to the
      // original request, which the lifecycle holds.
      if (!decision.approved) return decided(decision.bindTo(request), request, answeredBy);
      const currentTool = this.#config.currentTool;
      if (currentTool !== undefined && currentTool(tool.id) !== tool) {
        return decided(
          ApprovalDecision.deny(
            `Approval refused: tool '${tool.id}' changed while it was asked about (its definition was replaced or removed); call it again to be asked about it as it is now`,
          ).bindTo(request),
          request,
          "rule",
        );
      }

      const edited = decision.modifiedParameters;
      if (edited === undefined && shown === request) {
        const remembered = await this.#remember(
          decision,
          request,
          tool,
          request.parameters,
          question,
        );
        if (remembered.refused !== undefined) {
          return decided(remembered.refused.bindTo(request), request, answeredBy);
        }
        return decided(decision.bindTo(request), request, answeredBy, remembered.grantId);
      }
      const parameters = edited ?? shown.parameters;
      const gate = this.#config.gate;
      const problem = gate.validate(tool, parameters);
      const reassessed = gate.assess(request.withParameters(parameters), tool);
      if (problem !== undefined) {
        previousProblem = `the edited parameters are invalid: ${problem}`;
        shown = reassessed;
        continue;
      }
      // Deny wins, also over a person's edit.
      const policy = this.#config.policy.decide(gate.policyCall(reassessed, tool, parameters));
      if (policy.kind === "deny") {
        return decided(
          ApprovalDecision.deny(`The edited call is denied: ${policy.reason}`).bindTo(request),
          request,
          "rule",
        );
      }
      if (reassessed.riskLevel > shown.riskLevel) {
        previousProblem = `the edit raised the risk to ${riskLevelName(reassessed.riskLevel)}`;
        warning = policy.kind === "ask" ? (policy.warning ?? warning) : warning;
        shown = reassessed;
        continue;
      }
      const remembered = await this.#remember(decision, reassessed, tool, parameters, question);
      if (remembered.refused !== undefined) {
        return decided(remembered.refused.bindTo(request), request, answeredBy);
      }
      return {
        kind: "decided",
        decision: new ApprovalDecision({
          approved: true,
          modifiedParameters: parameters,
          ...(decision.reason === undefined ? {} : { reason: decision.reason }),
          rememberForSession: decision.rememberForSession,
          rememberForTool: decision.rememberForTool,
          ...(decision.rememberPattern === undefined
            ? {}
            : { rememberPattern: decision.rememberPattern }),
          decidedAt: decision.decidedAt,
          decisionDurationMs: decision.decisionDurationMs,
          requestId: request.id,
          argumentsHash: hashToolCallArguments(request.parameters),
          ...(decision.decidedBy === undefined ? {} : { decidedBy: decision.decidedBy }),
        }),
        parameters,
        risk: reassessed.riskLevel,
        source: answeredBy,
        ...(remembered.grantId === undefined ? {} : { grantId: remembered.grantId }),
      };
    }
    const prefix =
      given === undefined
        ? `Denied after ${maxRounds} approval rounds`
        : "The decision given cannot be applied";
    return decided(
      ApprovalDecision.deny(`${prefix}: ${previousProblem}`).bindTo(request),
      request,
      answeredBy,
    );
  }

  /**
   * One prompt, bounded by the approval timeout (none when it is `Infinity`) and the signal; a
   * throwing handler denies.
   */
  async #requestDecision(
    handler: ApprovalHandler,
    request: ToolCallRequest,
    details: ApprovalPromptDetails,
    signal: AbortSignal | undefined,
  ): Promise<Answer | "cancelled"> {
    if (signal?.aborted === true) return "cancelled";
    const timeoutMs = this.#config.timeoutMs;
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal?.addEventListener("abort", onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    try {
      return await new Promise<Answer | "cancelled">((resolve) => {
        if (timeoutMs <= maxTimerMs) {
          timer = setTimeout(
            () => resolve({ decision: ApprovalDecision.timeout(), source: "timeout" }),
            timeoutMs,
          );
        }
        controller.signal.addEventListener("abort", () => resolve("cancelled"), { once: true });
        Promise.resolve()
          .then(() => handler.requestApproval(request, controller.signal, details))
          .then(
            (decision) =>
              resolve(
                decision instanceof ApprovalDecision
                  ? { decision }
                  : {
                      decision: ApprovalDecision.deny("The approval handler returned no decision"),
                      source: "handler-error",
                    },
              ),
            (error: unknown) =>
              resolve({
                decision: ApprovalDecision.deny(`The approval handler failed: ${errorText(error)}`),
                source: "handler-error",
              }),
          );
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      controller.abort(); // tells a handler still prompting that the answer is no longer needed
    }
  }

  /**
   * Stores what the decision asks to remember; refuses (a denial) when its pattern cannot be
   * applied to the call: the approval is refused rather than given without what it asked for.
   */
  async #remember(
    decision: ApprovalDecision,
    request: ToolCallRequest,
    tool: Tool,
    parameters: JsonObject,
    question: ApprovalQuestion,
  ): Promise<{ refused?: ApprovalDecision; grantId?: string }> {
    if (!decision.shouldRemember) return {};
    try {
      const grants = await this.#config.permissions.remember({
        call: this.#config.gate.policyCall(request, tool, parameters),
        sessionId: question.sessionId,
        rememberForSession: decision.rememberForSession,
        rememberForTool: decision.rememberForTool,
        ...(decision.rememberPattern === undefined
          ? {}
          : { rememberPattern: decision.rememberPattern }),
        ...((decision.decidedBy ?? this.#config.approver) === undefined
          ? {}
          : { grantedBy: decision.decidedBy ?? this.#config.approver }),
      });
      const grant = grants[0];
      return grant === undefined ? {} : { grantId: grant.id };
    } catch (error) {
      if (!(error instanceof InvalidRememberPatternError)) throw error;
      return { refused: ApprovalDecision.deny(`Approval refused: ${error.message}`) };
    }
  }
}

/** A handler's answer; `source` set when it is not the person's own (a timeout, a failure). */
interface Answer {
  readonly decision: ApprovalDecision;
  readonly source?: DecisionSource;
}

/**
 * A decision made elsewhere, applied to `request`: its argument hash (when bound) must match the
 * arguments; its request id is the host's business (a request id is made per processing).
 */
function rebind(given: ApprovalDecision, request: ToolCallRequest): Answer {
  return {
    decision: new ApprovalDecision({
      approved: given.approved,
      ...(given.reason === undefined ? {} : { reason: given.reason }),
      ...(given.modifiedParameters === undefined
        ? {}
        : { modifiedParameters: given.modifiedParameters }),
      rememberForSession: given.rememberForSession,
      rememberForTool: given.rememberForTool,
      ...(given.rememberPattern === undefined ? {} : { rememberPattern: given.rememberPattern }),
      decidedAt: given.decidedAt,
      decisionDurationMs: given.decisionDurationMs,
      requestId: request.id,
      argumentsHash: given.argumentsHash ?? hashToolCallArguments(request.parameters),
      ...(given.decidedBy === undefined ? {} : { decidedBy: given.decidedBy }),
    }),
  };
}

function decided(
  decision: ApprovalDecision,
  request: ToolCallRequest,
  source: DecisionSource,
  grantId?: string,
): Asked {
  return {
    kind: "decided",
    decision,
    parameters: request.parameters,
    risk: request.riskLevel,
    source,
    ...(grantId === undefined ? {} : { grantId }),
  };
}
