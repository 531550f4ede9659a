import type { Store } from "./store.js";
import { checkStoreConfig, type StoreConfig } from "./store-config.js";
import { parseStoreUrl } from "./store-url.js";

/**
 * Opens a store by URL, migrates it to the latest schema, turns executions left in flight by
 * dead processes into `interrupted` audit rows, and then fails the calls those processes left
 * `Executing` (`calls.markInterrupted()`). Loads only the driver the URL needs: `pg` (an optional
 * peer dependency) only for a PostgreSQL URL.
 *
 * @param url `sqlite:<file>` (relative or absolute; the folder is created), `sqlite::memory:`,
 *   or a `postgres://` / `postgresql://` connection string.
 * @throws InvalidStoreUrlError for any other URL; InvalidStoreOptionsError for a bad option;
 *   StoreOpenError when the database cannot be opened or reached; StoreMigrationError when a
 *   migration fails; MissingDriverError for a PostgreSQL URL when `pg` is not installed.
 *
 * @example
 * ```ts
 * import { openStore } from "aintern/store/sqlite";
 * const store = await openStore("sqlite:./.aintern/audit.db");
 * const pgStore = await openStore("postgres://aintern@db/aintern", { poolSize: 20 });
 * ```
 */
export async function openStore(url: string, config: StoreConfig = {}): Promise<Store> {
  const location = parseStoreUrl(url);
  checkStoreConfig(config);
  if (location.dialect === "sqlite") {
    const { openSqliteStore } = await import("./open-sqlite-store.js");
    return openSqliteStore(location.path, config);
  }
  const { openPostgresStore } = await import("./open-postgres-store.js");
  return openPostgresStore(location.connectionString, config);
}
