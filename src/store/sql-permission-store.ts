import type { Kysely } from "kysely";
import type { PermissionFilter, PermissionGrant, PermissionStore } from "../approval/index.js";
import { fromPermissionRow, toPermissionRow } from "./permission-row.js";
import { unstorableTextReason } from "./storable-text.js";
import type { StoreDialect } from "./store.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";

/**
 * `store.permissions`: remembered `tool`-scoped approvals in the `tool_permissions` table
 * (PostgreSQL `<schema>.tool_permissions`, SQLite `<schema>_tool_permissions`), one Kysely body
 * for both dialects.
 *
 * - `add` keeps only `scope: "tool"` grants and never a Critical one (it rejects with
 *   `InvalidPermissionGrantError`); adding a grant whose id exists replaces it.
 * - `list` returns grants oldest first, each with the fields it was added with (dates as `Date`);
 *   `toolId` matches case-insensitively, like `MemoryPermissionStore`. Expired grants are listed
 *   too: whether a grant still applies is `RememberedPermissions`' call.
 *
 * @example
 * ```ts
 * const store = await openStore("sqlite:./.aintern/aintern.db");
 * const permissions = new RememberedPermissions({ store: store.permissions });
 * const grants = await store.permissions.list({ toolId: "file-write" });
 * await store.permissions.revoke(grants[0].id);
 * ```
 */
export class SqlPermissionStore implements PermissionStore {
  readonly #db: Kysely<StoreTables>;
  readonly #dialect: StoreDialect;
  readonly #state: StoreState;

  /** `db` already points at the store's tables (PostgreSQL `withSchema`, SQLite prefix). */
  constructor(db: Kysely<StoreTables>, dialect: StoreDialect, state: StoreState) {
    this.#db = db;
    this.#dialect = dialect;
    this.#state = state;
  }

  async add(grant: PermissionGrant): Promise<void> {
    this.#state.check("permissions.add");
    const row = toPermissionRow(grant, this.#dialect);
    const { id: _id, ...changes } = row;
    await this.#db
      .insertInto("tool_permissions")
      .values(row)
      .onConflict((conflict) => conflict.column("id").doUpdateSet(changes))
      .execute();
  }

  async list(filter: PermissionFilter = {}): Promise<PermissionGrant[]> {
    this.#state.check("permissions.list");
    let query = this.#db.selectFrom("tool_permissions").selectAll();
    if (filter.toolId !== undefined) {
      const toolId = String(filter.toolId);
      // Text no grant can have (PostgreSQL would refuse to compare it) matches none.
      if (unstorableTextReason(toolId) !== undefined) return [];
      query = query.where("tool_key", "=", toolId.toLowerCase());
    }
    const rows = await query.orderBy("created_at").orderBy("id").execute();
    return rows.map(fromPermissionRow);
  }

  async revoke(id: string): Promise<boolean> {
    this.#state.check("permissions.revoke");
    if (typeof id !== "string" || unstorableTextReason(id) !== undefined) return false;
    const result = await this.#db
      .deleteFrom("tool_permissions")
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
