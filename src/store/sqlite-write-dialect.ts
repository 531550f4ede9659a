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
 * A file's queue: the promise the last turn taken resolves when it ends, and how many hold or
 * wait for a turn. A plain object, the same in every copy and version of the library.
 */
interface FileQueue {
  last: Promise<void>;
  holders: number;
}

/**
 * The queues of this process by file, registered under `Symbol.for` on `globalThis`: every
 * bundled copy of the library (two versions in one program, a bundle beside the package) takes
 * turns in the same queue. Copies with queues of their own deadlocked as two stores of one copy
 * did before turns.
 */
function fileQueues(): Map<string, FileQueue> {
  const holder = globalThis as Record<symbol, unknown>;
  const key = Symbol.for("aintern.store.sqliteFileTurns");
  const existing = holder[key];
  if (existing instanceof Map) return existing as Map<string, FileQueue>;
  const created = new Map<string, FileQueue>();
  holder[key] = created;
  return created;
}

/**
 * One queue per database file in this process: whoever holds a turn uses its connection alone.
 * A file's queue is kept only while someone holds or waits for a turn.
 */
export class SqliteFileTurns {
  private constructor() {}

  /**
   * Waits for the turn of `file` (its real path), shared by every store of this process on
   * it; call the function it resolves to when done.
   */
  static async take(file: string): Promise<() => void> {
    const queues = fileQueues();
    let queue = queues.get(file);
    if (queue === undefined) {
      queue = { last: Promise.resolve(), holders: 0 };
      queues.set(file, queue);
    }
    queue.holders += 1;
    const before = queue.last;
    let end!: () => void;
    queue.last = new Promise<void>((resolve) => {
      end = resolve;
    });
    await before;
    let ended = false;
    const mine = queue;
    return () => {
      if (ended) return;
      ended = true;
      mine.holders -= 1;
      if (mine.holders === 0 && queues.get(file) === mine) queues.delete(file);
      end();
    };
  }
}
