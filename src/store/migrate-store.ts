import type BetterSqlite3 from "better-sqlite3";
import { type Kysely, type MigrationResultSet, Migrator } from "kysely";
import { StoreMigrationError } from "./store-migration-error.js";
import { type MigrationTarget, migrationTableNames, storeMigrations } from "./store-migrations.js";

/**
 * Brings the store's tables up to date with Kysely's `Migrator` (migrations defined in code).
 * Idempotent: a database that is already up to date is left alone.
 *
 * PostgreSQL: Kysely runs each migration in a transaction under an advisory lock, so processes
 * opening the same database at once migrate it once. SQLite: the whole run is one
 * `BEGIN IMMEDIATE` transaction on the given connection, which serializes processes the same way
 * (the second waits for the write lock, up to busy_timeout, then finds nothing to do).
 */
export async function migrateStore(
  // biome-ignore lint/suspicious/noExplicitAny: the migrator works on tables no type describes.
  db: Kysely<any>,
  target: MigrationTarget,
  sqlite?: BetterSqlite3.Database,
): Promise<readonly string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => storeMigrations(target) },
    ...migrationTableNames(target),
    ...(target.dialect === "postgres"
      ? { migrationTableSchema: target.schema }
      : { disableTransactions: true }),
  });
  let result: MigrationResultSet | undefined;
  if (sqlite === undefined) {
    result = await retryingOthersDrops(() => migrator.migrateToLatest(), target.schema);
  } else {
    sqlite.exec("BEGIN IMMEDIATE");
    try {
      result = await migrator.migrateToLatest();
    } finally {
      if (sqlite.inTransaction) sqlite.exec(result?.error === undefined ? "COMMIT" : "ROLLBACK");
    }
  }
  if (result.error !== undefined) {
    const failed = result.results?.find((item) => item.status === "Error");
    throw new StoreMigrationError(failed?.migrationName, result.error);
  }
  return (result.results ?? []).map((item) => item.migrationName);
}

/** How many times a migration meeting another client's drop is tried in all. */
const othersDropAttempts = 10;

/** The wait before retry `attempt` (1-based): 10 ms, doubling, at most 250 ms (1.5 s in all). */
function othersDropDelayMs(attempt: number): number {
  return Math.min(250, 10 * 2 ** (attempt - 1));
}

/**
 * Kysely's migrator looks for its tables among every schema's tables; a schema another client
 * drops at that moment makes the lookup fail ("schema ... does not exist", "could not open
 * relation"), although nothing is wrong with this store's schema. Such a failure is retried,
 * after a wait that doubles: clients dropping schemas one after another (a test suite cleaning
 * up in parallel) once failed five immediate tries in a row. `migrate` runs the migrator once
 * (`migrateToLatest`, `migrateTo`). Internal to the folder (exported for its tests).
 */
export async function retryingOthersDrops(
  migrate: () => Promise<MigrationResultSet>,
  schema: string,
  wait: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<MigrationResultSet> {
  for (let attempt = 1; ; attempt++) {
    let result: MigrationResultSet;
    try {
      result = await migrate();
    } catch (error) {
      if (attempt < othersDropAttempts && isOthersDrop(error, schema)) {
        await wait(othersDropDelayMs(attempt));
        continue;
      }
      throw error;
    }
    if (attempt < othersDropAttempts && isOthersDrop(result.error, schema)) {
      await wait(othersDropDelayMs(attempt));
      continue;
    }
    return result;
  }
}

/**
 * Whether a migration failed because another client dropped or changed its own schema while
 * Kysely's migrator listed every schema's tables. Internal to the folder (exported for its test).
 */
export function isOthersDrop(error: unknown, schema: string): boolean {
  if (!(error instanceof Error)) return false;
  // The listing calls pg_get_serial_sequence on every column of every table: a column of a table
  // that is going away at that moment fails it ("column ... of relation ... does not exist").
  // A migration of this store's own does not call it.
  if ((error as { routine?: unknown }).routine === "pg_get_serial_sequence") return true;
  const missingSchema = /schema "([^"]+)" does not exist/.exec(error.message)?.[1];
  if (missingSchema !== undefined) return missingSchema !== schema;
  // A table of another schema, gone between the listing and the look at its columns.
  const missingTable = /relation "([^".]+)\.[^"]+" does not exist/.exec(error.message)?.[1];
  if (missingTable !== undefined) return missingTable !== schema;
  return /could not open relation with OID|cache lookup failed for relation/.test(error.message);
}
