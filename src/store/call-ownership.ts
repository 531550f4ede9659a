/**
 * How a store tells its own `Executing` calls, and those of other live processes, from the calls
 * of processes that died while running them.
 *
 * Each open store has an owner token, written to the `owner` column of every call it saves as
 * `Executing` (and cleared when it saves any other status). `calls.markInterrupted()` only fails
 * `Executing` calls whose owner is gone (or that have none), so a second live process opening the
 * same database leaves the first one's running calls alone. The proof of life is the same as the
 * audit log's in-flight evidence:
 * - PostgreSQL: the owner is the store's lease key; the owner is alive while the lease's session
 *   advisory lock is held (see `PostgresLease`), which PostgreSQL drops when the process dies.
 * - SQLite: the owner is `<pid>.<random>`; it is alive while that process exists (and, in this
 *   process, while that store is open). Like the journal files, a pid reused by an unrelated
 *   process keeps the dead calls waiting until that process ends.
 */
export interface CallOwnership {
  /** This store's token. */
  readonly owner: string;
  /** Which of `owners` belong to stores that can no longer finish their calls. */
  gone(owners: readonly string[]): Promise<ReadonlySet<string>>;
  /** Called when the store closes: from then on its `Executing` calls count as interrupted. */
  release(): void;
}
