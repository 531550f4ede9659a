import { isAbsolute, resolve } from "node:path";
import { InvalidStoreUrlError } from "./invalid-store-url-error.js";

/** A store URL, understood. A SQLite `path` is absolute, or `":memory:"`. */
export type StoreLocation =
  | { readonly dialect: "sqlite"; readonly path: string }
  | { readonly dialect: "postgres"; readonly connectionString: string };

/**
 * Reads a store URL: `sqlite:<file>` (a path relative to the working directory, or absolute),
 * `sqlite::memory:`, or a `postgres://` / `postgresql://` connection string. Throws
 * {@link InvalidStoreUrlError} for anything else.
 */
export function parseStoreUrl(url: string): StoreLocation {
  if (typeof url !== "string" || url.trim().length === 0) {
    throw new InvalidStoreUrlError(String(url), undefined, "The store URL is empty.");
  }
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  if (scheme === "sqlite") {
    const path = url.slice("sqlite:".length);
    if (path === ":memory:") return { dialect: "sqlite", path: ":memory:" };
    if (path.length === 0) {
      throw new InvalidStoreUrlError(url, "sqlite:", `Store URL "${url}" names no database file.`);
    }
    if (path.startsWith("//")) {
      throw new InvalidStoreUrlError(
        url,
        "sqlite:",
        `Store URL "${url}" looks like sqlite://…; write the path right after "sqlite:" (sqlite:./data.db, sqlite:/var/lib/aintern.db).`,
      );
    }
    return { dialect: "sqlite", path: isAbsolute(path) ? path : resolve(path) };
  }
  if (scheme === "postgres" || scheme === "postgresql") {
    if (!/^[A-Za-z]+:\/\/[^/]/.test(url)) {
      throw new InvalidStoreUrlError(url, `${scheme}:`, `Store URL "${url}" names no host.`);
    }
    return { dialect: "postgres", connectionString: url };
  }
  throw new InvalidStoreUrlError(url, scheme === undefined ? undefined : `${scheme}:`);
}
