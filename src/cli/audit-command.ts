import { parseArgs } from "node:util";
import { displayText, jsonLine, riskLevelName } from "../core/index.js";
import {
  type AuditEntry,
  type AuditFilter,
  type AuditStatus,
  allAuditStatuses,
  isAuditStatus,
} from "../execution/index.js";
import { openStore, redactStoreUrl } from "../store/index.js";
import { loadTools, resolveMcpPlaces } from "./mcp-runtime.js";
import { sameStoreFile, storeFileIdentity } from "./store-file-identity.js";

export const auditUsage = `Usage:
  aintern audit [--tool T] [--status S[,S]] [--session ID] [--since 1h] [--limit N]
                [--json|--csv] [--follow] [--workspace DIR] [--db URL] [--config FILE]

  The audit log, newest first: a table in a terminal (coloured by status and risk), JSON lines
  when piped (or --json), CSV with --csv. --follow prints rows as they are written, oldest first
  (a database file replaced by another is followed anew, one deleted stops it with exit code 1).
  --since takes 30s, 15m, 1h, 2d or an ISO date (2026-11-26, 2026-11-26T10:00Z).
  Control and bidirectional characters in a row are shown escaped (\\x1b, [U+202E]; \\uXXXX in
  JSON); a CSV cell starting with = + - @, a tab or a carriage return gets a leading '.
`;

/** `aintern audit`. Returns the exit code. */
export async function runAuditCommand(argv: readonly string[]): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      tool: { type: "string" },
      status: { type: "string" },
      session: { type: "string" },
      since: { type: "string" },
      limit: { type: "string" },
      json: { type: "boolean" },
      csv: { type: "boolean" },
      follow: { type: "boolean" },
      workspace: { type: "string" },
      db: { type: "string" },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) {
    process.stdout.write(auditUsage);
    return 0;
  }
  const fail = (message: string): number => {
    process.stderr.write(`${displayText(message)}\n\n${auditUsage}`);
    return 2;
  };
  let from: Date | undefined;
  if (values.since !== undefined) {
    from = parseSince(values.since);
    if (from === undefined)
      return fail(
        `--since must be like 30s, 15m, 1h, 2d or an ISO date (2026-11-26T10:00Z), not '${values.since}'`,
      );
  }
  let status: AuditStatus[] | undefined;
  if (values.status !== undefined) {
    status = values.status.split(",").map((s) => s.trim()) as AuditStatus[];
    const unknown = status.filter((s) => !isAuditStatus(s));
    if (unknown.length > 0)
      return fail(
        `--status: unknown ${unknown.join(", ")} (known: ${allAuditStatuses.join(", ")})`,
      );
  }
  const limit = values.limit === undefined ? 50 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
    return fail("--limit must be 1 to 1000");
  if (values.json === true && values.csv === true)
    return fail("--json and --csv exclude each other");

  const places = await resolveMcpPlaces({
    ...(values.workspace === undefined ? {} : { workspace: values.workspace }),
    ...(values.db === undefined ? {} : { db: values.db }),
    ...(values.config === undefined ? {} : { config: values.config }),
  });
  const risks = await toolRisks(places.config.tools);
  const format: Format =
    values.csv === true ? "csv" : values.json === true || !process.stdout.isTTY ? "json" : "table";
  const filter: AuditFilter = {
    ...(values.tool === undefined ? {} : { toolName: values.tool }),
    ...(status === undefined ? {} : { status }),
    ...(values.session === undefined ? {} : { conversationId: values.session }),
    ...(from === undefined ? {} : { from }),
  };
  let store = await openStore(places.storeUrl);
  const out = (text: string): void => {
    process.stdout.write(text);
  };
  try {
    const page = await store.audit.query({ ...filter, limit });
    if (format === "csv") out(`${csvColumns.join(",")}\n`);
    if (format === "table") out(`${tableHeader()}\n`);
    const rows = values.follow === true ? [...page.entries].reverse() : page.entries;
    for (const row of rows) out(`${formatAuditRow(row, format, risks)}\n`);
    if (values.follow !== true) return 0;

    // Follow: poll for rows completed since the last poll. Rows are written when an execution
    // ends, so a long execution's row comes after rows of executions that started later: the poll
    // goes by completion time (with a margin for writes committed late), deduplicated by id.
    const seen = new Map<string, number>(page.entries.map((e) => [e.id, e.completedAt.getTime()]));
    let completedSince = Math.max(Date.now(), ...page.entries.map((e) => e.completedAt.getTime()));
    let stopped = false;
    const stop = (): void => {
      stopped = true;
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    process.stdout.once("error", stop);
    // The file the store has open: a store left on a deleted or replaced database file would
    // never see another row, so each poll checks that the path still names it.
    let opened = await storeFileIdentity(places.storeUrl);
    while (!stopped) {
      await new Promise((r) => setTimeout(r, followPollMs));
      const now = await storeFileIdentity(places.storeUrl);
      if (!sameStoreFile(opened, now)) {
        const shown = displayText(redactStoreUrl(places.storeUrl));
        if (now === "missing") {
          process.stderr.write(
            `aintern audit: the database ${shown} was deleted while following; stopped. Run aintern audit --follow again once it is back.\n`,
          );
          return 1;
        }
        process.stderr.write(
          `aintern audit: the database ${shown} was replaced by another file; following the new one.\n`,
        );
        await store.close();
        store = await openStore(places.storeUrl);
        opened = await storeFileIdentity(places.storeUrl);
      }
      const next = await store.audit.query({
        ...filter,
        // The start bound keeps the poll on the started_at index: one day of rows, not the table.
        from: new Date(Math.max(filter.from?.getTime() ?? 0, completedSince - followLookbackMs)),
        completedFrom: new Date(completedSince - followMarginMs),
        limit: 1000,
      });
      const fresh = next.entries
        .filter((row) => !seen.has(row.id))
        .sort((a, b) => a.completedAt.getTime() - b.completedAt.getTime());
      for (const row of fresh) {
        const completed = row.completedAt.getTime();
        seen.set(row.id, completed);
        if (completed > completedSince) completedSince = completed;
        out(`${formatAuditRow(row, format, risks)}\n`);
      }
      // Ids older than the margin can no longer come back: forget them.
      for (const [id, completed] of seen) {
        if (completed < completedSince - 2 * followMarginMs) seen.delete(id);
      }
    }
    return 0;
  } finally {
    await store.close();
  }
}

export type Format = "table" | "json" | "csv";

/** How often `--follow` polls the store. */
const followPollMs = 300;
/** How far before the newest completion a poll looks again: rows committed late by a writer. */
const followMarginMs = 5_000;
/** Executions longer than this (a day) are not followed: their rows are in `aintern audit`. */
const followLookbackMs = 24 * 60 * 60 * 1000;

const csvColumns = [
  "startedAt",
  "toolName",
  "status",
  "durationMs",
  "errorCode",
  "errorMessage",
  "session",
  "sandbox",
  "wasApproved",
  "executionId",
] as const;

/** One audit row as `aintern audit` prints it (exported for tests). */
export function formatAuditRow(
  row: AuditEntry,
  format: Format,
  risks: Map<string, number>,
): string {
  // Every field may come from the model, its tools or an upstream server: a terminal escape, a
  // clipboard write (OSC 52) or a bidirectional override in one must reach the reader as text.
  if (format === "json") return jsonLine(row);
  if (format === "csv") {
    return [
      isoTime(row.startedAt),
      row.toolName,
      row.status,
      String(Math.round(row.durationMs)),
      row.errorCode ?? "",
      row.errorMessage ?? "",
      row.conversationId ?? "",
      row.sandboxId ?? "",
      String(row.wasApproved),
      row.executionId,
    ]
      .map(csvCell)
      .join(",");
  }
  const risk = risks.get(row.toolName);
  const riskText = risk === undefined ? "-" : riskLevelName(risk as never);
  return [
    isoTime(row.startedAt).replace("T", " ").slice(0, 23),
    displayText(row.toolName).padEnd(22).slice(0, 22),
    colour(riskColour(risk), riskText.padEnd(8)),
    colour(statusColour(row.status), row.status.padEnd(17)),
    `${String(Math.round(row.durationMs)).padStart(6)} ms`,
    displayText((row.errorMessage ?? row.resultSummary ?? "").replace(/\s+/g, " ")).slice(0, 60),
  ].join("  ");
}

/** A time as ISO-8601 text; a row whose time is no time says so instead of failing the list. */
function isoTime(date: Date): string {
  return Number.isFinite(date.getTime()) ? date.toISOString() : "(invalid time)";
}

function tableHeader(): string {
  return [
    "started".padEnd(23),
    "tool".padEnd(22),
    "risk".padEnd(8),
    "status".padEnd(17),
    "duration".padStart(9),
    "detail",
  ].join("  ");
}

/**
 * One CSV cell: quoted always; a leading = + - @ (or a tab or carriage return, which some
 * spreadsheets skip before one) is prefixed with `'` so a spreadsheet does not run the cell as a
 * formula (the OWASP rule); control and bidirectional characters, which have no business in a
 * cell and act on a terminal that shows the file, are written as their escapes ({@link displayText}).
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${displayText(safe).replaceAll('"', '""')}"`;
}

function statusColour(status: string): number {
  switch (status) {
    case "completed":
      return 32; // green
    case "failed":
    case "timeout":
    case "interrupted":
      return 31; // red
    case "denied":
    case "permissionDenied":
    case "validationError":
    case "cancelled":
      return 33; // yellow
    default:
      return 36; // cyan
  }
}

function riskColour(risk: number | undefined): number {
  if (risk === undefined) return 2;
  return risk >= 3 ? 31 : risk === 2 ? 33 : 32;
}

function colour(code: number, text: string): string {
  return process.env.NO_COLOR === undefined ? `\u001b[${code}m${text}\u001b[0m` : text;
}

/** An ISO 8601 date, optionally with a time and a zone: `2026-11-26`, `2026-11-26T10:00Z`. */
const isoDate =
  /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * `30s`, `15m`, `1h`, `2d` before now, or an ISO date; undefined for anything else (`12` or
 * `Nov 26`, which `Date` would read as some day in 2001), and for a time no `Date` can hold.
 */
export function parseSince(value: string, now = Date.now()): Date | undefined {
  const text = value.trim();
  const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d)$/.exec(text);
  let date: Date;
  if (match !== null) {
    const unit = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }[
      match[2] as "s" | "m" | "h" | "d"
    ];
    date = new Date(now - Number(match[1]) * unit);
  } else if (isoDate.test(text)) {
    date = new Date(text);
  } else {
    return undefined;
  }
  return Number.isNaN(date.getTime()) ? undefined : date;
}

async function toolRisks(specs: readonly string[] | undefined): Promise<Map<string, number>> {
  try {
    const tools = await loadTools(specs ?? ["builtin"]);
    return new Map(tools.map((t) => [t.id, t.defaultRiskLevel]));
  } catch {
    return new Map();
  }
}
