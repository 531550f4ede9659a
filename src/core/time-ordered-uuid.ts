import { randomUUID } from "node:crypto";

let lastMs = -1;
let prefix = "";

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. Rows keyed by
 * it arrive in roughly ascending order, so each insert lands at the right edge of the id index
 * instead of on a random page: a B-tree insert then touches pages already in cache.
 * Used for execution, batch and audit row ids.
 */
export function timeOrderedUuid(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    const hex = ms.toString(16).padStart(12, "0");
    prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7`;
  }
  // A v4 UUID's random bits after its version digit, variant bits (10xx) included.
  return prefix + randomUUID().slice(15);
}
