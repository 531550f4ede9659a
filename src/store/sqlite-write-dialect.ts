import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from "kysely";

/**
 * Kysely's SQLite dialect with the two changes several connections to one file need.
 *
 * - Transactions begin with `BEGIN IMMEDIATE`, taking the write lock first. A plain `BEGIN`
 *   that reads and then writes fails at once with "database is locked" when another connection
 *   (the audit thread, a second process) wrote in between: SQLite cannot move a reader's
 *   snapshot forward, so it does not wait for `busy_timeout` there. Waiting for the lock at the
 *   start does wait.
 * - Stores of one process on one file take turns ({@link SqliteFileTurns}). better-sqlite3 waits
 *   for a lock by blocking the thread, and a transaction here spans awaits: a second store of the
 *   same process that waited for the first's lock would block the very event loop the first
 *   needs to commit, until `busy_timeout` ran out.
 */
export class SqliteWriteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #file: string | undefined;

  /**
   * @param file The database's real path (the key of its turn); none for an in-memory database
   *   (no one shares it).
   */
  constructor(config: SqliteDialectConfig, file: string | undefined) {
    super(config);
    this.#config = config;
    this.#file = file;
  }

  override createDriver(): Driver {
    return new SqliteWriteDriver(this.#config, this.#file);
  }
}

class SqliteWriteDriver extends SqliteDriver {
  readonly #file: string | undefined;
  #endTurn: (() => void) | undefined;

  constructor(config: SqliteDialectConfig, file: string | undefined) {
    super(config);
    this.#file = file;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    if (this.#file !== undefined) this.#endTurn = await SqliteFileTurns.take(this.#file);
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

/**
 * One queue per database file in this process: whoever holds a turn uses its connection alone.
 * A file's queue is kept only while someone holds or waits for a turn.
 */
export class SqliteFileTurns {
  static readonly #byFile = new Map<string, SqliteFileTurns>();
  #last: Promise<void> = Promise.resolve();
  #holders = 0;

  private constructor() {}

  /**
   * Waits for the turn of `file` (a resolved path), shared by every store of this process on
   * it; call the function it resolves to when done.
   */
  static async take(file: string): Promise<() => void> {
    let turns = SqliteFileTurns.#byFile.get(file);
    if (turns === undefined) {
      turns = new SqliteFileTurns();
      SqliteFileTurns.#byFile.set(file, turns);
    }
    turns.#holders += 1;
    const before = turns.#last;
    let end!: () => void;
    turns.#last = new Promise<void>((resolve) => {
      end = resolve;
    });
    await before;
    let ended = false;
    const queue = turns;
    return () => {
      if (ended) return;
      ended = true;
      queue.#holders -= 1;
      if (queue.#holders === 0) SqliteFileTurns.#byFile.delete(file);
      end();
    };
  }
}
