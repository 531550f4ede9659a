import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";
import { takeSqliteFileTurn } from "./sqlite-file-turn.js";

/**
 * Kysely's SQLite dialect with the two changes several connections to one file need.
 *
 * - Transactions begin with `BEGIN IMMEDIATE`, taking the write lock first. A plain `BEGIN`
 *   that reads and then writes fails at once with "database is locked" when another connection
 *   (the audit thread, a second process) wrote in between: SQLite cannot move a reader's
 *   snapshot forward, so it does not wait for `busy_timeout` there. Waiting for the lock at the
 *   start does wait.
 * - Stores of one process on one file take turns ({@link takeSqliteFileTurn}). better-sqlite3 waits
 *   for a lock by blocking the thread, and a transaction here spans awaits: a second store of the
 *   same process that waited for the first's lock would block the very event loop the first
 *   needs to commit, until `busy_timeout` ran out.
 */
export class SqliteWriteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #file: string;

  /**
   * @param file The key of the database's turn: its real path, or an in-memory connection's
   *   `connectionTurnKey`.
   */
  constructor(config: SqliteDialectConfig, file: string) {
    super(config);
    this.#config = config;
    this.#file = file;
  }

  override createDriver(): Driver {
    return new SqliteWriteDriver(this.#config, this.#file);
  }
}

class SqliteWriteDriver extends SqliteDriver {
  readonly #file: string;
  #endTurn: (() => void) | undefined;

  constructor(config: SqliteDialectConfig, file: string) {
    super(config);
    this.#file = file;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#endTurn = await takeSqliteFileTurn(this.#file);
    return connection;
  }

  override async releaseConnection(): Promise<void> {
    const endTurn = this.#endTurn;
    this.#endTurn = undefined;
    endTurn?.();
    await super.releaseConnection();
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw("begin immediate"));
  }
}
