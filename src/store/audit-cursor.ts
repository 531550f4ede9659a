import { InvalidAuditQueryError } from "./invalid-audit-query-error.js";

/** Where a page ended: the last row's start time and id (rows are ordered by both, newest first). */
export interface AuditCursor {
  readonly startedAtMs: number;
  readonly id: string;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An opaque cursor string for {@link AuditCursor}. */
export function encodeAuditCursor(cursor: AuditCursor): string {
  return Buffer.from(JSON.stringify([cursor.startedAtMs, cursor.id]), "utf8").toString("base64url");
}

/** Reads a cursor made by {@link encodeAuditCursor}; throws `InvalidAuditQueryError` otherwise. */
export function decodeAuditCursor(text: string): AuditCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, "base64url").toString("utf8"));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    Number.isFinite(parsed[0]) &&
    typeof parsed[1] === "string" &&
    uuidPattern.test(parsed[1])
  ) {
    return { startedAtMs: parsed[0] as number, id: parsed[1] };
  }
  throw new InvalidAuditQueryError(
    "cursor",
    "Audit query cursor is not one this store issued; pass the nextCursor of a previous page.",
  );
}
