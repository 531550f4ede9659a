import type { ElicitRequestFormParams } from "@modelcontextprotocol/server";
import {
  callSubjects,
  type ParameterKindConfig,
  rememberedCoverage,
  suggestPathPattern,
} from "../approval/index.js";
import { ApprovalDecision, type ApprovalRequirementDetails } from "../calls/index.js";
import { displayText, type JsonObject, RiskLevel, riskLevelName } from "../core/index.js";
import { suggestCommandPattern } from "../shell/index.js";

/** The choices of the approval form, as the `decision` field's values. */
export const ApprovalChoice = {
  Once: "approve_once",
  Session: "approve_session",
  Always: "approve_always",
  Pattern: "approve_pattern",
  Deny: "deny",
} as const;

/** One of the {@link ApprovalChoice} values. */
export type ApprovalChoice = (typeof ApprovalChoice)[keyof typeof ApprovalChoice];

/** The most characters of a name (the tool's) shown in the form. */
const maxNameLength = 200;
/** The most characters of one line of the message (the summary, the reason, the warning). */
const maxLineLength = 2_000;
/** The most characters of one argument's value shown; the middle of a longer one is cut. */
const maxValueLength = 1_000;
/** The most characters of the whole arguments block. */
const maxArgumentsLength = 4_000;

/**
 * Text from the model or a tool as the form shows it: on one line, its invisible and control
 * characters escaped, long runs of spaces counted, and its middle cut past `maxLength`, so a
 * terminal client cannot be made to show a command other than the one that runs (an ANSI
 * sequence erasing it, a carriage return writing over it, padding pushing its end out of view).
 */
function shown(text: string, maxLength: number): string {
  return displayText(text, { maxLength });
}

/**
 * The arguments as indented JSON, each string value's middle cut past {@link maxValueLength} so
 * the end of every value stays visible (where `; rm -rf ~` would go), then escaped as
 * {@link shown} does, keeping the block's line breaks and indentation.
 */
function shownArguments(parameters: JsonObject): string {
  const json = JSON.stringify(
    parameters,
    // JSON.stringify escapes C0 controls, quotes and backslashes in what this returns; the
    // displayText of the whole block escapes the rest, leaving JSON's backslashes as they are.
    (_key, value: unknown) =>
      typeof value === "string"
        ? displayText(value, { maxLength: maxValueLength, keepControls: true })
        : value,
    2,
  );
  return displayText(json ?? "", {
    multiline: true,
    maxLength: maxArgumentsLength,
    keepBackslashes: true,
  });
}

/** What the approval form is built from. */
export interface ApprovalFormCall {
  readonly toolId: string;
  /** The name the client knows the tool by. */
  readonly toolName: string;
  readonly parameters: JsonObject;
  /** Why it asks: `processor.needsApproval`'s answer. */
  readonly need: Omit<ApprovalRequirementDetails, "argumentsHash">;
  readonly parameterKinds?: ParameterKindConfig;
  /** The workspace root paths are resolved against: without it, no path pattern is suggested. */
  readonly workspacePath?: string;
  /**
   * Whether "Approve for this session" is offered (default true). A 2026-07-28 request has no
   * session for it to last: each request is a connection of its own.
   */
  readonly offerSessionChoice?: boolean;
}

/**
 * The form-mode elicitation that asks a person about one call: approve once, for this session,
 * always for this tool, or for a pattern it suggests (a folder glob for paths, a command prefix
 * for commands), or deny with a reason. What comes from the model or a tool (the summary, the
 * reason, the arguments, the tool's name) is shown through `displayText`: control and invisible
 * characters escaped, long runs of spaces counted, long values cut in the middle with a note.
 */
export function approvalForm(call: ApprovalFormCall): Omit<ElicitRequestFormParams, "mode"> {
  // A Critical call is never remembered: offering "always" would promise what is not kept.
  const critical = call.need.riskLevel >= RiskLevel.Critical;
  const pattern = critical
    ? undefined
    : suggestPattern(call.toolId, call.parameters, {
        ...call.parameterKinds,
        ...(call.workspacePath === undefined ? {} : { workspacePath: call.workspacePath }),
      });
  const tool = shown(call.toolName, maxNameLength);
  const choices: [ApprovalChoice, string][] = [
    [ApprovalChoice.Once, "Approve once"],
    ...(critical || call.offerSessionChoice === false
      ? []
      : ([[ApprovalChoice.Session, "Approve for this session"]] as [ApprovalChoice, string][])),
    ...(critical
      ? []
      : ([[ApprovalChoice.Always, `Always approve ${tool}`]] as [ApprovalChoice, string][])),
    ...(pattern === undefined
      ? []
      : ([[ApprovalChoice.Pattern, `Always approve ${tool} for ${pattern}`]] as [
          ApprovalChoice,
          string,
        ][])),
    [ApprovalChoice.Deny, "Deny"],
  ];
  const coverage = rememberedCoverage(tool, call.need.riskLevel);
  const lines = [
    `aintern: ${tool} wants to run (${riskLevelName(call.need.riskLevel)} risk).`,
    shown(call.need.summary, maxLineLength),
    `Why it asks: ${shown(call.need.reason, maxLineLength)}`,
    ...(call.need.warning === undefined
      ? []
      : [`WARNING: ${shown(call.need.warning, maxLineLength)}`]),
    ...(critical ? ["A Critical call is asked every time: it cannot be remembered."] : []),
    ...(coverage === undefined ? [] : [coverage]),
    `Arguments: ${shownArguments(call.parameters)}`,
  ];
  return {
    message: lines.join("\n"),
    requestedSchema: {
      type: "object",
      properties: {
        decision: {
          type: "string",
          title: "Decision",
          enum: choices.map(([value]) => value),
          enumNames: choices.map(([, title]) => title),
          default: ApprovalChoice.Once,
        },
        ...(pattern === undefined
          ? {}
          : {
              pattern: {
                type: "string",
                title: "Pattern to always approve",
                description: "Used with the pattern choice: a path glob or a command prefix.",
                default: pattern,
              },
            }),
        reason: {
          type: "string",
          title: "Reason (for a denial)",
          description: "Told to the model when you deny.",
        },
      },
      required: ["decision"],
    },
  };
}

/** An elicitation's answer, as the SDK hands it over. */
export interface ApprovalAnswer {
  readonly action: "accept" | "decline" | "cancel";
  readonly content?: Readonly<Record<string, unknown>>;
}

/**
 * The decision a person's answer to {@link approvalForm} stands for. Decline and cancel deny; an
 * answer that is not one of the choices denies too (nothing runs without a clear yes).
 */
export function decisionFromAnswer(
  answer: ApprovalAnswer,
  decidedAfterMs?: number,
): ApprovalDecision {
  const timing = decidedAfterMs === undefined ? {} : { decisionDurationMs: decidedAfterMs };
  if (answer.action === "decline") {
    return ApprovalDecision.deny(reasonOf(answer) ?? "The user declined the call.", timing);
  }
  if (answer.action !== "accept") {
    return ApprovalDecision.deny("The user dismissed the approval request.", timing);
  }
  const choice = answer.content?.decision;
  switch (choice) {
    case ApprovalChoice.Once:
      return ApprovalDecision.approve(timing);
    case ApprovalChoice.Session:
      return ApprovalDecision.approve({ ...timing, rememberForSession: true });
    case ApprovalChoice.Always:
      return ApprovalDecision.approve({ ...timing, rememberForTool: true });
    case ApprovalChoice.Pattern: {
      const pattern = answer.content?.pattern;
      if (typeof pattern !== "string" || pattern.trim() === "") {
        return ApprovalDecision.deny("The approval named no pattern.", timing);
      }
      return ApprovalDecision.approve({
        ...timing,
        rememberForTool: true,
        rememberPattern: pattern,
      });
    }
    case ApprovalChoice.Deny:
      return ApprovalDecision.deny(reasonOf(answer) ?? "The user denied the call.", timing);
    default:
      return ApprovalDecision.deny("The approval answer was not one of the choices.", timing);
  }
}

function reasonOf(answer: ApprovalAnswer): string | undefined {
  const reason = answer.content?.reason;
  return typeof reason === "string" && reason.trim() !== "" ? reason.trim() : undefined;
}

/** Settings of {@link suggestPattern}. */
export interface SuggestPatternOptions extends ParameterKindConfig {
  /**
   * The workspace root the policy resolves paths against. Without it no path pattern is
   * suggested: a path pattern is remembered only for a call in a workspace.
   */
  readonly workspacePath?: string;
}

/**
 * A pattern worth remembering for this call, or undefined when the call has no path or command,
 * several, or none that a narrow pattern covers: for a command, its program and subcommand
 * (`npm test *`, `touch *`; see `suggestCommandPattern`); for a path, its folder (`src/app/**`)
 * or, for a file at the workspace root, the root's files (`*`), from where the path really leads
 * (see `suggestPathPattern`). A suggestion is one the person can accept: it passes the pattern
 * validators, covers the call, and reads the same on screen as it is stored.
 */
export function suggestPattern(
  toolId: string,
  parameters: JsonObject,
  options: SuggestPatternOptions = {},
): string | undefined {
  const subjects = callSubjects(toolId, parameters, options);
  let pattern: string | undefined;
  // Commands first: a call with a command is remembered by its command (a path is its cwd).
  if (subjects.commands.length > 0) {
    pattern =
      subjects.commands.length === 1 ? suggestCommandPattern(subjects.commands[0]!) : undefined;
  } else if (subjects.paths.length === 1 && options.workspacePath !== undefined) {
    pattern = suggestPathPattern(subjects.paths[0]!, options.workspacePath);
  }
  return pattern !== undefined && displayText(pattern) === pattern ? pattern : undefined;
}
