import { type Kysely, sql } from "kysely";
import type { ConsoleChange, ConsoleChangeFeed } from "../console/index.js";
import type { StoreTables } from "./store-tables.js";

/** How often SQLite waiters poll the change counters: well inside the 250 ms promise. */
export const SQLITE_CHANGE_POLL_MS = 50;
/** PostgreSQL's fallback poll, for a notification lost with a dropped connection. */
export const POSTGRES_CHANGE_POLL_MS = 1000;

/** A connection the feed LISTENs on: the store's own, never one of its pool's. */
export interface ListenConnection {
  on(event: "notification", listener: (message: { payload?: string }) => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/** The NOTIFY channel of a PostgreSQL store's console tables. */
export function consoleChannel(schema: string): string {
  return `aintern_console_${schema.toLowerCase()}`;
}

/**
 * The store's side of {@link ConsoleChangeFeed}: while anyone listens, polls the indexed
 * `changed_seq` counters of `pending_approvals` and `running_executions` (two index look-ups per
 * tick) and, on PostgreSQL, also LISTENs on the store's channel on a connection of its own, so a
 * change is seen at once. Changes made in this process are told to its listeners directly.
 */
export class StoreChangeFeed implements ConsoleChangeFeed {
  readonly #db: Kysely<StoreTables>;
  readonly #pollMs: number;
  readonly #listen:
    | { readonly connect: () => Promise<ListenConnection>; readonly channel: string }
    | undefined;
  readonly #listeners = new Set<(change: ConsoleChange) => void>();
  #timer: NodeJS.Timeout | undefined;
  #last: { approvals: string; executions: string } | undefined;
  #polling = false;
  /** Raised at each stop: a look that began before a stop is not taken as what a later start saw. */
  #generation = 0;
  #client: ListenConnection | undefined;
  /** The connect in progress, which close() waits for. */
  #connecting: Promise<void> | undefined;
  #closed = false;

  constructor(
    db: Kysely<StoreTables>,
    options: {
      pollMs: number;
      listen?: { connect: () => Promise<ListenConnection>; channel: string };
    },
  ) {
    this.#db = db;
    this.#pollMs = options.pollMs;
    this.#listen = options.listen;
  }

  watch(listener: (change: ConsoleChange) => void): () => void {
    this.#listeners.add(listener);
    this.#start();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.#stop();
    };
  }

  /** Tells this process's listeners of its own change (other processes learn by poll / NOTIFY). */
  changed(change: ConsoleChange): void {
    queueMicrotask(() => this.#emit(change));
  }

  /** Stops polling and listening; resolves once the LISTEN connection has ended. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#stop();
    // A connect in progress sees the close and ends its connection itself.
    await this.#connecting;
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  #emit(change: ConsoleChange): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }

  #start(): void {
    if (this.#timer !== undefined || this.#closed) return;
    this.#timer = setInterval(() => void this.#poll(), this.#pollMs);
    this.#timer.unref();
    void this.#poll();
    this.#connect();
  }

  #stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#generation++;
    // The counters seen last are kept: the next start compares with them, so a change made while
    // no one listened (a waiter between two waits, reading the row) still wakes the next watcher.
    // The LISTEN connection stays open until close(): a waiter that comes next must not miss a
    // NOTIFY sent while it would be connecting again.
  }

  #connect(): void {
    const listen = this.#listen;
    if (listen === undefined || this.#client !== undefined || this.#connecting !== undefined) {
      return;
    }
    this.#connecting = this.#listenOn(listen).finally(() => {
      this.#connecting = undefined;
    });
  }

  async #listenOn(listen: { connect: () => Promise<ListenConnection>; channel: string }) {
    let client: ListenConnection | undefined;
    try {
      client = await listen.connect();
      const connection = client;
      connection.on("error", () => {
        // A dropped LISTEN connection: the poll goes on and the next tick connects again.
        if (this.#client === connection) this.#client = undefined;
        connection.end().catch(() => undefined);
      });
      connection.on("notification", (message) => {
        this.#emit(message.payload === "executions" ? "executions" : "approvals");
      });
      await connection.query(`LISTEN "${listen.channel}"`);
      if (this.#closed) {
        await client.end();
        return;
      }
      this.#client = client;
    } catch {
      await client?.end().catch(() => undefined);
    }
  }

  async #poll(): Promise<void> {
    if (this.#polling || this.#timer === undefined) return;
    this.#polling = true;
    const generation = this.#generation;
    try {
      if (this.#listen !== undefined && this.#client === undefined) this.#connect();
      const { rows } = await sql<{ approvals: unknown; executions: unknown }>`select (${this.#db
        .selectFrom("pending_approvals")
        .select((eb) => eb.fn.max("changed_seq").as("m"))}) as approvals, (${this.#db
        .selectFrom("running_executions")
        .select((eb) => eb.fn.max("changed_seq").as("m"))}) as executions`.execute(this.#db);
      const row = rows[0];
      // Stopped meanwhile: what this look saw was told to no one, so it is no baseline either.
      if (row === undefined || generation !== this.#generation) return;
      const now = { approvals: String(row.approvals), executions: String(row.executions) };
      const last = this.#last;
      this.#last = now;
      if (last === undefined) {
        // The feed's very first look has nothing to compare with: a change another process made
        // between the first watcher's own read and this look would wake no one. The watchers
        // read again instead (once in the feed's life: later starts compare with what was seen).
        this.#emit("approvals");
        this.#emit("executions");
        return;
      }
      if (now.approvals !== last.approvals) this.#emit("approvals");
      if (now.executions !== last.executions) this.#emit("executions");
    } catch {
      // A closed or unreachable database: the next tick tries again.
    } finally {
      this.#polling = false;
    }
  }
}
