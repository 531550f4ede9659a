/** A record view of an untyped value (an object that is not an array), or undefined. */
export function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** An own property of an untyped value; never reads through the prototype. */
export function own(value: unknown, key: string): unknown {
  const record = asRecord(value);
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** An own array property, or undefined. */
export function ownArray(value: unknown, key: string): readonly unknown[] | undefined {
  const item = own(value, key);
  return Array.isArray(item) ? item : undefined;
}

/** An own non-empty string property, or undefined. */
export function ownString(value: unknown, key: string): string | undefined {
  const item = own(value, key);
  return typeof item === "string" && item !== "" ? item : undefined;
}

/** Arguments as the extractors hand them on: text, a decoded value, or nothing. */
export function rawArguments(
  value: unknown,
): { kind: "text"; text: string } | { kind: "value"; value: unknown } | { kind: "missing" } {
  if (value === undefined) return { kind: "missing" };
  if (typeof value === "string") return { kind: "text", text: value };
  return { kind: "value", value };
}
