import type { ElicitRequestFormParams } from "@modelcontextprotocol/server";
import { callSubjects, type ParameterKindConfig } from "../approval/index.js";
import { ApprovalDecision, type ApprovalRequirementDetails } from "../calls/index.js";
import { type JsonObject, RiskLevel, riskLevelName } from "../core/index.js";

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

/** What the approval form is built from. */
export interface ApprovalFormCall {
  readonly toolId: string;
  /** The name the client knows the tool by. */
  readonly toolName: string;
  readonly parameters: JsonObject;
  /** Why it asks: `processor.needsApproval`'s answer. */
  readonly need: Omit<ApprovalRequirementDetails, "argumentsHash">;
  readonly parameterKinds?: ParameterKindConfig;
}

/**
 * The form-mode elicitation that asks a person about one call: approve once, for this session,
 * always for this tool, or for a pattern it suggests (a folder glob for paths, a command prefix
 * for commands), or deny with a reason.
 */
export function approvalForm(call: ApprovalFormCall): Omit<ElicitRequestFormParams, "mode"> {
  // A Critical call is never remembered: offering "always" would promise what is not kept.
  const critical = call.need.riskLevel >= RiskLevel.Critical;
  const pattern = critical
    ? undefined
    : suggestPattern(call.toolId, call.parameters, call.parameterKinds);
  const choices: [ApprovalChoice, string][] = [
    [ApprovalChoice.Once, "Approve once"],
    ...(critical
      ? []
      : ([
          [ApprovalChoice.Session, "Approve for this session"],
          [ApprovalChoice.Always, `Always approve ${call.toolName}`],
        ] as [ApprovalChoice, string][])),
    ...(pattern === undefined
      ? []
      : ([[ApprovalChoice.Pattern, `Always approve ${call.toolName} for ${pattern}`]] as [
          ApprovalChoice,
          string,
        ][])),
    [ApprovalChoice.Deny, "Deny"],
  ];
  const args = JSON.stringify(call.parameters, null, 2);
  const lines = [
    `aintern: ${call.toolName} wants to run (${riskLevelName(call.need.riskLevel)} risk).`,
    call.need.summary,
    `Why it asks: ${call.need.reason}`,
    ...(call.need.warning === undefined ? [] : [`WARNING: ${call.need.warning}`]),
    ...(critical ? ["A Critical call is asked every time: it cannot be remembered."] : []),
    `Arguments: ${args.length > 2000 ? `${args.slice(0, 2000)}...` : args}`,
  ];
  return {
    // Bidirectional-text controls from the model are shown as their code: in a client's dialog
    // they could reorder the command the person reads ("Trojan Source").
    message: lines
      .join("\n")
      .replace(
        /[\u202A-\u202E\u2066-\u2069]/g,
        (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase()}]`,
      ),
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

/**
 * Programs whose first word is a subcommand that decides what runs (`npm test` against
 * `npm exec`): a pattern for one of them keeps its subcommand.
 */
const subcommandPrograms = new Set([
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "npx",
  "git",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "dotnet",
  "gh",
  "make",
  "mvn",
  "gradle",
]);

/**
 * A pattern worth remembering for this call: the folder of its path (`src/**`); for a command,
 * its program and subcommand when the subcommand decides what runs (`npm test`, or `npm test *`
 * when more words follow: never `npm *`, which would also approve `npm exec` of anything), else
 * its program (`touch *`; `make` alone); undefined when the call has neither, or several.
 */
export function suggestPattern(
  toolId: string,
  parameters: JsonObject,
  kinds?: ParameterKindConfig,
): string | undefined {
  const subjects = callSubjects(toolId, parameters, kinds);
  if (subjects.commands.length === 1) {
    const [program, subcommand, ...rest] = subjects.commands[0]!.trim().split(/\s+/);
    if (program === undefined || program === "") return undefined;
    if (subcommand === undefined) return program;
    if (!subcommandPrograms.has(program) || !/^[a-z][a-z0-9:-]*$/.test(subcommand)) {
      return `${program} *`;
    }
    return rest.length === 0 ? `${program} ${subcommand}` : `${program} ${subcommand} *`;
  }
  if (subjects.paths.length === 1) {
    const path = subjects.paths[0]!.replaceAll("\\", "/");
    const slash = path.lastIndexOf("/");
    return slash <= 0 ? "**" : `${path.slice(0, slash)}/**`;
  }
  return undefined;
}
