import { AinternError } from "../core/index.js";

/** Thrown by `openStore` when the database's migrations could not be brought up to date. */
export class StoreMigrationError extends AinternError {
  /** The migration that failed, when Kysely could tell which. */
  readonly migrationName: string | undefined;

  constructor(migrationName: string | undefined, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "STORE_MIGRATION_FAILED",
      migrationName === undefined
        ? `Store migrations failed: ${reason}`
        : `Store migration "${migrationName}" failed: ${reason}`,
      { cause },
    );
    this.name = "StoreMigrationError";
    this.migrationName = migrationName;
  }
}
