import type { Kysely } from "kysely";
import type { AuditLogBase } from "./audit-log-base.js";
import type { CallOwnership } from "./call-ownership.js";
import {
  consoleChannel,
  type ListenConnection,
  POSTGRES_CHANGE_POLL_MS,
  SQLITE_CHANGE_POLL_MS,
  StoreChangeFeed,
} from "./console-change-feed.js";
import { SqlPendingApprovalStore } from "./sql-pending-approval-store.js";
import { SqlPermissionStore } from "./sql-permission-store.js";
import { SqlRunningExecutionStore } from "./sql-running-execution-store.js";
import { SqlToolCallStore } from "./sql-tool-call-store.js";
import { SqlToolDefinitionStore } from "./sql-tool-definition-store.js";
import type { Store, StoreDialect } from "./store.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";

/** What a dialect's opener hands over once its audit log is open and recovered. */
export interface StoreAssembly {
  readonly dialect: StoreDialect;
  readonly schema: string;
  readonly tables: Kysely<StoreTables>;
  readonly state: StoreState;
  readonly audit: AuditLogBase;
  readonly ownership: CallOwnership;
  /**
   * PostgreSQL: takes a connection of its own for LISTEN (the console's change feed, issue 14);
   * SQLite has none and polls.
   */
  readonly listen?: () => Promise<ListenConnection>;
  /** Releases what the opener acquired (connections, the lease); runs after the parts close. */
  readonly shutdown: () => Promise<void>;
}

/**
 * Makes the permission, call and tool definition stores beside an open audit log, fails the calls
 * that dead processes left executing, and returns the whole store.
 */
export async function assembleStore(assembly: StoreAssembly): Promise<Store> {
  const { tables, dialect, state, ownership } = assembly;
  const calls = new SqlToolCallStore({ db: tables, dialect, state, ownership });
  try {
    await calls.markInterrupted();
  } catch (error) {
    calls.close();
    throw error;
  }
  // The console's tables (issue 14): other processes' changes arrive by NOTIFY or by poll.
  const channel = dialect === "postgres" ? consoleChannel(assembly.schema) : undefined;
  const feed = new StoreChangeFeed(tables, {
    pollMs: dialect === "postgres" ? POSTGRES_CHANGE_POLL_MS : SQLITE_CHANGE_POLL_MS,
    ...(channel === undefined || assembly.listen === undefined
      ? {}
      : { listen: { connect: assembly.listen, channel } }),
  });
  const parts = {
    db: tables,
    dialect,
    state,
    ownership,
    feed,
    ...(channel === undefined ? {} : { channel }),
  };
  return new OpenStore(assembly, new SqlPermissionStore(tables, dialect, state), calls, {
    approvals: new SqlPendingApprovalStore(parts),
    executions: new SqlRunningExecutionStore(parts),
    toolDefinitions: new SqlToolDefinitionStore(tables, dialect, state),
    feed,
  });
}

class OpenStore implements Store {
  readonly dialect: StoreDialect;
  readonly schema: string;
  readonly audit: AuditLogBase;
  readonly permissions: SqlPermissionStore;
  readonly calls: SqlToolCallStore;
  readonly approvals: SqlPendingApprovalStore;
  readonly executions: SqlRunningExecutionStore;
  readonly toolDefinitions: SqlToolDefinitionStore;
  readonly #feed: StoreChangeFeed;
  readonly #state: StoreState;
  readonly #shutdown: () => Promise<void>;
  #closing: Promise<void> | undefined;

  constructor(
    assembly: StoreAssembly,
    permissions: SqlPermissionStore,
    calls: SqlToolCallStore,
    otherParts: {
      approvals: SqlPendingApprovalStore;
      executions: SqlRunningExecutionStore;
      toolDefinitions: SqlToolDefinitionStore;
      feed: StoreChangeFeed;
    },
  ) {
    this.dialect = assembly.dialect;
    this.schema = assembly.schema;
    this.#state = assembly.state;
    this.audit = assembly.audit;
    this.permissions = permissions;
    this.calls = calls;
    this.approvals = otherParts.approvals;
    this.executions = otherParts.executions;
    this.toolDefinitions = otherParts.toolDefinitions;
    this.#feed = otherParts.feed;
    this.#shutdown = assembly.shutdown;
  }

  get closed(): boolean {
    return this.#state.closed;
  }

  close(): Promise<void> {
    this.#closing ??= this.#close();
    return this.#closing;
  }

  async #close(): Promise<void> {
    this.#state.markClosed();
    await this.#feed.close();
    this.calls.close();
    try {
      await this.audit.close();
    } finally {
      await this.#shutdown();
    }
  }
}
