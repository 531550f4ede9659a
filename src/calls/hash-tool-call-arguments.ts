import { hash } from "node:crypto";
import type { JsonObject } from "../core/index.js";
import { canonicalJson } from "./json-utils.js";

/**
 * SHA-256 (hex) of a call's arguments in canonical JSON (keys sorted, no whitespace), so the same
 * arguments always hash the same however the model ordered or spaced them. Binds an
 * {@link ApprovalDecision} to exactly the arguments a person saw.
 *
 * @example
 * ```ts
 * hashToolCallArguments({ b: 1, a: 2 }) === hashToolCallArguments({ a: 2, b: 1 }); // true
 * ```
 */
export function hashToolCallArguments(parameters: JsonObject): string {
  return hash("sha256", canonicalJson(parameters), "hex");
}
