import { AinternError } from "../core/index.js";

/**
 * Checks a duration in milliseconds. Internal to the folder.
 *
 * @throws AinternError `INVALID_DURATION` when `durationMs` is negative, NaN or infinite.
 */
export function checkDurationMs(durationMs: number): number {
  if (!Number.isFinite(durationMs) || durationMs < 0) {
    throw new AinternError(
      "INVALID_DURATION",
      `A duration must be a finite, non-negative number of milliseconds, got ${durationMs}.`,
    );
  }
  return durationMs;
}
