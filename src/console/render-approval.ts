import { createHash } from "node:crypto";
import { createTwoFilesPatch } from "diff";
import { html as diffToHtml } from "diff2html";
import { rememberedCoverage } from "../approval/index.js";
import { displayText, jsonTextForEditing, RiskLevel, RiskLevelMetadata } from "../core/index.js";
import { parseCommand, suggestCommandPattern } from "../shell/index.js";
import { type Html, html, shownJson, singleLine, trustedHtml, visibleText } from "./html.js";
import { type PendingApproval, PendingApprovalStatus } from "./pending-approval.js";

/** What the card shows after an edit was checked. */
export interface EditOutcome {
  readonly text: string;
  readonly errors: readonly string[];
  /** The risk of the edited call, when it could be assessed here. */
  readonly riskName?: string;
  readonly riskNote?: string;
}

/** The risk badge, in the spec's colour for the level. */
export function riskBadge(level: number): Html {
  const info = RiskLevelMetadata.getInfo(level as never);
  return html`<span class="badge risk-${level}" title="${info.description}">${info.displayName}</span>`;
}

/** Characters a path pattern reads as glob syntax: a name holding one cannot be offered as is. */
const globSyntax = /[*?[\]{}()!+@]/;

/**
 * The remember pattern offered for a call, editable in the card, or nothing: for a command, its
 * program and subcommand as written (`npm test`, see `suggestCommandPattern`); for a plain
 * relative path, its folder (`src/` and two stars), or the workspace root's files (`*`). Never
 * a pattern built from glob syntax the model wrote: a path of two stars and `/notes.md`, or the
 * command `'*' x`, would otherwise offer a pattern covering every later call.
 */
export function suggestedPattern(parameters: Readonly<Record<string, unknown>>): string {
  const command = parameters.command;
  const path = parameters.path;
  let pattern: string | undefined;
  if (typeof command === "string") pattern = suggestCommandPattern(command);
  else if (typeof path === "string") pattern = folderPattern(path);
  return pattern !== undefined && displayText(pattern) === pattern ? pattern : "";
}

function folderPattern(path: string): string | undefined {
  if (path === "" || path.startsWith("/") || path.startsWith("~") || globSyntax.test(path)) {
    return undefined;
  }
  const segments = path.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    return undefined;
  }
  // `*` does not match a name starting with `.`: such a file at the root is offered as itself.
  if (segments.length === 1) return path.startsWith(".") ? path : "*";
  return `${segments.slice(0, -1).join("/")}/**`;
}

/**
 * One pending approval as a card with its actions. What the person approves (the tool, the
 * summary with the command, the reasons and warnings, the command's programs, the arguments) is
 * escaped as the MCP form and the terminal prompt escape it ({@link singleLine}, {@link shownJson}):
 * a newline is `\n` and a backslash `\\`, so a command holding a line break never reads like one
 * holding the text `\n`.
 */
export function approvalCard(a: PendingApproval, csrf: string, edit?: EditOutcome): Html {
  const r = a.request;
  if (a.status !== PendingApprovalStatus.Pending) return decidedCard(a);
  const title = singleLine(`${r.toolName} (${r.toolId})`);
  const preview = filePreview(a);
  return html`<article class="card risk-border-${a.riskLevel}" id="approval-${a.id}" tabindex="0"
    data-version="${a.requestId}" aria-labelledby="title-${a.id}" aria-describedby="summary-${a.id}">
  <header><h3 id="title-${a.id}">${title}</h3>${riskBadge(a.riskLevel)}
    ${a.details.round > 1 ? html`<span class="badge">asked again (round ${a.details.round})</span>` : ""}</header>
  <p class="summary" id="summary-${a.id}">${singleLine(r.executionSummary === "" ? `Run ${r.toolId}` : r.executionSummary)}</p>
  <p class="meta">Why asked: ${singleLine(a.details.reason)}${a.sessionId === undefined ? "" : html` · session <code>${a.sessionId}</code>`}
    · call <code>${a.callKey}</code> · expires ${a.expiresAt.toISOString()}</p>
  ${a.waiterGone === true ? html`<p class="problem">The process that asked is not running; the decision is applied when it asks again.</p>` : ""}
  ${a.details.warning === undefined ? "" : html`<div class="warning" role="alert">⚠ ${singleLine(a.details.warning)}</div>`}
  ${a.details.previousProblem === undefined ? "" : html`<div class="problem">${singleLine(a.details.previousProblem)}</div>`}
  ${r.warnings.map((w) => html`<p class="problem">${singleLine(w)}</p>`)}
  ${commandSegments(r.parameters.command)}
  ${preview.html}
  <details ${a.preview === undefined || preview.givenUp ? "open" : ""}><summary>Arguments</summary><pre>${shownJson(r.parameters)}</pre></details>
  <div class="actions">
    <form method="post" action="/approvals/${a.id}/approve" hx-target="#approval-${a.id}" hx-swap="outerHTML">
      <input type="hidden" name="_csrf" value="${csrf}">
      ${approveButton(a.id, "once", "Approve once", html`class="primary" data-key="approve" aria-keyshortcuts="a"`)}
      ${
        a.riskLevel >= RiskLevel.Critical
          ? html`<p class="meta">A Critical call is asked every time: it cannot be remembered.</p>`
          : html`<p class="meta">${singleLine(rememberedCoverage(r.toolId, a.riskLevel) ?? "")}</p>
      ${approveButton(a.id, "session", "Approve for this session", html`data-key="session" aria-keyshortcuts="s"`)}
      ${approveButton(a.id, "tool", "Always approve this tool", html``)}
      <label>Pattern<input name="pattern" value="${suggestedPattern(r.parameters)}" aria-label="Pattern for remembered approval"></label>
      ${approveButton(a.id, "pattern", "Approve matching pattern", html``)}`
      }
    </form>
    <form method="post" action="/approvals/${a.id}/deny" hx-post="/approvals/${a.id}/deny" hx-target="#approval-${a.id}" hx-swap="outerHTML">
      <input type="hidden" name="_csrf" value="${csrf}">
      <label>Reason for the model<textarea name="reason" rows="2" aria-keyshortcuts="d"></textarea></label>
      <button class="danger">Deny</button>
    </form>
  </div>
  <details ${edit === undefined ? "" : "open"}><summary>Edit arguments</summary>
    <form method="post" action="/approvals/${a.id}/edit?action=check" hx-target="#approval-${a.id}" hx-swap="outerHTML">
      <input type="hidden" name="_csrf" value="${csrf}">
      <label>Arguments (JSON)<textarea class="args" name="arguments" spellcheck="false">${jsonTextForEditing(edit?.text ?? JSON.stringify(r.parameters, null, 2))}</textarea></label>
      ${editResult(edit)}
      <div class="actions"><button formaction="/approvals/${a.id}/edit?action=check" hx-post="/approvals/${a.id}/edit?action=check">Check</button>
      <button class="primary" formaction="/approvals/${a.id}/edit?action=approve" hx-post="/approvals/${a.id}/edit?action=approve">Approve with these arguments</button></div>
    </form>
  </details>
</article>`;
}

/**
 * One approve button: the scope travels in its own URL (htmx does not send which submit button
 * was pressed), by `hx-post` with htmx and by `formaction` without it.
 */
function approveButton(id: string, scope: string, label: string, extra: Html): Html {
  const url = `/approvals/${id}/approve?scope=${scope}`;
  return html`<button formaction="${url}" hx-post="${url}" ${extra}>${label}</button>`;
}

function editResult(edit: EditOutcome | undefined): Html | string {
  if (edit === undefined) return "";
  const risk =
    edit.riskName === undefined
      ? html`<p class="meta">${edit.riskNote ?? ""}</p>`
      : html`<p class="meta">Risk after the edit: <strong>${edit.riskName}</strong>${edit.riskNote === undefined ? "" : ` (${edit.riskNote})`}</p>`;
  if (edit.errors.length === 0)
    return html`<div class="ok" role="status">The edited arguments are valid.</div>${risk}`;
  return html`<ul class="errors" role="alert" aria-label="Problems with the edited arguments">${edit.errors.map((e) => html`<li>${e}</li>`)}</ul>${risk}`;
}

/** A decided card: what was decided, by whom. */
export function decidedCard(a: PendingApproval, problem?: string): Html {
  const d = a.decision;
  const scope =
    d?.rememberPattern !== undefined
      ? `remembered for pattern ${d.rememberPattern}`
      : d?.rememberForTool === true
        ? "always for this tool"
        : d?.rememberForSession === true
          ? "for this session"
          : "once";
  const what =
    a.status === PendingApprovalStatus.Approved
      ? `Approved ${scope}${d?.modifiedParameters === undefined ? "" : " with edited arguments"}`
      : a.status === PendingApprovalStatus.Denied
        ? `Denied: ${d?.reason ?? ""}`
        : "Expired (denied as timed out)";
  return html`<article class="card decided" id="approval-${a.id}" tabindex="0" data-version="${a.status}">
  <header><h3>${singleLine(`${a.request.toolName} (${a.request.toolId})`)}</h3>${riskBadge(a.riskLevel)}</header>
  ${problem === undefined ? "" : html`<p class="problem" role="alert">${problem}</p>`}
  <p role="status">${what}${a.decidedBy === undefined ? "" : ` by ${a.decidedBy}`}${a.decidedAt === undefined ? "" : ` at ${a.decidedAt.toISOString()}`}.</p>
  <p class="meta"><a href="/calls/${encodeURIComponent(a.callKey)}">The call's story</a></p>
</article>`;
}

function commandSegments(command: unknown): Html | string {
  if (typeof command !== "string") return "";
  const parsed = parseCommand(command);
  if (!parsed.ok)
    return html`<div class="problem">The command does not parse: ${parsed.error}</div>`;
  const flags = [
    parsed.hasSubstitution ? "command substitution" : "",
    parsed.hasExpansion ? "variable expansion" : "",
    parsed.hasRedirection ? "redirection" : "",
    parsed.hasSubshell ? "subshell" : "",
    parsed.hasBackground ? "background job" : "",
  ].filter((f) => f !== "");
  return html`<div><p class="meta">The command runs ${parsed.segments.length} program${parsed.segments.length === 1 ? "" : "s"}${flags.length === 0 ? "" : `; it uses ${flags.join(", ")}`}:</p>
  <ol class="segments">${parsed.segments.map((s) => html`<li><code>${singleLine(s.join(" "))}</code></li>`)}</ol></div>`;
}

/**
 * A file write's diff, and whether it was given up (the card then shows the arguments open, the
 * whole new content).
 */
function filePreview(a: PendingApproval): {
  readonly html: Html | string;
  readonly givenUp: boolean;
} {
  const p = a.preview;
  if (p === undefined) return { html: "", givenUp: false };
  // The path on one line: a newline in it would write the patch's own header lines (a fake
  // hunk, another file name) and the diff would show something other than what is written.
  const path = singleLine(p.path);
  const rendered = renderedDiff(a.id, path, p.before, p.after);
  const heading = `${p.before === null ? `New file ${path}` : `Changes to ${path}`}${p.beforeNote === undefined ? "" : ` (${p.beforeNote})`}`;
  const body =
    rendered === undefined
      ? html`<p class="problem">Too many lines change to show them as a diff: read the whole new content under Arguments.</p>`
      : trustedHtml(rendered);
  return {
    html: html`<section aria-label="Changes to ${path}"><p class="meta">${heading}:</p>${body}</section>`,
    givenUp: rendered === undefined,
  };
}

/**
 * The most a diff may take before it is given up (its edit script's length, and milliseconds):
 * an overwrite of a long file with other lines would otherwise hold the console's and the MCP
 * server's one thread for minutes, and again at each refresh.
 */
const DIFF_LIMITS = { maxEditLength: 2000, timeout: 250 } as const;

/** Diffs drawn lately, by approval, file and content: a card is drawn again at each refresh. */
const drawnDiffs = new Map<string, string | undefined>();
const DRAWN_DIFFS_KEPT = 64;

/** The diff's markup, or undefined when it was given up (see {@link DIFF_LIMITS}). */
function renderedDiff(
  id: string,
  path: string,
  before: string | null,
  after: string,
): string | undefined {
  const key = createHash("sha256")
    .update(`${id}\0${path}\0${before === null ? "new" : `${before.length}\0${before}`}\0`)
    .update(after)
    .digest("base64");
  if (drawnDiffs.has(key)) return drawnDiffs.get(key);
  const patch = createTwoFilesPatch(
    before === null ? "/dev/null" : `a/${path}`,
    `b/${path}`,
    visibleText(before ?? ""),
    visibleText(after),
    undefined,
    undefined,
    { context: 3, ...DIFF_LIMITS },
  );
  // diff2html escapes every line of the files it renders.
  const rendered =
    patch === undefined
      ? undefined
      : diffToHtml(patch, { drawFileList: false, outputFormat: "line-by-line", matching: "lines" });
  if (drawnDiffs.size >= DRAWN_DIFFS_KEPT)
    drawnDiffs.delete(drawnDiffs.keys().next().value as string);
  drawnDiffs.set(key, rendered);
  return rendered;
}
