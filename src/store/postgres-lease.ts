import { randomInt } from "node:crypto";
import pg from "pg";

/** The first key of every lease lock, so that aintern's advisory locks are told apart. */
export const LEASE_LOCK_CLASS = 0x61696e74; // "aint"

/**
 * A PostgreSQL store's proof of life: a dedicated connection holding a session advisory lock
 * `(LEASE_LOCK_CLASS, key)`. Its in-flight rows carry `key` as `owner_key`. When the process
 * dies, PostgreSQL ends the session and drops the lock, so another store can tell the rows of a
 * dead process (lock free) from those of a live one (lock held) without any clock.
 */
export class PostgresLease {
  /** The owner key written to this store's in-flight rows. */
  readonly key: number;
  readonly #client: pg.Client;

  private constructor(client: pg.Client, key: number) {
    this.#client = client;
    this.key = key;
    client.on("error", () => {
      // The lock went with the connection. Another store may then mark this store's running
      // executions interrupted; complete() upserts, so the real outcome replaces that row.
    });
  }

  /** Connects and takes the lock under a fresh random key. */
  static async acquire(config: pg.ClientConfig): Promise<PostgresLease> {
    const client = new pg.Client(config);
    await client.connect();
    try {
      const key = randomInt(-(2 ** 31), 2 ** 31 - 1);
      await client.query("SELECT pg_advisory_lock($1::int, $2::int)", [LEASE_LOCK_CLASS, key]);
      return new PostgresLease(client, key);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** Ends the connection, which releases the lock. */
  async release(): Promise<void> {
    await this.#client.end().catch(() => undefined);
  }
}
