import { randomBytes } from "node:crypto";
import type { CallOwnership } from "./call-ownership.js";
import { processExists, processRegistry } from "./process-exists.js";

/** Owner tokens of the SQLite stores open in this process, shared by bundled copies. */
const openOwners: Set<string> = processRegistry("aintern.store.openCallOwners");

const ownerPattern = /^(\d+)\.[0-9a-f]+$/;

/**
 * Whether the SQLite store that wrote `owner` can no longer finish its calls: its process has
 * died or, in this process, the store has been closed. A token of a form this version does not
 * write has no store to wait for, so it counts as gone.
 */
function isSqliteCallOwnerGone(owner: string): boolean {
  const match = ownerPattern.exec(owner);
  if (match === null) return true;
  const pid = Number(match[1]);
  return pid === process.pid ? !openOwners.has(owner) : !processExists(pid);
}

/**
 * A SQLite store's {@link CallOwnership}: a fresh `<pid>.<random>` token, one per open store (the
 * idea of the audit log's per-store journal name), live until `release()`.
 */
export function sqliteCallOwnership(): CallOwnership {
  const owner = `${process.pid}.${randomBytes(6).toString("hex")}`;
  openOwners.add(owner);
  return {
    owner,
    async gone(owners) {
      return new Set(owners.filter(isSqliteCallOwnerGone));
    },
    release() {
      openOwners.delete(owner);
    },
  };
}
