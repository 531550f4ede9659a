import type BetterSqlite3 from "better-sqlite3";
import type { Kysely } from "kysely";
import { AuditLogBase, type InflightSlot } from "./audit-log-base.js";
import { AuditReader } from "./audit-reader.js";
import {
  AUDIT_COLUMNS,
  type AuditRowValues,
  auditRowValues,
  interruptedRow,
  salvageInflight,
} from "./audit-row.js";
import { GroupCommit } from "./group-commit.js";
import { InflightJournal } from "./inflight-journal.js";
import { reportRecoverySkip } from "./report-recovery-skip.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { sqliteTableName, TOOL_EXECUTIONS_TABLE } from "./table-names.js";

/** What a SQLite audit log is built from. */
export interface SqliteAuditLogConfig {
  /** The open connection (WAL, synchronous = NORMAL), shared with Kysely. */
  readonly database: BetterSqlite3.Database;
  /** Kysely over the same connection, with the table prefix plugin applied. */
  readonly kysely: Kysely<StoreTables>;
  readonly schema: string;
  /** The database file; `undefined` for `sqlite::memory:` (no journal: nothing survives anyway). */
  readonly databasePath: string | undefined;
  readonly state: StoreState;
}

/** A value as better-sqlite3 binds it: ISO-8601 UTC text for a time, 0 / 1 for a flag. */
function toSqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return typeof value === "boolean" ? Number(value) : value;
}

/** The row as better-sqlite3 binds it. */
export function sqliteRowValues(row: AuditRowValues): unknown[] {
  return auditRowValues(row).map(toSqliteValue);
}

/** The INSERT statement for the audit table in SQLite (`verb` may add `OR IGNORE`). */
export function sqliteInsertSql(schema: string, verb = "INSERT"): string {
  const table = sqliteTableName(schema, TOOL_EXECUTIONS_TABLE);
  const placeholders = AUDIT_COLUMNS.map(() => "?").join(", ");
  return `${verb} INTO "${table}" (${AUDIT_COLUMNS.join(", ")}) VALUES (${placeholders})`;
}

/**
 * The embedded audit log. Reads go through Kysely; the hot path is a prepared better-sqlite3
 * statement, one autocommit insert for a lone row and one `db.transaction` for a group. Starts
 * go to an {@link InflightJournal} beside the database file.
 *
 * Commits run synchronously in a microtask on the connection Kysely also uses. Code sharing the
 * connection must therefore not hold a Kysely transaction open across an `await` (the audit
 * insert would join it); use better-sqlite3's synchronous `db.transaction` instead.
 */
export class SqliteAuditLog extends AuditLogBase {
  readonly #database: BetterSqlite3.Database;
  readonly #databasePath: string | undefined;
  readonly #journal: InflightJournal | undefined;
  readonly #insert: BetterSqlite3.Statement;
  readonly #insertOrIgnore: BetterSqlite3.Statement;
  readonly #insertMany: (rows: readonly AuditRowValues[]) => void;
  /** Journal lines of starts made while others are in flight, written together. */
  readonly #starts: GroupCommit<string> | undefined;

  constructor(config: SqliteAuditLogConfig) {
    super(config.state, new AuditReader(config.kysely, (date) => date.toISOString()));
    this.#database = config.database;
    this.#databasePath = config.databasePath;
    const journal =
      config.databasePath === undefined ? undefined : new InflightJournal(config.databasePath);
    this.#journal = journal;
    this.#starts =
      journal === undefined
        ? undefined
        : new GroupCommit<string>((lines) => journal.write(lines.join("")));
    this.#insert = config.database.prepare(sqliteInsertSql(config.schema));
    this.#insertOrIgnore = config.database.prepare(
      sqliteInsertSql(config.schema, "INSERT OR IGNORE"),
    );
    const insert = this.#insert;
    this.#insertMany = config.database.transaction((rows: readonly AuditRowValues[]) => {
      for (const row of rows) insert.run(sqliteRowValues(row));
    });
  }

  /** The journal file of this store, when it has one (for diagnostics and tests). */
  get journalPath(): string | undefined {
    return this.#journal?.path;
  }

  protected recordStart(slot: InflightSlot): Promise<void> | undefined {
    const journal = this.#journal;
    if (journal === undefined || this.#starts === undefined) return undefined;
    // The starts of one tick share one writeSync, made before any of them resolves.
    const line = InflightJournal.lineOf(slot.execution);
    slot.line = line;
    return this.#starts.add(line);
  }

  protected commitRows(rows: AuditRowValues[]): void {
    const [only] = rows;
    if (rows.length === 1 && only !== undefined) this.#insert.run(sqliteRowValues(only));
    else this.#insertMany(rows);
    this.settle(rows);
    try {
      this.#journal?.tidy(this.inflight.size, () => this.#liveLines());
    } catch {
      // Housekeeping only: the rows are committed, and a journal that stays long is still right.
    }
  }

  protected async recover(): Promise<number> {
    if (this.#databasePath === undefined) return 0;
    const foundAt = new Date();
    let written = 0;
    const insertOrIgnore = this.#insertOrIgnore;
    for (const path of InflightJournal.findOrphans(this.#databasePath)) {
      const { executions, skipped } = InflightJournal.scan(path);
      for (const reason of skipped) reportRecoverySkip(path, reason);
      this.#database.transaction(() => {
        for (const execution of executions) {
          // A row with the same id means the execution completed: the insert is ignored.
          try {
            written += insertOrIgnore.run(
              sqliteRowValues(interruptedRow(salvageInflight(execution), foundAt)),
            ).changes;
          } catch (error) {
            reportRecoverySkip(
              path,
              `execution '${execution.executionId.slice(0, 80)}' (${String(error)})`,
            );
          }
        }
      })();
      InflightJournal.remove(path);
    }
    return written;
  }

  protected async release(): Promise<void> {
    await this.#starts?.drain();
    this.#journal?.close(this.inflight.size);
  }

  *#liveLines(): Iterable<string> {
    for (const slot of this.inflight.values()) if (slot.line !== undefined) yield slot.line;
  }
}
