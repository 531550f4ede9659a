import { randomUUID } from "node:crypto";
import { type JsonObject, type JsonValue, RiskLevel, riskLevelName } from "../core/index.js";
import type { ToolValidationResult } from "../validation/index.js";
import { frozenJsonObject } from "./json-utils.js";

/**
 * The fields of a {@link ToolCallRequest}, all optional (the C# object initializer). Missing
 * ones take the spec's defaults: a new UUID, empty strings, iteration 0, `{}` parameters,
 * `RiskLevel.Safe`, now.
 */
export interface ToolCallRequestInit {
  id?: string;
  providerCallId?: string;
  callIdSynthesized?: boolean;
  toolId?: string;
  toolName?: string;
  iterationNumber?: number;
  parameters?: JsonObject;
  rawJson?: string;
  validationResult?: ToolValidationResult;
  riskLevel?: RiskLevel;
  executionSummary?: string;
  warnings?: readonly string[];
  requiresApproval?: boolean;
  requestedAt?: Date;
}

/** A risk assessment to apply with {@link ToolCallRequest.withRiskAssessment}. */
export interface ToolCallRiskAssessment {
  riskLevel: RiskLevel;
  executionSummary?: string;
  warnings?: readonly string[];
  requiresApproval?: boolean;
}

/** What {@link ToolCallRequest.tryGetParameter} found. */
export type ParameterLookup<T> = { found: true; value: T } | { found: false; value?: never };

/**
 * A tool call parsed from a model's output (spec 002 `ToolCallRequest`). Immutable: the `with...`
 * methods return changed copies that keep the same `id`.
 *
 * @example
 * ```ts
 * const request = ToolCallRequest.create("file-read", "Read File", { path: "a.txt" }, 1);
 * request.getParameter("path"); // "a.txt"
 * const checked = request.withValidation(tool.validate(request.parameters));
 * ```
 */
export class ToolCallRequest {
  /** Unique id of this call (a UUID), stable through its lifecycle. */
  readonly id: string;
  /**
   * The provider's own id for the call (`call_...`, `toolu_...`), verbatim; the result message
   * must carry it back. Undefined for a request built by hand.
   */
  readonly providerCallId: string | undefined;
  /** True when the provider gave no call id and `providerCallId` was synthesized by aintern. */
  readonly callIdSynthesized: boolean;
  /** Id of the tool to invoke, e.g. `"file-read"`. */
  readonly toolId: string;
  /** Human-readable tool name, for approval prompts and logs. */
  readonly toolName: string;
  /** The agent-loop iteration that produced this call. */
  readonly iterationNumber: number;
  /** The arguments, parsed (deeply frozen). `{}` when they could not be parsed. */
  readonly parameters: JsonObject;
  /** The arguments as the model sent them, kept for debugging and audit. */
  readonly rawJson: string | undefined;
  /** The result of validating the parameters; undefined until validated. */
  readonly validationResult: ToolValidationResult | undefined;
  /** The risk of this invocation (may be above the tool's default). */
  readonly riskLevel: RiskLevel;
  /** What the call will do, for an approval prompt. */
  readonly executionSummary: string;
  /** Warnings for the person approving (and notes such as a repaired argument text). */
  readonly warnings: readonly string[] | undefined;
  /** Whether this call needs a person's approval. */
  readonly requiresApproval: boolean;
  /** When the call was parsed. */
  readonly requestedAt: Date;

  constructor(init: ToolCallRequestInit = {}) {
    this.id = init.id ?? randomUUID();
    this.providerCallId = init.providerCallId;
    this.callIdSynthesized = init.callIdSynthesized ?? false;
    this.toolId = init.toolId ?? "";
    this.toolName = init.toolName ?? "";
    this.iterationNumber = init.iterationNumber ?? 0;
    this.parameters = frozenJsonObject(init.parameters ?? {});
    this.rawJson = init.rawJson;
    this.validationResult = init.validationResult;
    this.riskLevel = init.riskLevel ?? RiskLevel.Safe;
    this.executionSummary = init.executionSummary ?? "";
    this.warnings = init.warnings === undefined ? undefined : Object.freeze([...init.warnings]);
    this.requiresApproval = init.requiresApproval ?? false;
    this.requestedAt =
      init.requestedAt === undefined ? new Date() : new Date(init.requestedAt.getTime());
    Object.freeze(this);
  }

  /** A request with the spec's basic information and the summary `"Execute <toolName>"`. */
  static create(
    toolId: string,
    toolName: string,
    parameters: JsonObject,
    iteration: number,
    riskLevel: RiskLevel = RiskLevel.Safe,
  ): ToolCallRequest {
    return new ToolCallRequest({
      toolId,
      toolName,
      parameters,
      iterationNumber: iteration,
      riskLevel,
      executionSummary: `Execute ${toolName}`,
    });
  }

  /** True when not yet validated, or when validation passed. */
  get isValid(): boolean {
    return this.validationResult?.isValid ?? true;
  }

  /** The validation errors as `"parameter: message"` lines (just the message when no parameter). */
  get validationErrors(): readonly string[] {
    return (this.validationResult?.errors ?? []).map((e) =>
      e.parameterName === "" ? e.message : `${e.parameterName}: ${e.message}`,
    );
  }

  /** Milliseconds since the request was parsed. */
  get ageMs(): number {
    return Date.now() - this.requestedAt.getTime();
  }

  /** The names of the parameters present. */
  get parameterNames(): readonly string[] {
    return Object.keys(this.parameters);
  }

  /** Whether the parameter `name` is present (an own property; `"__proto__"` is just a name). */
  hasParameter(name: string): boolean {
    return Object.hasOwn(this.parameters, name);
  }

  /**
   * The value of parameter `name`, or undefined when it is absent or (with `guard`) of another
   * type. Without a guard the type argument is an unchecked assertion, as in the spec's
   * `GetParameter<T>`.
   *
   * @example
   * ```ts
   * const path = request.getParameter("path", (v): v is string => typeof v === "string");
   * ```
   */
  getParameter<T extends JsonValue = JsonValue>(
    name: string,
    guard?: (value: JsonValue) => value is T,
  ): T | undefined {
    const lookup = this.tryGetParameter(name, guard);
    return lookup.found ? lookup.value : undefined;
  }

  /**
   * Looks up parameter `name`, telling "absent" apart from a present `null`; with `guard`, a
   * value of another type counts as not found.
   */
  tryGetParameter<T extends JsonValue = JsonValue>(
    name: string,
    guard?: (value: JsonValue) => value is T,
  ): ParameterLookup<T> {
    if (!Object.hasOwn(this.parameters, name)) return { found: false };
    const value = this.parameters[name] as JsonValue;
    if (guard !== undefined && !guard(value)) return { found: false };
    return { found: true, value: value as T };
  }

  /** A copy carrying `result` as its validation result. */
  withValidation(result: ToolValidationResult): ToolCallRequest {
    return new ToolCallRequest({ ...this.#init(), validationResult: result });
  }

  /** A copy with new parameters; its validation result is cleared (it must be validated again). */
  withParameters(parameters: JsonObject): ToolCallRequest {
    return new ToolCallRequest({ ...this.#init(), parameters, validationResult: undefined });
  }

  /**
   * A copy with the risk of this invocation (from `tool.getEffectiveRiskLevel` and
   * `getExecutionSummary`). Fields left out of `assessment` keep their values.
   */
  withRiskAssessment(assessment: ToolCallRiskAssessment): ToolCallRequest {
    const init = this.#init();
    init.riskLevel = assessment.riskLevel;
    init.executionSummary = assessment.executionSummary ?? init.executionSummary;
    init.warnings = assessment.warnings ?? init.warnings;
    init.requiresApproval = assessment.requiresApproval ?? init.requiresApproval;
    return new ToolCallRequest(init);
  }

  /** `ToolCallRequest(Read File, Id=1a2b3c4d, Risk=Safe)`. */
  toString(): string {
    const shortId = this.id.replaceAll("-", "").slice(0, 8);
    return `ToolCallRequest(${this.toolName}, Id=${shortId}, Risk=${riskLevelName(this.riskLevel)})`;
  }

  #init(): ToolCallRequestInit {
    return {
      id: this.id,
      providerCallId: this.providerCallId,
      callIdSynthesized: this.callIdSynthesized,
      toolId: this.toolId,
      toolName: this.toolName,
      iterationNumber: this.iterationNumber,
      parameters: this.parameters,
      rawJson: this.rawJson,
      validationResult: this.validationResult,
      riskLevel: this.riskLevel,
      executionSummary: this.executionSummary,
      warnings: this.warnings,
      requiresApproval: this.requiresApproval,
      requestedAt: this.requestedAt,
    };
  }
}
