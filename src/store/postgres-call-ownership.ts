import { type Kysely, sql } from "kysely";
import type { CallOwnership } from "./call-ownership.js";
import { LEASE_LOCK_CLASS, type PostgresLease } from "./postgres-lease.js";

const keyPattern = /^-?\d{1,10}$/;

function leaseKey(owner: string): number | undefined {
  if (!keyPattern.test(owner)) return undefined;
  const key = Number(owner);
  return key >= -(2 ** 31) && key < 2 ** 31 ? key : undefined;
}

/**
 * A PostgreSQL store's {@link CallOwnership}: the owner is its lease key. An owner is gone when
 * its lease lock is free: `pg_try_advisory_xact_lock` on a pooled connection (never the lease's
 * own session) takes it for the statement only, and fails while the owning store is alive.
 */
export function postgresCallOwnership(
  // biome-ignore lint/suspicious/noExplicitAny: a raw statement over the store's pool.
  db: Kysely<any>,
  lease: PostgresLease,
): CallOwnership {
  return {
    owner: String(lease.key),
    async gone(owners) {
      const gone = new Set<string>();
      const keys = new Map<number, string>();
      for (const owner of owners) {
        const key = leaseKey(owner);
        // Not a lease key: no store holds it, nothing to wait for.
        if (key === undefined) gone.add(owner);
        else keys.set(key, owner);
      }
      if (keys.size === 0) return gone;
      const { rows } = await sql<{ key: number }>`SELECT k AS key FROM unnest(${[
        ...keys.keys(),
      ]}::int[]) AS k WHERE pg_try_advisory_xact_lock(${LEASE_LOCK_CLASS}::int, k)`.execute(db);
      for (const row of rows) {
        const owner = keys.get(Number(row.key));
        if (owner !== undefined) gone.add(owner);
      }
      return gone;
    },
    release() {
      // The lease itself is released by the store's close.
    },
  };
}
