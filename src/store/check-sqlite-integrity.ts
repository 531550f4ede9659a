import { statSync } from "node:fs";
import type BetterSqlite3 from "better-sqlite3";

/**
 * Default largest database file (bytes) that `openStore` runs `PRAGMA quick_check` on: about 70
 * ms of CPU for a 56 MiB file (measured on the 2-core VM of bench/README.md), so the check of a
 * 128 MiB file stays near 0.2 s; a larger file is opened with the cheaper checks only (its header
 * and schema are still read).
 */
export const DEFAULT_QUICK_CHECK_MAX_BYTES = 128 * 1024 * 1024;

/** How to get the data back out of a damaged SQLite file; part of the open error. */
export function sqliteRecoveryAdvice(path: string): string {
  return `Stop every process using it, keep a copy, then recover what is readable with the sqlite3 shell: sqlite3 "${path}" ".recover" | sqlite3 "${path}.recovered", check the result and move it in place of the damaged file (or restore a backup). aintern does not write to a damaged database.`;
}

/**
 * Refuses a damaged database before anything is written to it: reads the schema (a file that is
 * not a database fails here) and, for a file of at most `maxBytes`, runs `PRAGMA quick_check`,
 * which reads every page once (not the cross-checks of `integrity_check`, so it stays bounded).
 * Throws an Error whose message says what is wrong and how to recover.
 */
export function checkSqliteIntegrity(
  database: BetterSqlite3.Database,
  path: string,
  maxBytes: number,
): void {
  let problem: string | undefined;
  try {
    database.pragma("schema_version", { simple: true });
    if (maxBytes > 0 && fileSize(path) <= maxBytes) {
      const rows = database.pragma("quick_check(5)") as { quick_check: string }[];
      const messages = rows.map((row) => row.quick_check);
      if (messages.length !== 1 || messages[0] !== "ok") problem = messages.join("; ");
    }
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  if (problem !== undefined) {
    throw new Error(`the SQLite database is damaged (${problem}). ${sqliteRecoveryAdvice(path)}`);
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
