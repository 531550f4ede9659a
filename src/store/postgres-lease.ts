import { randomInt } from "node:crypto";

/** The first key of every lease lock, so that aintern's advisory locks are told apart. */
export const LEASE_LOCK_CLASS = 0x61696e74; // "aint"

/** A connection the lease can hold: a `pg.Client`, or a client checked out of a pool. */
export interface LeaseConnection {
  query(text: string, values?: unknown[]): Promise<unknown>;
  on?(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * A PostgreSQL store's proof of life: a dedicated connection holding a session advisory lock
 * `(LEASE_LOCK_CLASS, key)`. Its in-flight rows carry `key` as `owner_key`. When the process
 * dies, PostgreSQL ends the session and drops the lock, so another store can tell the rows of a
 * dead process (lock free) from those of a live one (lock held) without any clock.
 */
export class PostgresLease {
  /** The owner key written to this store's in-flight rows. */
  readonly key: number;
  readonly #end: () => Promise<unknown>;

  private constructor(connection: LeaseConnection, key: number, end: () => Promise<unknown>) {
    this.key = key;
    this.#end = end;
    connection.on?.("error", () => {
      // The lock went with the connection. Another store may then mark this store's running
      // executions interrupted; complete() upserts, so the real outcome replaces that row.
    });
  }

  /**
   * Takes the lock under a fresh random key on a connection that `connect` opens; `end` closes
   * that connection (and so releases the lock). The connection must not be shared.
   */
  static async acquire<C extends LeaseConnection>(
    connect: () => Promise<C>,
    end: (connection: C) => Promise<unknown>,
  ): Promise<PostgresLease> {
    const connection = await connect();
    try {
      const key = randomInt(-(2 ** 31), 2 ** 31 - 1);
      await connection.query("SELECT pg_advisory_lock($1::int, $2::int)", [LEASE_LOCK_CLASS, key]);
      return new PostgresLease(connection, key, () => end(connection));
    } catch (error) {
      await end(connection).catch(() => undefined);
      throw error;
    }
  }

  /** Ends the connection, which releases the lock. */
  async release(): Promise<void> {
    await this.#end().catch(() => undefined);
  }
}
