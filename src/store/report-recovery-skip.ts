/** The `code` of the process warning emitted for each thing recovery skipped. */
export const RECOVERY_SKIPPED_WARNING = "AINTERN_RECOVERY_SKIPPED";

/**
 * Reports something recovery on open skipped (a torn journal line, a row the database refused)
 * as a Node process warning with code {@link RECOVERY_SKIPPED_WARNING}: printed on stderr by
 * default, observable with `process.on("warning", ...)`. Recovery goes on with the rest: one
 * bad row must never keep a store from opening.
 */
export function reportRecoverySkip(where: string, what: string): void {
  process.emitWarning(`Store recovery skipped ${what} in ${where}.`, {
    code: RECOVERY_SKIPPED_WARNING,
  });
}
