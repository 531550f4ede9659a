import type { Kysely } from "kysely";
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
