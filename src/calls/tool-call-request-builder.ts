import { AinternError, isJsonObject, type JsonObject, RiskLevel } from "../core/index.js";
import type { Tool } from "../tools/index.js";
import type { ToolValidationResult } from "../validation/index.js";
import { toJsonValue } from "./json-utils.js";
import { ToolCallRequest } from "./tool-call-request.js";

/**
 * Fluent construction of a {@link ToolCallRequest} (spec 002 `ToolCallRequestBuilder`).
 *
 * @example
 * ```ts
 * const request = ToolCallRequestBuilder.create()
 *   .withTool(fileReadTool)
 *   .withParameters({ path: "src/app.ts" })
 *   .withIteration(2)
 *   .build();
 * ```
 */
export class ToolCallRequestBuilder {
  #id: string | undefined;
  #providerCallId: string | undefined;
  #callIdSynthesized = false;
  #toolId = "";
  #toolName = "";
  #parameters: JsonObject = {};
  #rawJson: string | undefined;
  #iterationNumber = 0;
  #riskLevel: RiskLevel = RiskLevel.Safe;
  #executionSummary = "";
  #warnings: string[] | undefined;
  #requiresApproval = false;
  #validationResult: ToolValidationResult | undefined;
  #requestedAt: Date | undefined;

  private constructor() {}

  /** A new builder. */
  static create(): ToolCallRequestBuilder {
    return new ToolCallRequestBuilder();
  }

  /** Sets the request id (default: a new UUID at build time). */
  withId(id: string): this {
    this.#id = id;
    return this;
  }

  /** Sets the provider's call id, and whether aintern synthesized it. */
  withProviderCallId(providerCallId: string, synthesized = false): this {
    this.#providerCallId = providerCallId;
    this.#callIdSynthesized = synthesized;
    return this;
  }

  /** Sets the tool id. */
  withToolId(toolId: string): this {
    this.#toolId = toolId;
    return this;
  }

  /** Sets the tool name. */
  withToolName(toolName: string): this {
    this.#toolName = toolName;
    return this;
  }

  /** Sets id, name and (default) risk level from a tool. */
  withTool(tool: Pick<Tool, "id" | "name" | "defaultRiskLevel">): this {
    this.#toolId = tool.id;
    this.#toolName = tool.name;
    this.#riskLevel = tool.defaultRiskLevel;
    return this;
  }

  /**
   * Sets the parameters from a JSON object or any object that serializes to one (the spec's
   * generic overload): it is copied through JSON, so `undefined` members drop out and dates become
   * strings. Throws an `AinternError` (`"INVALID_PARAMETERS"`) for anything that does not
   * serialize to a JSON object.
   */
  withParameters(parameters: JsonObject | object): this {
    let json: unknown;
    try {
      json = toJsonValue(parameters);
    } catch (error) {
      throw new AinternError("INVALID_PARAMETERS", "Tool call parameters must serialize to JSON.", {
        cause: error,
      });
    }
    if (!isJsonObject(json)) {
      throw new AinternError("INVALID_PARAMETERS", "Tool call parameters must be a JSON object.");
    }
    this.#parameters = json;
    return this;
  }

  /** Sets the raw argument text. */
  withRawJson(rawJson: string): this {
    this.#rawJson = rawJson;
    return this;
  }

  /** Sets the iteration number. */
  withIteration(iteration: number): this {
    this.#iterationNumber = iteration;
    return this;
  }

  /** Sets the risk level. */
  withRiskLevel(riskLevel: RiskLevel): this {
    this.#riskLevel = riskLevel;
    return this;
  }

  /** Sets the execution summary (default: `"Execute <toolName>"`). */
  withSummary(summary: string): this {
    this.#executionSummary = summary;
    return this;
  }

  /** Adds a warning. */
  withWarning(warning: string): this {
    this.#warnings ??= [];
    this.#warnings.push(warning);
    return this;
  }

  /** Sets whether approval is required. */
  requiresApproval(required = true): this {
    this.#requiresApproval = required;
    return this;
  }

  /** Sets the validation result. */
  withValidation(result: ToolValidationResult): this {
    this.#validationResult = result;
    return this;
  }

  /** Sets when the call was requested (default: now, at build time). */
  withRequestedAt(requestedAt: Date): this {
    this.#requestedAt = requestedAt;
    return this;
  }

  /** Builds the request. */
  build(): ToolCallRequest {
    return new ToolCallRequest({
      id: this.#id,
      providerCallId: this.#providerCallId,
      callIdSynthesized: this.#callIdSynthesized,
      toolId: this.#toolId,
      toolName: this.#toolName,
      parameters: this.#parameters,
      rawJson: this.#rawJson,
      iterationNumber: this.#iterationNumber,
      riskLevel: this.#riskLevel,
      executionSummary:
        this.#executionSummary.length > 0 ? this.#executionSummary : `Execute ${this.#toolName}`,
      warnings: this.#warnings,
      requiresApproval: this.#requiresApproval,
      validationResult: this.#validationResult,
      requestedAt: this.#requestedAt,
    });
  }
}
