import type { AuditEntry } from "../execution/index.js";

const columns = [
  "id",
  "executionId",
  "toolName",
  "status",
  "startedAt",
  "completedAt",
  "durationMs",
  "wasApproved",
  "timedOut",
  "wasCancelled",
  "conversationId",
  "userId",
  "agentId",
  "batchId",
  "sandboxId",
  "errorCode",
  "errorMessage",
  "resultSummary",
  "parameters",
] as const;

function cell(entry: AuditEntry, column: (typeof columns)[number]): string {
  const value = entry[column];
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return value.toISOString();
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Audit rows as JSON lines, one object per row. */
export function auditJsonLines(entries: readonly AuditEntry[]): string {
  return entries.map((e) => JSON.stringify(e)).join("\n") + (entries.length === 0 ? "" : "\n");
}

/**
 * Audit rows as CSV (RFC 4180 quoting). A cell that a spreadsheet would run as a formula
 * (`= + - @`, tab, CR) is prefixed with `'`.
 */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const quote = (text: string) => {
    const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  };
  const lines = [columns.join(",")];
  for (const entry of entries) lines.push(columns.map((c) => quote(cell(entry, c))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
