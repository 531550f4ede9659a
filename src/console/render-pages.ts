import type { PermissionGrant } from "../approval/index.js";
import type { ToolCallLifecycleRecord } from "../calls/index.js";
import { riskLevelName } from "../core/index.js";
import { type AuditEntry, allAuditStatuses } from "../execution/index.js";
import { type Html, html } from "./html.js";
import type { PendingApproval, RunningExecution } from "./pending-approval.js";
import { approvalCard, riskBadge } from "./render-approval.js";

/**
 * The list of pending approvals (the live fragment), oldest first: a call that starts waiting is
 * added at the end, so that no card moves under a person's pointer.
 */
export function approvalList(approvals: readonly PendingApproval[], csrf: string): Html {
  const oldestFirst = [...approvals].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  return html`${oldestFirst.map((a) => approvalCard(a, csrf))}`;
}

/** The pending approvals page body. */
export function approvalsBody(approvals: readonly PendingApproval[], csrf: string): Html {
  return html`<h2>Pending approvals</h2>
<p class="hint">On a focused card: <kbd>a</kbd> approve once, <kbd>s</kbd> approve for the session, <kbd>d</kbd> deny (type the reason, then Deny), <kbd>j</kbd>/<kbd>k</kbd> next / previous card. The list updates by itself.</p>
<p id="approvals-empty" class="hint" ${approvals.length === 0 ? "" : "hidden"}>No call is waiting for approval.</p>
<div id="approval-list" data-src="/approvals/list">${approvalList(approvals, csrf)}</div>`;
}

/** The page of one approval (the address sent by URL elicitation): its card, pending or decided. */
export function approvalPageBody(approval: PendingApproval, csrf: string): Html {
  return html`<h2>Approval of ${approval.request.toolName}</h2>
<p class="hint">An MCP client sent you here for this call. <a href="/approvals">All pending approvals</a></p>
${approvalCard(approval, csrf)}`;
}

/** The running executions (the live fragment). */
export function executionList(executions: readonly RunningExecution[], csrf: string): Html {
  if (executions.length === 0) return html`<p class="hint">Nothing is running.</p>`;
  return html`${executions.map(
    (
      e,
    ) => html`<article class="card" id="execution-${e.executionId}" tabindex="0" aria-label="${e.toolName} running">
  <header><h3>${e.toolName} (${e.toolId})</h3></header>
  <p class="meta">Started ${e.startedAt.toISOString()}${e.sessionId === undefined ? "" : html` · session <code>${e.sessionId}</code>`}${e.callId === undefined ? "" : html` · call <a href="/calls/${encodeURIComponent(e.callId)}${e.sessionId === undefined ? "" : `?session=${encodeURIComponent(e.sessionId)}`}"><code>${e.callId}</code></a>`} · execution <code>${e.executionId}</code></p>
  <label>${e.message ?? (e.percent === undefined ? "Running" : `${Math.round(e.percent)}%`)}
    ${e.percent === undefined ? html`<progress aria-label="Progress of ${e.toolName}"></progress>` : html`<progress max="100" value="${e.percent}" aria-label="Progress of ${e.toolName}"></progress>`}</label>
  ${
    e.cancelRequestedAt === undefined
      ? html`<form method="post" action="/executions/${e.executionId}/cancel" hx-post="/executions/${e.executionId}/cancel" hx-target="#execution-list">
    <input type="hidden" name="_csrf" value="${csrf}"><div class="actions"><button class="danger">Cancel</button></div></form>`
      : html`<p class="problem" role="status">Cancel requested by ${e.cancelRequestedBy ?? "someone"} at ${e.cancelRequestedAt.toISOString()}.</p>`
  }
</article>`,
  )}`;
}

/** The running executions page body. */
export function executionsBody(executions: readonly RunningExecution[], csrf: string): Html {
  return html`<h2>Running executions</h2>
<div id="execution-list" data-src="/executions/list">${executionList(executions, csrf)}</div>`;
}

/** The history filters as the form and the query string hold them. */
export interface HistoryFilters {
  readonly tool?: string;
  readonly status?: string;
  readonly decision?: string;
  readonly session?: string;
  readonly from?: string;
  readonly to?: string;
}

function query(filters: HistoryFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...filters, ...extra })) {
    if (value !== undefined && value !== "") params.set(key, value);
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

/** An audit row's decision as the history shows it: `approved (Ada)`, `denied (rule)`. */
function decisionText(e: AuditEntry): string {
  // Rows of executions run without a processor carry no decision columns.
  if (e.decision === null) return e.wasApproved ? "approved" : "";
  return e.decidedBy === null ? e.decision : `${e.decision} (${e.decidedBy})`;
}

/** The history page body: filters, the audit rows, paging, the decisions, exports. */
export function historyBody(options: {
  filters: HistoryFilters;
  entries: readonly AuditEntry[];
  nextCursor?: string;
  decisions: readonly PendingApproval[];
  problem?: string;
}): Html {
  const f = options.filters;
  const option = (value: string, label: string, current: string | undefined) =>
    html`<option value="${value}" ${current === value ? "selected" : ""}>${label}</option>`;
  return html`<h2>History</h2>
<form class="filters" method="get" action="/history" aria-label="Filter the history">
  <label>Tool<input name="tool" value="${f.tool ?? ""}"></label>
  <label>Status<select name="status">${option("", "any", f.status)}${allAuditStatuses.map((s) => option(s, s, f.status))}</select></label>
  <label>Decision<select name="decision">${option("", "any", f.decision)}${option("approved", "approved by a person", f.decision)}${option("automatic", "ran without asking", f.decision)}${option("denied", "denied", f.decision)}${option("expired", "no one answered", f.decision)}${option("invalid", "invalid arguments", f.decision)}${option("cancelled", "cancelled", f.decision)}</select></label>
  <label>Session<input name="session" value="${f.session ?? ""}"></label>
  <label>From<input type="datetime-local" name="from" value="${f.from ?? ""}"></label>
  <label>To<input type="datetime-local" name="to" value="${f.to ?? ""}"></label>
  <button>Filter</button> <a href="/history">Clear</a>
</form>
${options.problem === undefined ? "" : html`<p class="errors" role="alert">${options.problem}</p>`}
<p><a href="/history/export.jsonl${query(f)}" download>Export JSON lines</a> · <a href="/history/export.csv${query(f)}" download>Export CSV</a></p>
<h3>Executions</h3>
<div class="table-wrap"><table><caption class="visually-hidden">Audit log</caption>
<thead><tr><th scope="col">Started</th><th scope="col">Tool</th><th scope="col">Status</th><th scope="col">Decision</th><th scope="col">Duration</th><th scope="col">Session</th><th scope="col">Result</th></tr></thead>
<tbody>${options.entries.map(
    (
      e,
    ) => html`<tr><td><a href="/history/${encodeURIComponent(e.executionId)}">${e.startedAt.toISOString()}</a></td><td>${e.toolName}</td><td>${e.status}</td>
<td>${decisionText(e)}</td><td>${Math.round(e.durationMs)} ms</td><td>${e.conversationId ?? ""}</td><td>${e.errorMessage ?? e.resultSummary ?? ""}</td></tr>`,
  )}</tbody></table></div>
${options.entries.length === 0 ? html`<p class="hint">No execution matches.</p>` : ""}
<nav class="pager" aria-label="Pages">${options.nextCursor === undefined ? "" : html`<a href="/history${query(f, { cursor: options.nextCursor })}">Older</a>`}</nav>
<h3>Decisions</h3>
<div class="table-wrap"><table><caption class="visually-hidden">Decisions given in the console</caption>
<thead><tr><th scope="col">Asked</th><th scope="col">Tool</th><th scope="col">Risk</th><th scope="col">Decision</th><th scope="col">By</th><th scope="col">Session</th></tr></thead>
<tbody>${options.decisions.map(
    (
      a,
    ) => html`<tr><td><a href="/calls/${encodeURIComponent(a.callKey)}">${a.createdAt.toISOString()}</a></td><td>${a.toolId}</td><td>${riskBadge(a.riskLevel)}</td>
<td>${a.status}${a.decision?.reason === undefined ? "" : `: ${a.decision.reason}`}</td><td>${a.decidedBy ?? ""}</td><td>${a.sessionId ?? ""}</td></tr>`,
  )}</tbody></table></div>`;
}

/** One call's whole story: request, decisions, edits, lifecycle events, executions, result. */
export function storyBody(options: {
  title: string;
  approvals: readonly PendingApproval[];
  record?: ToolCallLifecycleRecord;
  entries: readonly AuditEntry[];
}): Html {
  const rec = options.record;
  const first = options.approvals[options.approvals.length - 1];
  const request = rec?.request ?? first?.request;
  return html`<h2>${options.title}</h2>
${
  request === undefined
    ? html`<p class="hint">No request is recorded for this call.</p>`
    : html`<section aria-label="Request"><h3>Request</h3><p>${request.toolName} (${request.toolId}) ${riskBadge(request.riskLevel)} ${request.executionSummary}</p>
<pre>${JSON.stringify(request.parameters, null, 2)}</pre></section>`
}
<section aria-label="Decisions"><h3>Decisions</h3>${
    options.approvals.length === 0
      ? html`<p class="hint">No decision in the console.</p>`
      : html`<ol>${[...options.approvals]
          .reverse()
          .map(
            (a) =>
              html`<li>${a.createdAt.toISOString()}: asked (${a.details.reason}, round ${a.details.round}) → <strong>${a.status}</strong>${a.decidedBy === undefined ? "" : ` by ${a.decidedBy}`}${a.decidedAt === undefined ? "" : ` at ${a.decidedAt.toISOString()}`}${a.decision?.reason === undefined ? "" : html`; reason: ${a.decision.reason}`}${a.decision?.modifiedParameters === undefined ? "" : html`; edited arguments:<pre>${JSON.stringify(a.decision.modifiedParameters, null, 2)}</pre>`}${a.appliedAt === undefined ? "" : ` · applied ${a.appliedAt.toISOString()}`}</li>`,
          )}</ol>`
  }</section>
${
  rec === undefined
    ? ""
    : html`<section aria-label="Events"><h3>Events</h3><ol>${rec.transitions.map((t) => html`<li>${t.at}: ${t.from} → ${t.to}</li>`)}</ol>
<p>Status: <strong>${rec.status}</strong>${rec.errorMessage === null ? "" : ` · ${rec.errorMessage}`}</p>
${rec.approvalDecision?.modifiedParameters == null ? "" : html`<p>Ran with edited arguments:</p><pre>${JSON.stringify(rec.approvalDecision.modifiedParameters, null, 2)}</pre>`}
${rec.result === null ? "" : html`<h3>Result</h3><pre>${JSON.stringify(rec.result, null, 2)}</pre>`}</section>`
}
<section aria-label="Executions"><h3>Executions</h3>${
    options.entries.length === 0
      ? html`<p class="hint">No execution recorded.</p>`
      : options.entries.map(
          (
            e,
          ) => html`<div class="card"><p>${e.startedAt.toISOString()} · ${e.toolName} · <strong>${e.status}</strong> · ${Math.round(e.durationMs)} ms${e.errorCode === null ? "" : ` · ${e.errorCode}`}</p>
<pre>${JSON.stringify({ parameters: e.parameters, result: e.resultSummary, error: e.errorMessage }, null, 2)}</pre></div>`,
        )
  }</section>`;
}

/** The remembered permissions page body. */
export function permissionsBody(grants: readonly PermissionGrant[], csrf: string): Html {
  return html`<h2>Remembered permissions</h2>
<p class="hint">Approvals remembered for a tool, shared by every process on this store. Approvals remembered for one session live in that agent's process and end with it.</p>
${
  grants.length === 0
    ? html`<p class="hint">No remembered permission.</p>`
    : html`<div class="table-wrap"><table><caption class="visually-hidden">Remembered permissions</caption>
<thead><tr><th scope="col">Tool</th><th scope="col">Scope</th><th scope="col">Pattern</th><th scope="col">Up to risk</th><th scope="col">Granted by</th><th scope="col">When</th><th scope="col">Expires</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${grants.map(
        (
          g,
        ) => html`<tr id="grant-${g.id}"><td>${g.toolId}</td><td>${g.scope}</td><td>${g.pattern === undefined ? "any call" : html`<code>${g.pattern}</code> (${g.patternKind ?? ""})`}</td>
<td>${riskLevelName(g.maxRiskLevel)}</td><td>${g.grantedBy ?? "unknown"}</td><td>${g.createdAt.toISOString()}</td><td>${g.expiresAt?.toISOString() ?? "never"}</td>
<td><form method="post" action="/permissions/${g.id}/revoke"><input type="hidden" name="_csrf" value="${csrf}"><button class="danger" aria-label="Revoke the permission for ${g.toolId}${g.pattern === undefined ? "" : ` ${g.pattern}`}">Revoke</button></form></td></tr>`,
      )}</tbody></table></div>`
}`;
}
