import { stat } from "node:fs/promises";
import { parseStoreUrl } from "../store/store-url.js";

/** Which file a SQLite store is: its device and inode, as `stat` tells them. */
export interface StoreFileIdentity {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * The identity of the file a `sqlite:<file>` store URL names now; `undefined` for a store with no
 * file (`sqlite::memory:`, PostgreSQL), and `"missing"` when the file is not there (deleted).
 * Compared before and after, it tells whether the file was deleted or replaced (a new inode at
 * the same path) while a store stayed open on the old one, which then never sees new rows.
 *
 * @example
 * ```ts
 * const opened = await storeFileIdentity("sqlite:.aintern/audit.db");
 * // later
 * const now = await storeFileIdentity("sqlite:.aintern/audit.db");
 * if (!sameStoreFile(opened, now)) { ... }
 * ```
 */
export async function storeFileIdentity(
  url: string,
): Promise<StoreFileIdentity | "missing" | undefined> {
  const location = parseStoreUrl(url);
  if (location.dialect !== "sqlite" || location.path === ":memory:") return undefined;
  try {
    const { dev, ino } = await stat(location.path);
    return { path: location.path, dev, ino };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    throw error;
  }
}

/** Whether two identities from {@link storeFileIdentity} are the same file (or both no file). */
export function sameStoreFile(
  a: StoreFileIdentity | "missing" | undefined,
  b: StoreFileIdentity | "missing" | undefined,
): boolean {
  if (a === undefined || b === undefined || a === "missing" || b === "missing") return a === b;
  return a.dev === b.dev && a.ino === b.ino;
}
