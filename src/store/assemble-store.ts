import type { Kysely } from "kysely";
import type { AuditLogBase } from "./audit-log-base.js";
import type { CallOwnership } from "./call-ownership.js";
import { SqlPermissionStore } from "./sql-permission-store.js";
import { SqlToolCallStore } from "./sql-tool-call-store.js";
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
  /** Releases what the opener acquired (connections, the lease); runs after the parts close. */
  readonly shutdown: () => Promise<void>;
}

/**
 * Makes the permission and call stores beside an open audit log, fails the calls that dead
 * processes left executing, and returns the whole store.
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
  return new OpenStore(assembly, new SqlPermissionStore(tables, dialect, state), calls);
}

class OpenStore implements Store {
  readonly dialect: StoreDialect;
  readonly schema: string;
  readonly audit: AuditLogBase;
  readonly permissions: SqlPermissionStore;
  readonly calls: SqlToolCallStore;
  readonly #state: StoreState;
  readonly #shutdown: () => Promise<void>;
  #closing: Promise<void> | undefined;

  constructor(assembly: StoreAssembly, permissions: SqlPermissionStore, calls: SqlToolCallStore) {
    this.dialect = assembly.dialect;
    this.schema = assembly.schema;
    this.#state = assembly.state;
    this.audit = assembly.audit;
    this.permissions = permissions;
    this.calls = calls;
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
    this.calls.close();
    try {
      await this.audit.close();
    } finally {
      await this.#shutdown();
    }
  }
}
