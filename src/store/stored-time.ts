/**
 * How a store keeps a point in time: a `Date` for PostgreSQL's `timestamptz`, ISO-8601 UTC text
 * for SQLite (which sorts in time order and reads well in the sqlite3 shell).
 */
export function toStoredTime(dialect: "sqlite" | "postgres", date: Date): Date | string {
  return dialect === "postgres" ? date : date.toISOString();
}

/** A stored time read back, whichever dialect stored it. */
export function fromStoredTime(value: unknown): Date {
  return value instanceof Date ? new Date(value.getTime()) : new Date(String(value));
}
