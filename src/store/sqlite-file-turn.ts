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

/** What a turn of no file ends: nothing. */
const noTurn = (): void => undefined;

/**
 * Waits for the turn of `file` (its real path) among every store of this process on it, and
 * resolves to the function that ends the turn. One queue per database file: whoever holds a turn
 * uses its connection alone; a file's queue is kept only while someone holds or waits for a turn.
 * An in-memory database (`undefined`) has no turns: no one else shares it.
 */
export async function takeSqliteFileTurn(file: string | undefined): Promise<() => void> {
  if (file === undefined) return noTurn;
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
