import { ToolExecutionStatus } from "./tool-execution-status.js";

/**
 * The statuses an audit row can carry: the executor's {@link ToolExecutionStatus} vocabulary
 * (the same members and string values, reused rather than repeated) plus `interrupted`, which
 * only the store writes (an execution whose process died before it finished).
 *
 * Spec 003 stores `status` as an integer; {@link auditStatusCode} is that mapping. The numbers
 * follow the order of the vocabulary and never change once written: a status added to
 * `ToolExecutionStatus` must go after the existing ones, and `Interrupted` keeps code 10.
 */
export const AuditStatus = Object.freeze({
  ...ToolExecutionStatus,
  Interrupted: "interrupted",
} as const);

/** One of the {@link AuditStatus} values. */
export type AuditStatus = (typeof AuditStatus)[keyof typeof AuditStatus];

const statuses: readonly AuditStatus[] = Object.freeze(Object.values(AuditStatus));
const codes = new Map<string, number>(statuses.map((status, index) => [status, index]));

/** Every status, in the order of its integer code (index = code). */
export const allAuditStatuses: readonly AuditStatus[] = statuses;

/** The integer stored in the `status` column for `status`, or `undefined` if it is not one. */
export function auditStatusCode(status: string): number | undefined {
  return codes.get(status);
}

/** The status an integer code stands for, or `undefined` for a code no status has. */
export function auditStatusFromCode(code: number): AuditStatus | undefined {
  return Number.isInteger(code) ? statuses[code] : undefined;
}

/** True when `value` is one of the {@link AuditStatus} strings. */
export function isAuditStatus(value: unknown): value is AuditStatus {
  return typeof value === "string" && codes.has(value);
}
