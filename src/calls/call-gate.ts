import type {
  ApprovalPolicy,
  PolicyCall,
  PolicyDecision,
  RememberedPermissions,
} from "../approval/index.js";
import {
  isJsonObject,
  isRiskLevel,
  type JsonObject,
  maxRiskLevel,
  RiskLevel,
} from "../core/index.js";
import type { ToolRegistry } from "../registry/index.js";
import { type Tool, validateOnce } from "../tools/index.js";
import {
  coerceScalarParameters,
  ToolValidationResult,
  type ToolValidator,
} from "../validation/index.js";
import { toolDirectory, toolNotFoundMessage } from "./build-tool-call-request.js";
import type { ToolCallRequest } from "./tool-call-request.js";

/** The policy's verdict on a call once remembered permissions have been applied. */
export type CallVerdict =
  | {
      readonly kind: "allow";
      /** The remembered grant that allowed the call, when one did. */
      readonly grantId?: string;
      /** That grant's reach: `session`, `tool` or `pattern`. */
      readonly grantScope?: string;
      readonly reason: string;
    }
  | { readonly kind: "deny"; readonly reason: string }
  | (PolicyDecision & { readonly kind: "ask" });

/** What a {@link CallGate} is built from. */
export interface CallGateConfig {
  readonly registry: ToolRegistry;
  readonly policy: ApprovalPolicy;
  readonly permissions: RememberedPermissions;
  readonly validator: ToolValidator;
  readonly workspacePath: string | undefined;
}

/**
 * The checks every call passes before anyone is asked: the tool's risk assessment, validation,
 * and the policy with remembered permissions. Shared by the processor's batch path, its
 * single-call path (`processCall`) and `needsApproval`, so they can never disagree.
 */
export class CallGate {
  readonly #config: CallGateConfig;

  constructor(config: CallGateConfig) {
    this.#config = config;
  }

  /**
   * The request with its effective risk and summary from the tool. A tool whose assessment
   * throws, or answers with something that is not a risk level, gets at least Medium (which
   * asks): an assessment that failed must not make a call run unasked.
   */
  assess(request: ToolCallRequest, tool: Tool | undefined): ToolCallRequest {
    if (tool === undefined || !isJsonObject(request.parameters)) return request;
    let riskLevel: unknown;
    try {
      riskLevel = tool.getEffectiveRiskLevel(request.parameters);
    } catch {
      riskLevel = undefined;
    }
    let executionSummary: string | undefined;
    try {
      executionSummary = tool.getExecutionSummary(request.parameters);
    } catch {
      executionSummary = undefined;
    }
    if (!isRiskLevel(riskLevel)) {
      return request.withRiskAssessment({
        riskLevel: maxRiskLevel(safeDefaultRisk(tool), RiskLevel.Medium),
        executionSummary,
        warnings: [
          ...(request.warnings ?? []),
          "The tool could not assess the risk of this call; it is treated as at least Medium.",
        ],
      });
    }
    return request.withRiskAssessment({ riskLevel, executionSummary });
  }

  /**
   * The request with string values converted to the scalar types its schema expects (spec 003),
   * each conversion a validation warning the model sees; the request itself when none applies.
   */
  coerce(request: ToolCallRequest, tool: Tool | undefined): ToolCallRequest {
    if (tool === undefined || request.validationResult?.isValid === false) return request;
    let schema: unknown;
    try {
      schema = tool.inputSchema;
    } catch {
      return request;
    }
    const { parameters, warnings } = coerceScalarParameters(schema, request.parameters);
    if (warnings.length === 0) return request;
    const earlier = request.validationResult?.warnings ?? [];
    return request
      .withParameters(parameters)
      .withValidation(ToolValidationResult.validWithWarnings(...earlier, ...warnings));
  }

  /** Why the call cannot run as sent, for the model; undefined when it is valid. */
  validationProblem(request: ToolCallRequest, tool: Tool | undefined): string | undefined {
    if (request.validationResult !== undefined && !request.validationResult.isValid) {
      return request.validationResult.getErrorMessage();
    }
    if (tool === undefined) {
      const ids = this.#config.registry.tools.map((t) => t.id);
      return toolNotFoundMessage(request.toolId, toolDirectory(ids));
    }
    return this.validate(tool, request.parameters);
  }

  /**
   * The argument limits (size, depth: a cheap walk), then the tool's own validation, once per
   * call: the executor and the tool do not validate these parameters again. Undefined when the
   * parameters pass.
   */
  validate(tool: Tool, parameters: unknown): string | undefined {
    const limits = this.#config.validator.validateAgainstSchema(parameters, true);
    if (!limits.isValid) return limits.getErrorMessage();
    const own = safeValidate(tool, parameters);
    return own.isValid ? undefined : own.getErrorMessage();
  }

  /** What the policy is told about the call. */
  policyCall(request: ToolCallRequest, tool: Tool, parameters: JsonObject): PolicyCall {
    const workspacePath = this.#config.workspacePath;
    return {
      toolId: tool.id,
      category: tool.category,
      riskLevel: request.riskLevel,
      parameters,
      ...(workspacePath === undefined ? {} : { workspacePath }),
    };
  }

  /**
   * The policy's decision, with remembered permissions of `sessionId` applied where the policy
   * would ask. A tool that requires confirmation asks even where the policy would allow it by
   * its risk (a remembered grant still covers it). A promise only when remembered permissions
   * are looked up.
   */
  verdict(call: PolicyCall, tool: Tool, sessionId: string): CallVerdict | Promise<CallVerdict> {
    const decision = this.policyVerdict(call, tool);
    // Only a question a grant may answer waits for the remembered permissions: an allowed call
    // gets its verdict without a turn of the microtask queue.
    return decision.kind === "ask" && this.#rememberable(decision)
      ? this.#remembered(decision, call, sessionId)
      : decision;
  }

  /** The policy's decision alone; a tool that requires confirmation asks where it would allow. */
  policyVerdict(call: PolicyCall, tool: Tool): CallVerdict {
    const decision = this.#config.policy.decide(call);
    if (decision.kind === "allow" && requiresConfirmation(tool)) {
      return { kind: "ask", reason: `'${tool.id}' requires confirmation before it runs` };
    }
    return decision;
  }

  /** Whether a remembered grant may answer this question (never a protected, unsure or Critical one). */
  #rememberable(decision: PolicyDecision & { readonly kind: "ask" }): boolean {
    return (
      decision.protectedPath !== true &&
      decision.possiblyDenied !== true &&
      decision.warning === undefined
    );
  }

  async #remembered(
    decision: PolicyDecision & { readonly kind: "ask" },
    call: PolicyCall,
    sessionId: string,
  ): Promise<CallVerdict> {
    const grant = await this.#config.permissions.find(call, sessionId);
    if (grant === undefined) return decision;
    return {
      kind: "allow",
      grantId: grant.id,
      grantScope: grant.pattern === undefined ? grant.scope : "pattern",
      reason: `Remembered permission ${grant.id}`,
    };
  }
}

function requiresConfirmation(tool: Tool): boolean {
  try {
    return tool.requiresConfirmation === true;
  } catch {
    return true; // a getter that throws cannot promise the call is safe to run unasked
  }
}

function safeValidate(tool: Tool, parameters: unknown): ToolValidationResult {
  try {
    return validateOnce(tool, parameters);
  } catch (error) {
    return ToolValidationResult.invalidValue(
      "(root)",
      `The tool's validation failed: ${errorText(error)}`,
    );
  }
}

/** The tool's default risk, or Medium when reading it throws or gives no risk level. */
function safeDefaultRisk(tool: Tool): RiskLevel {
  try {
    const risk: unknown = tool.defaultRiskLevel;
    return isRiskLevel(risk) ? risk : RiskLevel.Medium;
  } catch {
    return RiskLevel.Medium;
  }
}

/** The message of a thrown value. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
