import { type JsonSchemaDefinition, type RunContext, type Tool, tool } from "@openai/agents";
import { isJsonObject } from "../../core/index.js";
import { dropStrictModeNulls, InvalidSchemaError, toStrictJsonSchema } from "../../schema/index.js";
import type { Tool as AinternTool } from "../../tools/index.js";
import {
  type AinternGate,
  PendingChecks,
  selectTools,
  takeDecisionRecorded,
} from "../shared/index.js";
import { agentsToolNames } from "./agents-tool-names.js";
import { bindAgentsTool } from "./agents-tool-registry.js";
import { type AgentsRunOptions, agentsRunOptions } from "./agents-unknown-tool.js";

/**
 * Who asks a person about calls that need approval:
 * - `"inline"`: aintern's approval handler, inside the tool (the processor's `approvalHandler`;
 *   without one such calls are denied);
 * - `"framework"`: the Agents SDK's flow: `needsApproval` follows aintern's policy and remembered
 *   permissions, the run stops with interruptions, you `state.approve` / `state.reject` them and
 *   call {@link applyDecisions} before running the state again.
 */
export type AgentsApprovalMode = "inline" | "framework";

/** Options of {@link toAgentsTools}. */
export interface AgentsToolsOptions {
  /** Default `"inline"`. */
  readonly approval?: AgentsApprovalMode;
  /** The conversation the calls belong to; default the processor's `sessionId`. */
  readonly sessionId?: string;
  /** The tool ids to expose (case-insensitive); default every registered tool. */
  readonly tools?: readonly string[];
  /**
   * OpenAI strict mode for tools whose schema allows it (every object closed); default true,
   * as the SDK's own default. The model's `null`s for optional properties are dropped before
   * aintern sees the arguments. A tool whose schema allows additional properties is non-strict.
   */
  readonly strict?: boolean;
}

/** The SDK tools, with the way back from each SDK name to its aintern tool id. */
export type AgentsTools = Tool<unknown>[] & {
  /** SDK tool name (`file_read`) -> aintern tool id (`file-read`). */
  readonly toolIds: ReadonlyMap<string, string>;
  /**
   * For `run(agent, input, { ...tools.runOptions })`: a call to a tool name the agent does not
   * have gets aintern's "not found, did you mean" message instead of ending the run with the SDK's
   * `ModelBehaviorError`.
   */
  readonly runOptions: AgentsRunOptions;
};

type ObjectSchema = JsonSchemaDefinition["schema"];
type StrictObjectSchema = Extract<ObjectSchema, { additionalProperties: false }>;
type LooseObjectSchema = Extract<ObjectSchema, { additionalProperties: true }>;

/**
 * The processor's tools as OpenAI Agents SDK function tools. Names are made valid for the SDK
 * (`file-read` -> `file_read`, see `toolIds` for the way back) so the model's calls reach the
 * right aintern tool; schemas are typed as the SDK wants them, no cast needed. Every call goes
 * through `processor.processCall`: aintern validates it (the SDK does not validate JSON-schema
 * tools), decides on it, runs it and audits it; the model gets aintern's text, also for
 * failures, refusals and denials.
 *
 * A call to a tool name the agent does not have ends the run with the SDK's `ModelBehaviorError`
 * unless `runOptions` are given to `run`: then the model gets aintern's "not found, did you mean"
 * message (with the SDK's names) and the run goes on.
 *
 * @example
 * ```ts
 * const tools = toAgentsTools(processor, { approval: "framework" });
 * const agent = new Agent({ name: "dev", tools });
 * let result = await run(agent, "tidy up", { ...tools.runOptions });
 * for (const item of result.interruptions) result.state.approve(item);
 * await applyDecisions(result.state, processor);
 * result = await run(agent, result.state, { ...tools.runOptions });
 * ```
 */
export function toAgentsTools(
  processor: AinternGate,
  options: AgentsToolsOptions = {},
): AgentsTools {
  const sessionId = options.sessionId ?? processor.sessionId;
  const mode = options.approval ?? "inline";
  const selected = selectTools(processor, options.tools);
  // The SDK parses the call's arguments again for `execute`: a check is reused for arguments
  // equal to those it judged (the same text parsed twice), never for others.
  const checks = new PendingChecks(sameJson);
  const byId = new Map(selected.map((t) => [t.id, t]));
  const names = agentsToolNames(selected.map((t) => t.id));
  const tools: Tool<unknown>[] = [];
  for (const [name, toolId] of names) {
    const source = byId.get(toolId)!;
    const strictSchema = options.strict === false ? undefined : strictSchemaOf(source);
    const parametersOf = (input: unknown): unknown =>
      strictSchema !== undefined && isJsonObject(input)
        ? dropStrictModeNulls(source.inputSchema, input)
        : input;
    bindAgentsTool(processor, name, { toolId, sessionId, parametersOf });
    const execute = async (
      input: unknown,
      runContext?: RunContext<unknown>,
      details?: { toolCall?: { callId: string }; signal?: AbortSignal },
    ): Promise<string> => {
      const callId = details?.toolCall?.callId;
      // The check `needsApproval` made of this call: the call is not judged again.
      const check =
        mode === "framework" && callId !== undefined ? checks.take(callId, input) : undefined;
      const result = await processor.processCall({
        toolId,
        parameters: check === undefined ? parametersOf(input) : check.parameters,
        sessionId,
        ...(callId === undefined ? {} : { callId }),
        ...(details?.signal === undefined ? {} : { signal: details.signal }),
        ...(mode === "framework" && callId !== undefined
          ? frameworkDecision(processor, sessionId, name, callId, runContext)
          : {}),
        ...(check === undefined ? {} : { checked: check.checked }),
      });
      return result.content;
    };
    const needsApproval = async (
      _runContext: RunContext<unknown>,
      input: unknown,
      callId?: string,
    ): Promise<boolean> => {
      if (mode !== "framework") return false;
      const parameters = parametersOf(input);
      if (processor.checkCall === undefined || callId === undefined) {
        return (await processor.needsApproval(toolId, parameters, { sessionId })) !== false;
      }
      const checked = await processor.checkCall({ toolId, parameters, callId, sessionId });
      if (checked.needsApproval !== false) return true;
      checks.keep(callId, input, { checked, parameters });
      return false;
    };
    tools.push(
      strictSchema === undefined
        ? tool({
            name,
            description: source.description,
            parameters: looseSchemaOf(source),
            strict: false,
            execute,
            needsApproval,
          })
        : tool({
            name,
            description: source.description,
            parameters: strictSchema,
            strict: true,
            execute,
            needsApproval,
          }),
    );
  }
  return Object.assign(tools, { toolIds: names, runOptions: agentsRunOptions([...names.keys()]) });
}

/** The tool's schema rewritten for strict mode, or undefined when it cannot be. */
function strictSchemaOf(source: AinternTool): StrictObjectSchema | undefined {
  let strict: AinternTool["inputSchema"];
  try {
    strict = toStrictJsonSchema(source.inputSchema);
  } catch (error) {
    if (error instanceof InvalidSchemaError) return undefined;
    throw error;
  }
  return {
    ...jsonCopy(strict),
    type: "object",
    properties: jsonCopy(strict.properties),
    required: [...strict.required],
    additionalProperties: false,
  };
}

/** The tool's schema as a non-strict SDK schema (the SDK's type wants `additionalProperties: true`). */
function looseSchemaOf(source: AinternTool): LooseObjectSchema {
  const schema = source.inputSchema;
  return {
    ...jsonCopy(schema),
    type: "object",
    properties: jsonCopy(schema.properties),
    required: [...schema.required],
    additionalProperties: true,
  };
}

/** A plain JSON copy (aintern's schema types have readonly arrays the SDK's types do not). */
function jsonCopy(value: object): Record<string, Record<string, unknown>> {
  return JSON.parse(JSON.stringify(value));
}

/**
 * The decision the SDK's flow made for this call, for `processCall`: none when `applyDecisions`
 * recorded it (the processor uses the recorded one); an approval when the person approved this
 * very call (`state.approve(item)`). An `alwaysApprove` covers later calls only as far as the
 * remembered permission `applyDecisions` recorded does: never for a Critical call, which aintern
 * asks about every time.
 */
function frameworkDecision(
  processor: AinternGate,
  sessionId: string,
  name: string,
  callId: string,
  runContext: RunContext<unknown> | undefined,
): { decision?: { approved: true } } {
  if (takeDecisionRecorded(processor, sessionId, callId)) return {};
  if (runContext === undefined) return {};
  const approved = runContext.toJSON().approvals[name]?.approved;
  return Array.isArray(approved) && approved.includes(callId)
    ? { decision: { approved: true } }
    : {};
}

/** Whether two parsed argument values are the same JSON (the same text parsed twice). */
function sameJson(kept: unknown, given: unknown): boolean {
  if (kept === given) return true;
  try {
    return JSON.stringify(kept) === JSON.stringify(given);
  } catch {
    return false;
  }
}
