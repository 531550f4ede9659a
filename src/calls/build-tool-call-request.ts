import { closestNames } from "../core/index.js";
import type { RawToolCall } from "../providers/index.js";
import { parseArguments, ToolCallParseErrorCode } from "../providers/index.js";
import { ToolValidationError, ToolValidationResult } from "../validation/index.js";
import { deepFreezeJson } from "./json-utils.js";
import { ToolCallRequest } from "./tool-call-request.js";

/** The known tools, for matching a model's tool name (case-insensitively) and suggesting one. */
export interface ToolDirectory {
  /** Lower-cased id -> registered id. */
  readonly byLowerId: ReadonlyMap<string, string>;
  readonly ids: readonly string[];
}

/** Settings shared by every request of one parse. */
export interface BuildSettings {
  readonly iterationNumber: number;
  readonly maxArgumentsBytes: number;
  readonly requestedAt: Date;
  readonly tools: ToolDirectory | undefined;
}

const maxListedTools = 20;
const maxShownNameChars = 80;

/** A directory of tool ids. */
export function toolDirectory(toolIds: Iterable<string>): ToolDirectory {
  const ids = [...new Set(toolIds)];
  return { byLowerId: new Map(ids.map((id) => [id.toLowerCase(), id])), ids };
}

/**
 * The request for one raw call. Never throws: whatever is wrong with the call (no name, an
 * unknown tool, unreadable arguments) becomes a failed validation result whose messages tell the
 * model what to send instead.
 */
export function buildToolCallRequest(raw: RawToolCall, settings: BuildSettings): ToolCallRequest {
  const name = typeof raw.name === "string" ? raw.name : "";
  const label = name === "" ? "(unnamed tool)" : shorten(name);
  const errors: ToolValidationError[] = [];

  let toolId = name;
  if (name === "") {
    if (raw.args.kind !== "invalid") {
      errors.push(
        rootError(
          ToolCallParseErrorCode.MissingToolName,
          `The tool call has no tool name. ${availableSentence(settings.tools)}`,
        ),
      );
    }
  } else if (settings.tools !== undefined) {
    const known = settings.tools.byLowerId.get(name.toLowerCase());
    if (known === undefined) {
      errors.push(
        rootError(ToolCallParseErrorCode.ToolNotFound, toolNotFoundMessage(name, settings.tools)),
      );
    } else {
      toolId = known;
    }
  }

  const args = parseArguments(raw.args, label, settings.maxArgumentsBytes);
  if (!args.ok) errors.push(rootError(args.problem.errorCode, args.problem.message));
  const warnings = [...(raw.notes ?? []), ...args.warnings];

  return new ToolCallRequest({
    providerCallId: raw.providerCallId,
    callIdSynthesized: raw.callIdSynthesized,
    toolId,
    toolName: name,
    iterationNumber: settings.iterationNumber,
    parameters: args.ok ? deepFreezeJson(args.parameters) : {},
    rawJson: args.rawJson,
    validationResult: errors.length === 0 ? undefined : ToolValidationResult.invalid(...errors),
    executionSummary: `Execute ${label}`,
    warnings: warnings.length === 0 ? undefined : warnings,
    requestedAt: settings.requestedAt,
  });
}

function rootError(errorCode: string, message: string): ToolValidationError {
  return new ToolValidationError({ parameterName: "", message, errorCode });
}

/**
 * "Tool 'file-raed' not found. Did you mean 'file-read'? Available: file-read, file-write." Used
 * both when parsing and when a parsed call names a tool the registry no longer has.
 */
export function toolNotFoundMessage(name: string, tools: ToolDirectory): string {
  // Edit distance is quadratic; a name this long is no typo of a tool id.
  const suggestions = name.length <= 256 ? closestNames(name, tools.ids) : [];
  const hint =
    suggestions.length === 0
      ? ""
      : ` Did you mean ${suggestions.map((s) => `'${s}'`).join(" or ")}?`;
  return `Tool '${shorten(name)}' not found.${hint} ${availableSentence(tools)}`;
}

function availableSentence(tools: ToolDirectory | undefined): string {
  if (tools === undefined) return "Send the id of one of the available tools.";
  if (tools.ids.length === 0) return "No tools are available.";
  const listed = tools.ids.slice(0, maxListedTools).join(", ");
  const more =
    tools.ids.length > maxListedTools ? `, and ${tools.ids.length - maxListedTools} more` : "";
  return `Available: ${listed}${more}.`;
}

function shorten(name: string): string {
  return name.length <= maxShownNameChars ? name : `${name.slice(0, maxShownNameChars)}...`;
}
