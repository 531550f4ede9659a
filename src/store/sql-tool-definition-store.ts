import type { Kysely } from "kysely";
import type { ToolDefinitionStore } from "../mcp/tool-definition-store.js";
import { storableKey } from "./sql-pending-approval-store.js";
import type { StoreDialect } from "./store.js";
import type { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { toStoredTime } from "./stored-time.js";

/**
 * `store.toolDefinitions`: the last-seen definition fingerprint of each upstream tool in the
 * `tool_definitions` table (PostgreSQL `<schema>.tool_definitions`, SQLite
 * `<schema>_tool_definitions`), one Kysely body for both dialects. Every process on the same
 * database reads and writes the same rows, so a definition recorded by one gateway process is
 * what the next one compares with.
 *
 * - `get` matches the tool id case-insensitively (the key is the lowercased id, as
 *   `tool_permissions.tool_key`).
 * - `set` replaces the fingerprint recorded for the id, with the time it was recorded.
 *
 * @example
 * ```ts
 * const store = await openStore("sqlite:./.aintern/aintern.db");
 * const tools = new UpstreamToolSet({ registry, upstream: "fs", permissions, definitions: store.toolDefinitions });
 * ```
 */
export class SqlToolDefinitionStore implements ToolDefinitionStore {
  readonly #db: Kysely<StoreTables>;
  readonly #dialect: StoreDialect;
  readonly #state: StoreState;

  /** `db` already points at the store's tables (PostgreSQL `withSchema`, SQLite prefix). */
  constructor(db: Kysely<StoreTables>, dialect: StoreDialect, state: StoreState) {
    this.#db = db;
    this.#dialect = dialect;
    this.#state = state;
  }

  async get(toolId: string): Promise<string | undefined> {
    this.#state.check("toolDefinitions.get");
    const row = await this.#db
      .selectFrom("tool_definitions")
      .select("fingerprint")
      .where("tool_key", "=", keyOf(toolId))
      .executeTakeFirst();
    return row?.fingerprint;
  }

  async set(toolId: string, fingerprint: string): Promise<void> {
    this.#state.check("toolDefinitions.set");
    const row = {
      tool_key: keyOf(toolId),
      tool_id: storableKey(String(toolId)),
      fingerprint: storableKey(String(fingerprint)),
      recorded_at: toStoredTime(this.#dialect, new Date()),
    };
    const { tool_key: _key, ...changes } = row;
    await this.#db
      .insertInto("tool_definitions")
      .values(row)
      .onConflict((conflict) => conflict.column("tool_key").doUpdateSet(changes))
      .execute();
  }
}

/** The row key of a tool id: lowercased, and text PostgreSQL can hold (see `storableKey`). */
function keyOf(toolId: string): string {
  return storableKey(String(toolId).toLowerCase());
}
