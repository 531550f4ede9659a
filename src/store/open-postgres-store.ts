import { Kysely, PostgresDialect, type PostgresPool } from "kysely";
import type pg from "pg";
import { assembleStore } from "./assemble-store.js";
import type { ListenConnection } from "./console-change-feed.js";
import { InvalidStoreOptionsError } from "./invalid-store-options-error.js";
import { loadPg } from "./load-pg.js";
import { migrateStore } from "./migrate-store.js";
import { PostgresAuditLog } from "./postgres-audit-log.js";
import { postgresCallOwnership } from "./postgres-call-ownership.js";
import { postgresConnectFailure, postgresConnection } from "./postgres-connection.js";
import { type LeaseConnection, PostgresLease } from "./postgres-lease.js";
import type { Store } from "./store.js";
import { checkStoreConfig, DEFAULT_POOL_SIZE, type StoreConfig } from "./store-config.js";
import { StoreOpenError } from "./store-open-error.js";
import { StoreState } from "./store-state.js";
import type { StoreTables } from "./store-tables.js";
import { parseStoreUrl } from "./store-url.js";

/** A client checked out of a {@link PostgresPoolLike}. */
export interface PostgresPoolClientLike {
  query(...args: never[]): Promise<unknown>;
  release(destroy?: boolean | Error): void;
  on?(event: "error", listener: (error: Error) => void): unknown;
}

/**
 * The members of a `pg.Pool` the store uses: pass your own pool instead of a connection string.
 * A structural type, so no particular copy of `pg` is required. The store queries through the
 * pool; a pool you pass stays yours: closing the store does not end it. Two connections are its
 * own, outside the pool: its lease (held while it is open) and, while anyone watches the console
 * tables, the one that LISTENs. A `pg.Pool` makes them as it makes its own (`new pool.Client(
 * pool.options)`: same settings, without the pool's `connect` listeners), so a pool of any size
 * works. An object with no `Client` and `options` lends them from its `connect()` instead: it
 * then needs room for both beside the queries, at least 3 connections.
 */
export interface PostgresPoolLike {
  connect(): Promise<PostgresPoolClientLike>;
  query(...args: never[]): Promise<unknown>;
  end(): Promise<void>;
}

/**
 * Opens the PostgreSQL store: a connection string (`postgres://…` or `postgresql://…`) or a
 * `pg.Pool` you pass, migrates it, and recovers what dead processes left in flight.
 *
 * @throws InvalidStoreUrlError for a connection string of another kind; InvalidStoreOptionsError
 *   for a bad option; StoreOpenError when the server cannot be reached; StoreMigrationError when
 *   a migration fails; MissingDriverError when a connection string is given and `pg` is not
 *   installed.
 *
 * @example
 * ```ts
 * import { openPostgresStore } from "aintern/store/postgres";
 * const store = await openPostgresStore("postgres://aintern@db/aintern", { poolSize: 20 });
 * ```
 */
export async function openPostgresStore(
  target: string | PostgresPoolLike,
  config: StoreConfig = {},
): Promise<Store> {
  const schema = checkStoreConfig(config);
  if (typeof target === "string") return openWithUrl(target, schema, config);
  if (typeof target !== "object" || target === null || typeof target.connect !== "function") {
    throw new InvalidStoreOptionsError(
      "pool",
      "openPostgresStore needs a postgres:// connection string or a pg.Pool.",
    );
  }
  const pool = target as unknown as pg.Pool;
  return openWithPool(
    "postgres (pool)",
    pool,
    // A pool the caller passed is ended by the caller, not by the store.
    { connect: () => pool.connect(), end: async () => undefined },
    ownConnectionsOf(pool),
    schema,
  );
}

/**
 * A connection of the store's own, outside the pool its queries go through: the lease's, and the
 * one that LISTENs for the console. Taken from the pool, they starved it: a pool of 1 could not
 * open (the lease took its only connection), and a pool of 1 or 2 failed every query with
 * "timeout exceeded when trying to connect" once the console watched.
 */
type OwnConnection = LeaseConnection & ListenConnection;

function ownConnection(client: pg.ClientBase, end: () => Promise<void>): OwnConnection {
  // An idle connection that breaks must not crash the process; its users add their own listener.
  client.on("error", () => undefined);
  return {
    on: (event: string, listener: (...args: never[]) => void) => {
      client.on(event as "error", listener as never);
    },
    query: (text: string, values?: unknown[]) => client.query(text, values),
    end,
  } as OwnConnection;
}

/**
 * Connects `client` as a connection of the store's own, ended when the store is done with it.
 * A client that cannot connect is ended too, and `failure` says why.
 */
async function connectOwnClient(
  client: pg.Client,
  failure: (error: unknown) => unknown = (error) => error,
): Promise<OwnConnection> {
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw failure(error);
  }
  return ownConnection(client, () => client.end());
}

/** Own connections for a pool passed in: made as the pool makes its own, when it says how. */
function ownConnectionsOf(pool: pg.Pool): () => Promise<OwnConnection> {
  const { Client, options } = pool as unknown as { Client?: unknown; options?: unknown };
  if (typeof Client === "function" && typeof options === "object" && options !== null) {
    const ClientOfPool = Client as typeof pg.Client;
    return () => connectOwnClient(new ClientOfPool(options as pg.ClientConfig));
  }
  // Not a pg.Pool: its own connect() is all there is (documented: it needs 3 connections or more).
  return async () => {
    const client = await pool.connect();
    return ownConnection(client, async () => client.release(true));
  };
}

/** What each connection of a pool the store made runs first. */
const READ_COMMITTED = "SET default_transaction_isolation = 'read committed'";

async function openWithUrl(url: string, schema: string, config: StoreConfig): Promise<Store> {
  const location = parseStoreUrl(url);
  if (location.dialect !== "postgres") {
    throw new InvalidStoreOptionsError(
      "url",
      `openPostgresStore needs a postgres:// connection string, got "${url}". Use openStore or openSqliteStore for SQLite.`,
    );
  }
  const pg = await loadPg();
  const connection = postgresConnection(
    location.connectionString,
    config.applicationName ?? "aintern",
    config,
  );
  const pool = new pg.Pool({ ...connection, max: config.poolSize ?? DEFAULT_POOL_SIZE });
  // An idle pooled connection that breaks must not crash the process; the next query reports it.
  pool.on("error", () => undefined);
  // The store's statements are written for READ COMMITTED (conflicting inserts resolved by ON
  // CONFLICT, conditional updates re-checked on the committed row, max() + 1 counters). A server,
  // database, role or connection string whose default is SERIALIZABLE or REPEATABLE READ made
  // processes writing at once fail with 40001 "could not serialize access". Queued before the
  // connection's first query; a failure leaves the default (the queries then report it).
  pool.on("connect", (client) => {
    client.query(READ_COMMITTED).catch(() => undefined);
  });
  return openWithPool(
    url,
    pool,
    pool,
    () =>
      connectOwnClient(new pg.Client(connection), (error) =>
        postgresConnectFailure(
          location.connectionString,
          connection.connectionTimeoutMillis,
          error,
        ),
      ),
    schema,
  );
}

async function openWithPool(
  label: string,
  pool: pg.Pool,
  kyselyPool: PostgresPool,
  connectOwn: () => Promise<OwnConnection>,
  schema: string,
): Promise<Store> {
  const kysely = new Kysely<StoreTables>({ dialect: new PostgresDialect({ pool: kyselyPool }) });
  let lease: PostgresLease | undefined;
  try {
    try {
      lease = await PostgresLease.acquire(connectOwn, (connection) => connection.end());
    } catch (error) {
      throw new StoreOpenError(label, error);
    }
    await migrateStore(kysely, { dialect: "postgres", schema });
    const state = new StoreState();
    const tables = kysely.withSchema(schema);
    const audit = new PostgresAuditLog({ pool, kysely: tables, schema, lease, state });
    await audit.recoverInterrupted();
    const held = lease;
    return await assembleStore({
      dialect: "postgres",
      schema,
      tables,
      state,
      audit,
      ownership: postgresCallOwnership(kysely, lease),
      // Its own connection, not the pool's: it is held as long as anyone watches (and then
      // until close), which would leave a small pool none for the queries.
      listen: connectOwn,
      shutdown: async () => {
        await kysely.destroy();
        await held.release();
      },
    });
  } catch (error) {
    await kysely.destroy();
    await lease?.release();
    throw error;
  }
}
