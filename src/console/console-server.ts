// Over 500 lines: the console's routes (pages, actions, the event stream) share one Hono app
// and its per-request checks; the checks themselves are in console-security.ts and the HTML in
// the render-*.ts files beside it.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { userInfo } from "node:os";
import { type ServerType, serve } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import type { PermissionStore } from "../approval/index.js";
import type { ToolCallStore } from "../calls/index.js";
import { isJsonObject, type JsonObject, riskLevelName } from "../core/index.js";
import {
  type AuditEntry,
  type AuditLog,
  type AuditQuery,
  isAuditStatus,
} from "../execution/index.js";
import type { Tool } from "../tools/index.js";
import { ToolValidator } from "../validation/index.js";
import { consoleScript, consoleStyles } from "./console-assets.js";
import {
  CONTENT_SECURITY_POLICY,
  checkedAccessToken,
  csrfTokenFor,
  isLoopbackHost,
  isLoopbackHostHeader,
  newAccessToken,
  readCookie,
  sameSecret,
  TOKEN_COOKIE,
} from "./console-security.js";
import { auditCsv, auditJsonLines } from "./export-audit.js";
import { type Html, html } from "./html.js";
import {
  type PendingApproval,
  type PendingApprovalDecision,
  PendingApprovalStatus,
  type PendingApprovalStore,
  type RunningExecutionStore,
} from "./pending-approval.js";
import { approvalCard, decidedCard, type EditOutcome } from "./render-approval.js";
import { type ConsolePage, layout } from "./render-layout.js";
import {
  approvalList,
  approvalPageBody,
  approvalsBody,
  executionList,
  executionsBody,
  type HistoryFilters,
  historyBody,
  permissionsBody,
  storyBody,
} from "./render-pages.js";

/** What the console reads and writes: the parts of one store (`openStore`). */
export interface ConsoleStoreParts {
  readonly approvals: PendingApprovalStore;
  readonly executions: RunningExecutionStore;
  readonly audit: AuditLog;
  readonly permissions: PermissionStore;
  readonly calls?: ToolCallStore;
}

/** Construction options of the console. */
export interface ConsoleConfig {
  readonly store: ConsoleStoreParts;
  /** Who decisions are recorded as coming from (default: the OS user name). */
  readonly operator?: string;
  /** The access token (default: a new random one). */
  readonly token?: string;
  /** Looks a tool up to re-assess the risk of edited arguments (the agent re-assesses anyway). */
  readonly getTool?: (toolId: string) => Tool | undefined;
}

/** The console as a Hono app, with its token (for tests and embedding). */
export interface ConsoleApp {
  readonly app: Hono;
  readonly token: string;
  readonly operator: string;
  /** Ends the live-update streams (call before closing the server). */
  close(): void;
}

const require = createRequire(import.meta.url);
const htmxFile = require.resolve("htmx.org/dist/htmx.min.js");
const diffCssFile = require.resolve("diff2html/bundles/css/diff2html.min.css");

/**
 * Builds the console's web app: the pending approvals (live), running executions (live, with
 * cancel), the audit history and remembered permissions, over `store`. Every request needs the
 * access token (the `/login?token=` link sets it as a cookie); every state change also needs the
 * CSRF token and the console's own origin.
 */
export function createConsoleApp(config: ConsoleConfig): ConsoleApp {
  const token = config.token === undefined ? newAccessToken() : checkedAccessToken(config.token);
  const csrf = csrfTokenFor(token);
  const operator = config.operator ?? safeUserName();
  const store = config.store;
  const validator = new ToolValidator();
  const streams = new Set<AbortController>();
  const app = new Hono();
  const htmx = readFileSync(htmxFile, "utf8");
  const diffCss = readFileSync(diffCssFile, "utf8");
  const styles = consoleStyles();

  app.use("*", async (c, next) => {
    await next();
    c.header("Content-Security-Policy", CONTENT_SECURITY_POLICY);
    c.header("X-Content-Type-Options", "nosniff");
    // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on form posts.
    c.header("Referrer-Policy", "same-origin");
    c.header("X-Frame-Options", "DENY");
    c.header("Cache-Control", "no-store");
  });

  app.get("/login", (c) => {
    if (!sameSecret(c.req.query("token"), token)) return refused(c, 401);
    c.header(
      "Set-Cookie",
      `${TOKEN_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/; Max-Age=2592000`,
    );
    return c.redirect("/approvals", 303);
  });

  app.use("*", async (c, next) => {
    const bearer = c.req.header("authorization")?.replace(/^Bearer\s+/i, "");
    const given = readCookie(c.req.header("cookie"), TOKEN_COOKIE) ?? bearer;
    if (!sameSecret(given, token)) return refused(c, 401);
    if (c.req.method !== "GET" && c.req.method !== "HEAD") {
      const problem = await crossSiteProblem(c, csrf);
      if (problem !== undefined) return c.text(problem, 403);
    }
    await next();
  });

  app.get("/static/htmx.min.js", (c) => asset(c, htmx, "text/javascript"));
  app.get("/static/console.js", (c) => asset(c, consoleScript, "text/javascript"));
  app.get("/static/console.css", (c) => asset(c, styles, "text/css"));
  app.get("/static/diff2html.css", (c) => asset(c, diffCss, "text/css"));

  const page = async (
    c: Context,
    title: string,
    current: ConsolePage,
    body: Html,
    live = false,
  ) => {
    const pending = await store.approvals.list({ status: PendingApprovalStatus.Pending });
    return c.html(
      layout({ title, page: current, operator, csrf, live, pendingCount: pending.length, body })
        .value,
    );
  };

  app.get("/", (c) => c.redirect("/approvals", 303));
  app.get("/favicon.ico", (c) => c.body(null, 204));

  app.get("/approvals", async (c) => {
    const pending = await store.approvals.list({ status: PendingApprovalStatus.Pending });
    return page(c, "Pending approvals", "approvals", approvalsBody(pending, csrf), true);
  });
  app.get("/approvals/list", async (c) => {
    const pending = await store.approvals.list({ status: PendingApprovalStatus.Pending });
    return c.html(approvalList(pending, csrf).value);
  });

  // One call's approval: the page an MCP client opens by URL elicitation (no credential in the
  // address: the person signs in as for every page).
  app.get("/approvals/:id", async (c) => {
    const approval = await store.approvals.get(c.req.param("id"));
    if (approval === undefined) return c.text("No such pending approval.", 404);
    return page(c, "Approval", "approvals", approvalPageBody(approval, csrf));
  });

  const answer = async (c: Context, id: string, decision: PendingApprovalDecision) => {
    const result = await store.approvals.decide(id, decision, operator);
    if (!isHtmx(c)) return c.redirect("/approvals", 303);
    if (result.ok) return c.html(decidedCard(result.approval).value);
    if (result.approval === undefined)
      return c.html(html`<p class="errors" role="alert">${result.problem}</p>`.value, 404);
    return c.html(decidedCard(result.approval, result.problem).value, 409);
  };

  app.post("/approvals/:id/approve", async (c) => {
    const form = await c.req.parseBody();
    const scope = c.req.query("scope") ?? String(form.scope ?? "once");
    const pattern = String(form.pattern ?? "").trim();
    const decision: PendingApprovalDecision =
      scope === "session"
        ? { approved: true, rememberForSession: true }
        : scope === "tool"
          ? { approved: true, rememberForTool: true }
          : scope === "pattern"
            ? { approved: true, rememberForTool: true, rememberPattern: pattern }
            : { approved: true };
    if (scope === "pattern" && pattern === "") {
      const approval = await store.approvals.get(c.req.param("id"));
      if (approval === undefined) return c.text("No such pending approval.", 404);
      return c.html(
        approvalCard(approval, csrf, {
          text: JSON.stringify(approval.request.parameters, null, 2),
          errors: ["Give a pattern to approve matching calls, or choose another way to approve."],
        }).value,
      );
    }
    return answer(c, c.req.param("id"), decision);
  });

  app.post("/approvals/:id/deny", async (c) => {
    const form = await c.req.parseBody();
    const reason = String(form.reason ?? "").trim();
    return answer(c, c.req.param("id"), {
      approved: false,
      reason: reason === "" ? `Denied in the console by ${operator}` : reason,
    });
  });

  app.post("/approvals/:id/edit", async (c) => {
    const approval = await store.approvals.get(c.req.param("id"));
    if (approval === undefined) return c.text("No such pending approval.", 404);
    const form = await c.req.parseBody();
    const text = String(form.arguments ?? "");
    const outcome = checkEdit(approval, text, validator, config.getTool);
    if (approval.status !== PendingApprovalStatus.Pending)
      return c.html(decidedCard(approval).value, 409);
    const action = c.req.query("action") ?? form.action;
    if (action !== "approve" || outcome.errors.length > 0 || outcome.parameters === undefined) {
      // 200 even with errors: htmx swaps only successful responses, and the card must show them.
      return c.html(approvalCard(approval, csrf, outcome).value);
    }
    return answer(c, approval.id, { approved: true, modifiedParameters: outcome.parameters });
  });

  app.get("/executions", async (c) => {
    const running = await store.executions.list();
    return page(c, "Running executions", "executions", executionsBody(running, csrf), true);
  });
  app.get("/executions/list", async (c) =>
    c.html(executionList(await store.executions.list(), csrf).value),
  );
  app.post("/executions/:id/cancel", async (c) => {
    await store.executions.requestCancel(c.req.param("id"), operator);
    if (!isHtmx(c)) return c.redirect("/executions", 303);
    return c.html(executionList(await store.executions.list(), csrf).value);
  });

  app.get("/history", async (c) => {
    const filters = historyFilters(c);
    const built = auditQuery(filters);
    let entries: AuditEntry[] = [];
    let nextCursor: string | undefined;
    let problem = built.problem;
    if (problem === undefined) {
      try {
        const cursor = c.req.query("cursor");
        const result = await queryAudit(store.audit, built.query, filters.decision, 50, cursor);
        entries = result.entries;
        nextCursor = result.nextCursor;
      } catch (error) {
        problem = error instanceof Error ? error.message : String(error);
      }
    }
    const decisions = (
      await store.approvals.list({
        ...(filters.session === undefined ? {} : { sessionId: filters.session }),
        limit: 200,
      })
    ).filter(
      (a) =>
        a.status !== PendingApprovalStatus.Pending &&
        (filters.tool === undefined || a.toolId.toLowerCase() === filters.tool.toLowerCase()) &&
        (filters.decision === undefined ||
          filters.decision === "automatic" ||
          a.status === filters.decision) &&
        inRange(a.createdAt, built.query.from, built.query.to),
    );
    return page(
      c,
      "History",
      "history",
      historyBody({
        filters,
        entries,
        ...(nextCursor === undefined ? {} : { nextCursor }),
        decisions: filters.decision === "automatic" ? [] : decisions,
        ...(problem === undefined ? {} : { problem }),
      }),
    );
  });

  const exportRows = async (c: Context): Promise<AuditEntry[] | Response> => {
    const filters = historyFilters(c);
    const built = auditQuery(filters);
    if (built.problem !== undefined) return c.text(built.problem, 400);
    return (await queryAudit(store.audit, built.query, filters.decision, 10_000)).entries;
  };
  app.get("/history/export.jsonl", async (c) => {
    const rows = await exportRows(c);
    if (rows instanceof Response) return rows;
    c.header("Content-Disposition", 'attachment; filename="aintern-audit.jsonl"');
    return c.body(auditJsonLines(rows), 200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
    });
  });
  app.get("/history/export.csv", async (c) => {
    const rows = await exportRows(c);
    if (rows instanceof Response) return rows;
    c.header("Content-Disposition", 'attachment; filename="aintern-audit.csv"');
    return c.body(auditCsv(rows), 200, { "Content-Type": "text/csv; charset=utf-8" });
  });

  app.get("/history/:executionId", async (c) => {
    const entry = await store.audit.get(c.req.param("executionId"));
    if (entry === undefined) return c.text("No such execution.", 404);
    const record = await findCallRecord(store, entry);
    const callKey = record?.callKey;
    const approvals = callKey === undefined ? [] : await store.approvals.list({ callKey });
    return page(
      c,
      "Execution",
      "history",
      storyBody({
        title: `${entry.toolName} at ${entry.startedAt.toISOString()}`,
        approvals,
        ...(record === undefined ? {} : { record: record.record }),
        entries: [entry],
      }),
    );
  });

  app.get("/calls/:callKey", async (c) => {
    const callKey = c.req.param("callKey");
    const approvals = await store.approvals.list({ callKey });
    // Stored calls are keyed by (session, call id): the link's session, else the approval's.
    const session =
      c.req.query("session") ?? approvals.find((a) => a.sessionId !== undefined)?.sessionId;
    const stored = await store.calls?.get(callKey, session);
    const record = stored?.record;
    const entries =
      record === undefined
        ? []
        : await auditForCall(store.audit, record, stored?.sessionId ?? undefined);
    return page(
      c,
      "Call",
      "history",
      storyBody({
        title: `Call ${callKey}`,
        approvals,
        ...(record === undefined ? {} : { record }),
        entries,
      }),
    );
  });

  app.get("/permissions", async (c) => {
    const grants = await store.permissions.list();
    return page(c, "Remembered permissions", "permissions", permissionsBody(grants, csrf));
  });
  app.post("/permissions/:id/revoke", async (c) => {
    await store.permissions.revoke(c.req.param("id"));
    return c.redirect("/permissions", 303);
  });

  app.get("/events", (c) =>
    streamSSE(c, async (stream) => {
      const controller = new AbortController();
      streams.add(controller);
      const queue: string[] = [];
      let wake: (() => void) | undefined;
      const stop = [store.approvals.watch((change) => push(change))];
      if ((store.executions as unknown) !== (store.approvals as unknown)) {
        stop.push(store.executions.watch((change) => push(change)));
      }
      function push(change: string): void {
        if (!queue.includes(change)) queue.push(change);
        wake?.();
      }
      stream.onAbort(() => controller.abort());
      try {
        await stream.writeSSE({ event: "ready", data: "" });
        while (!controller.signal.aborted) {
          if (queue.length === 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
              const timer = setTimeout(resolve, 15_000);
              controller.signal.addEventListener("abort", () => resolve(), { once: true });
              void timer;
            });
            wake = undefined;
          }
          const change = queue.shift();
          await stream.writeSSE(
            change === undefined ? { event: "ping", data: "" } : { event: change, data: "" },
          );
        }
      } finally {
        for (const s of stop) s();
        streams.delete(controller);
      }
    }),
  );

  return {
    app,
    token,
    operator,
    close() {
      for (const controller of streams) controller.abort();
    },
  };
}

/** A running console server. */
export interface RunningConsole {
  /** `http://host:port`. */
  readonly url: string;
  /** The link that signs a browser in (sets the token cookie). */
  readonly loginUrl: string;
  readonly token: string;
  readonly operator: string;
  close(): Promise<void>;
}

/** Options of {@link startConsole}. */
export interface StartConsoleOptions extends ConsoleConfig {
  /** `host:port` to listen on (default `127.0.0.1:7070`; port 0 picks a free one). */
  readonly listen?: string;
  /** Allow a non-loopback address (the token still guards every request). */
  readonly allowRemote?: boolean;
}

/** Parses `host:port` (`[::1]:7070` for IPv6). */
export function parseListen(listen: string): { host: string; port: number } {
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(listen);
  const port = Number(match?.[2]);
  if (match === null || !Number.isInteger(port) || port > 65535) {
    throw new RangeError(
      `--listen must be host:port (for example 127.0.0.1:7070), not '${listen}'`,
    );
  }
  return { host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

/** Starts the console's HTTP server; it binds to loopback unless `allowRemote` is set. */
export async function startConsole(options: StartConsoleOptions): Promise<RunningConsole> {
  const { host, port } = parseListen(options.listen ?? "127.0.0.1:7070");
  if (!isLoopbackHost(host) && options.allowRemote !== true) {
    throw new RangeError(
      `The console binds to loopback only (asked for ${host}); pass allowRemote (--allow-remote) to listen elsewhere.`,
    );
  }
  const console_ = createConsoleApp(options);
  // DNS rebinding: a page on another site whose name now resolves to 127.0.0.1 reaches a
  // loopback console with its own name in `Host`; only loopback names are served there.
  const loopbackOnly = isLoopbackHost(host);
  const fetch = (request: Request, env: unknown): Response | Promise<Response> => {
    if (loopbackOnly && !isLoopbackHostHeader(request.headers.get("host"))) {
      return new Response("Refused: the console answers only to a loopback Host header.", {
        status: 421,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    return console_.app.fetch(request, env);
  };
  const server: ServerType = await new Promise((resolve, reject) => {
    const s = serve({ fetch, hostname: host, port }, () => resolve(s));
    s.once("error", reject);
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  return {
    url,
    loginUrl: `${url}/login?token=${console_.token}`,
    token: console_.token,
    operator: console_.operator,
    async close() {
      console_.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

function safeUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return "operator";
  }
}

function refused(c: Context, status: 401) {
  return c.html(
    html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in needed</title></head><body><main><h1>Sign in needed</h1><p>Open the sign-in link printed when the console started (by <code>aintern console</code>, or on the stderr of <code>aintern mcp --console</code>): it carries the access token. Then come back to this page.</p></main></body></html>`
      .value,
    status,
  );
}

function asset(c: Context, body: string, type: string) {
  return c.body(body, 200, { "Content-Type": `${type}; charset=utf-8` });
}

function isHtmx(c: Context): boolean {
  return c.req.header("hx-request") === "true";
}

/** Why a state-changing request is refused: another origin, or no (or a wrong) CSRF token. */
async function crossSiteProblem(c: Context, csrf: string): Promise<string | undefined> {
  const site = c.req.header("sec-fetch-site");
  if (site !== undefined && site !== "same-origin")
    return "Refused: the request came from another site.";
  const origin = c.req.header("origin");
  // `Origin: null` with a same-origin fetch site: a form post under a strict referrer policy.
  if (origin !== undefined && !(origin === "null" && site === "same-origin")) {
    const host = c.req.header("host");
    if (host === undefined || origin !== `${new URL(c.req.url).protocol}//${host}`) {
      return "Refused: the request came from another origin.";
    }
  }
  let given = c.req.header("x-csrf-token");
  if (given === undefined) {
    const type = c.req.header("content-type") ?? "";
    if (type.includes("form")) {
      const form = await c.req.parseBody();
      given = typeof form._csrf === "string" ? form._csrf : undefined;
    }
  }
  return sameSecret(given, csrf) ? undefined : "Refused: missing or wrong CSRF token.";
}

function checkEdit(
  approval: PendingApproval,
  text: string,
  validator: ToolValidator,
  getTool: ((id: string) => Tool | undefined) | undefined,
): EditOutcome & { parameters?: JsonObject } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { text, errors: [`The arguments are not valid JSON: ${(error as Error).message}`] };
  }
  if (!isJsonObject(value)) return { text, errors: ["The arguments must be a JSON object."] };
  const errors: string[] = [];
  const schema = approval.request.inputSchema;
  if (schema !== undefined) {
    const result = validator.validateAgainstSchema(value, schema as never);
    for (const e of result.errors)
      errors.push(e.parameterName === "" ? e.message : `${e.parameterName}: ${e.message}`);
  }
  let tool: Tool | undefined;
  try {
    tool = getTool?.(approval.toolId);
  } catch {
    tool = undefined;
  }
  if (tool !== undefined && errors.length === 0) {
    try {
      const own = tool.validate(value);
      for (const e of own.errors)
        errors.push(e.parameterName === "" ? e.message : `${e.parameterName}: ${e.message}`);
    } catch {
      // The agent validates again before running; a throwing validate is its to report.
    }
  }
  let riskName: string | undefined;
  let riskNote: string | undefined;
  if (tool !== undefined) {
    try {
      const risk = tool.getEffectiveRiskLevel(value);
      riskName = riskLevelName(risk);
      if (risk > approval.riskLevel) riskNote = "higher than shown: the call will be asked again";
    } catch {
      riskNote = "the risk could not be assessed here; the agent re-assesses it";
    }
  } else {
    riskNote = "The agent re-assesses the risk of the edited call; a higher risk is asked again.";
  }
  return {
    text,
    errors,
    ...(riskName === undefined ? {} : { riskName }),
    ...(riskNote === undefined ? {} : { riskNote }),
    ...(errors.length === 0 ? { parameters: value } : {}),
  };
}

function historyFilters(c: Context): HistoryFilters {
  const pick = (name: string) => {
    const value = c.req.query(name)?.trim();
    return value === undefined || value === "" ? undefined : value;
  };
  const filters: Record<string, string> = {};
  for (const name of ["tool", "status", "decision", "session", "from", "to"]) {
    const value = pick(name);
    if (value !== undefined) filters[name] = value;
  }
  return filters as HistoryFilters;
}

function auditQuery(f: HistoryFilters): { query: AuditQuery; problem?: string } {
  const date = (text: string | undefined) => {
    if (text === undefined) return undefined;
    const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
    return Number.isNaN(d.getTime()) ? null : d;
  };
  const from = date(f.from);
  const to = date(f.to);
  if (from === null || to === null) return { query: {}, problem: "From and To must be dates." };
  if (f.status !== undefined && !isAuditStatus(f.status)) {
    return { query: {}, problem: `Unknown status '${f.status}'.` };
  }
  if (f.decision !== undefined && !DECISION_FILTERS.includes(f.decision)) {
    return {
      query: {},
      problem: `Unknown decision '${f.decision}': use ${DECISION_FILTERS.join(", ")}.`,
    };
  }
  return {
    query: {
      ...(f.tool === undefined ? {} : { toolName: f.tool }),
      ...(f.status === undefined ? {} : { status: f.status as never }),
      ...(f.session === undefined ? {} : { conversationId: f.session }),
      ...(from === undefined ? {} : { from }),
      ...(to === undefined ? {} : { to }),
    },
  };
}

/** The values of the history's decision filter. */
const DECISION_FILTERS: readonly string[] = [
  "approved",
  "automatic",
  "denied",
  "expired",
  "invalid",
  "cancelled",
];

/** Who decided a call that ran without asking anyone (audit `decided_by`). */
const AUTOMATIC_DECIDERS = new Set(["policy", "remembered"]);

/**
 * The audit query and row test of a decision filter, from the audit's decision columns (issue 11):
 * approved by a person (approved, not by the policy or a remembered grant), ran without asking,
 * denied, no one answered (denied on timeout), invalid arguments, cancelled.
 */
function decisionFilter(decision: string | undefined): {
  query: Pick<AuditQuery, "decision" | "decidedBy">;
  keep: (e: AuditEntry) => boolean;
} {
  const all = () => true;
  switch (decision) {
    case undefined:
      return { query: {}, keep: all };
    case "approved":
      return {
        query: { decision: "approved" },
        keep: (e) => e.decidedBy === null || !AUTOMATIC_DECIDERS.has(e.decidedBy),
      };
    case "automatic":
      return {
        query: { decision: "approved" },
        keep: (e) => e.decidedBy !== null && AUTOMATIC_DECIDERS.has(e.decidedBy),
      };
    case "expired":
      return { query: { decision: "denied", decidedBy: "timeout" }, keep: all };
    case "denied":
    case "invalid":
    case "cancelled":
      return { query: { decision }, keep: all };
    default:
      return { query: { decision: [] }, keep: () => false };
  }
}

/**
 * A page of audit rows filtered by the decision columns; a filter the database cannot express
 * alone (a person vs the policy) is applied to the rows read, reading on until the page is full
 * (at most 20 reads).
 */
async function queryAudit(
  audit: AuditLog,
  query: AuditQuery,
  decision: string | undefined,
  limit: number,
  cursor?: string,
): Promise<{ entries: AuditEntry[]; nextCursor?: string }> {
  const filter = decisionFilter(decision);
  const entries: AuditEntry[] = [];
  let next = cursor;
  for (let read = 0; read < 20 && entries.length < limit; read++) {
    const page = await audit.query({
      ...query,
      ...filter.query,
      limit: Math.min(1000, limit),
      ...(next === undefined ? {} : { cursor: next }),
    });
    entries.push(...page.entries.filter(filter.keep));
    next = page.nextCursor;
    if (next === undefined) break;
  }
  return { entries: entries.slice(0, limit), ...(next === undefined ? {} : { nextCursor: next }) };
}

function inRange(date: Date, from: Date | undefined, to: Date | undefined): boolean {
  return (from === undefined || date >= from) && (to === undefined || date <= to);
}

/** The stored call whose execution an audit row is: same session and tool, inside its run. */
async function findCallRecord(store: ConsoleStoreParts, entry: AuditEntry) {
  if (store.calls === undefined || entry.conversationId === null) return undefined;
  const calls = await store.calls.list({ sessionId: entry.conversationId });
  for (const call of calls) {
    const r = call.record;
    if (
      r.request.toolId.toLowerCase() !== entry.toolName.toLowerCase() ||
      r.executionStarted === null
    )
      continue;
    const started = Date.parse(r.executionStarted);
    const ended =
      r.executionCompleted === null ? Number.POSITIVE_INFINITY : Date.parse(r.executionCompleted);
    const at = entry.startedAt.getTime();
    if (at >= started - 1000 && at <= ended + 1000) return { callKey: call.callId, record: r };
  }
  return undefined;
}

async function auditForCall(
  audit: AuditLog,
  record: {
    request: { toolId: string };
    executionStarted: string | null;
    executionCompleted: string | null;
  },
  sessionId: string | undefined,
): Promise<AuditEntry[]> {
  if (record.executionStarted === null) return [];
  const from = new Date(Date.parse(record.executionStarted) - 1000);
  const to =
    record.executionCompleted === null
      ? undefined
      : new Date(Date.parse(record.executionCompleted) + 1000);
  const page = await audit.query({
    toolName: record.request.toolId,
    from,
    ...(to === undefined ? {} : { to }),
    ...(sessionId === undefined ? {} : { conversationId: sessionId }),
    limit: 20,
  });
  return [...page.entries];
}
