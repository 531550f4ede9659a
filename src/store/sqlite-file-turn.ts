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
 * What gives each connection without a file (an in-memory database) a turn key of its own,
 * registered on `globalThis` as the queues are: the same `Database` given to two stores, by two
 * copies of the library too, gets the same key.
 */
interface ConnectionKeys {
  readonly keys: WeakMap<object, string>;
  next: number;
}

function connectionKeys(): ConnectionKeys {
  const holder = globalThis as Record<symbol, unknown>;
  const key = Symbol.for("aintern.store.sqliteConnectionTurnKeys");
  const existing = holder[key] as ConnectionKeys | undefined;
  if (existing !== undefined && existing.keys instanceof WeakMap) return existing;
  const created: ConnectionKeys = { keys: new WeakMap(), next: 1 };
  holder[key] = created;
  return created;
}

/**
 * The turn key of a database connection that has no file (an in-memory database): stores given
 * the same connection take turns on it as stores of one file do, so one store's transaction,
 * which spans awaits, never has another's statements (or audit rows) run inside it. The key
 * (`memory:1`) cannot be a real path.
 */
export function connectionTurnKey(connection: object): string {
  const registry = connectionKeys();
  let key = registry.keys.get(connection);
  if (key === undefined) {
    key = `memory:${registry.next++}`;
    registry.keys.set(connection, key);
  }
  return key;
}

/**
 * Waits for the turn of `file` (its real path, or an in-memory connection's
 * {@link connectionTurnKey}) among every store of this process on it, and resolves to the
 * function that ends the turn. One queue per database: whoever holds a turn uses its connection
 * alone; a queue is kept only while someone holds or waits for a turn.
 */
export async function takeSqliteFileTurn(file: string): Promise<() => void> {
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
