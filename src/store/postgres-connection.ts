/** Default time to wait for a PostgreSQL connection (TCP, TLS and login), in ms. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
/** Default server-side limit on one statement, in ms (PostgreSQL's `statement_timeout`). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 60_000;

/** The timeouts of a PostgreSQL store (see `StoreConfig`). */
export interface PostgresTimeouts {
  readonly connectTimeoutMs?: number;
  readonly statementTimeoutMs?: number;
}

/** The `pg` settings every connection of a store uses: timeouts included, so nothing hangs. */
export function postgresConnection(
  connectionString: string,
  applicationName: string,
  timeouts: PostgresTimeouts,
) {
  const statementTimeoutMs = timeouts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  return {
    connectionString,
    application_name: applicationName,
    connectionTimeoutMillis: timeouts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    // 0 means none: pg leaves the server's setting alone when the value is falsy.
    ...(statementTimeoutMs > 0 && { statement_timeout: statementTimeoutMs }),
  };
}

/** `host:port` of a connection string, for error messages (`localhost:5432` when unnamed). */
export function postgresAddress(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = decodeURIComponent(url.hostname) || url.searchParams.get("host") || "localhost";
    return `${host}:${url.port || "5432"}`;
  } catch {
    return "the server of the connection string";
  }
}

/**
 * Why connecting failed, naming the server: a timeout says which setting to raise, anything
 * else keeps the driver's message.
 */
export function postgresConnectFailure(
  connectionString: string,
  connectTimeoutMs: number,
  error: unknown,
): Error {
  const address = postgresAddress(connectionString);
  const reason = error instanceof Error ? error.message : String(error);
  const message = /timeout/i.test(reason)
    ? `no answer from PostgreSQL at ${address} within ${connectTimeoutMs} ms (connectTimeoutMs). Is a PostgreSQL server listening there? Raise connectTimeoutMs for a slow network.`
    : `could not connect to PostgreSQL at ${address}: ${reason}`;
  return new Error(message, { cause: error });
}
