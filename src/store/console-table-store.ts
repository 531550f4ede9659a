import { type Kysely, sql } from "kysely";
import type { CallOwnership } from "./call-ownership.js";
import type { StoreChangeFeed } from "./console-change-feed.js";
import type { StoreDialect } from "./store.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";

/** What the console's two tables (pending approvals, running executions) are opened with. */
export interface ConsoleTableStoreConfig {
  readonly db: Kysely<StoreTables>;
  readonly dialect: StoreDialect;
  readonly state: StoreState;
  readonly ownership: CallOwnership;
  readonly feed: StoreChangeFeed;
  /** The PostgreSQL NOTIFY channel of changes; none on SQLite. */
  readonly channel?: string;
}

/** Which console table changed: what watchers and the NOTIFY payload name. */
export type ConsoleTableChange = "approvals" | "executions";

/**
 * What the console's two table stores share: their connection and state, the change feed other
 * processes watch, and the two halves of announcing a write (the row's new `changed_seq`, which
 * SQLite processes poll, and PostgreSQL's NOTIFY in the write's transaction).
 */
export abstract class ConsoleTableStore {
  protected readonly db: Kysely<StoreTables>;
  protected readonly dialect: StoreDialect;
  protected readonly state: StoreState;
  protected readonly ownership: CallOwnership;
  protected readonly feed: StoreChangeFeed;
  readonly #channel: string | undefined;

  constructor(config: ConsoleTableStoreConfig) {
    this.db = config.db;
    this.dialect = config.dialect;
    this.state = config.state;
    this.ownership = config.ownership;
    this.feed = config.feed;
    this.#channel = config.channel;
  }

  watch(listener: (change: ConsoleTableChange) => void): () => void {
    return this.feed.watch(listener);
  }

  /** The next `changed_seq` of `table`, as a subquery of the statement `eb` builds. */
  // biome-ignore lint/suspicious/noExplicitAny: the expression builder of either statement.
  protected nextSeq(eb: any, table: "pending_approvals" | "running_executions") {
    return eb.selectFrom(table).select(sql<number>`coalesce(max(changed_seq), 0) + 1`.as("next"));
  }

  /** NOTIFYs the store's channel inside `tx` (PostgreSQL); nothing on SQLite. */
  protected async notify(tx: Kysely<StoreTables>, change: ConsoleTableChange): Promise<void> {
    if (this.#channel === undefined) return;
    await sql`select pg_notify(${this.#channel}, ${change})`.execute(tx);
  }
}
