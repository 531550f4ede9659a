import { createHash } from "node:crypto";

/**
 * A call id for a provider that gave none (older Gemini responses, plain text): the prefix, the
 * call's position and a hash of what the call says, so parsing the same response twice gives the
 * same ids. Requests carry `callIdSynthesized: true`, and result messages leave such ids out where
 * the provider does not expect one.
 */
export function synthesizeCallId(prefix: string, index: number, content: string): string {
  const digest = createHash("sha256").update(content, "utf8").digest("hex").slice(0, 12);
  return `${prefix}_${index}_${digest}`;
}

/** `JSON.stringify`, or a fallback for values it cannot handle (cycles, BigInt, deep nesting). */
export function stringifyForId(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}
