import { AinternError } from "../core/index.js";

/**
 * Why an execution was not started: the SQLite store could not write the line that records it
 * in its crash journal (a full disk, a file-size limit, an I/O error). The execution fails
 * before its tool runs, so nothing runs without the evidence that it ran.
 */
export class JournalWriteError extends AinternError {
  /** The journal file. */
  readonly path: string;

  constructor(path: string, written: number, length: number, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "JOURNAL_WRITE_FAILED",
      `The store could not record the start of the execution in its crash journal ${path} (${written} of ${length} bytes written: ${reason}), so the tool was not run. Free disk space or raise the file-size limit, then try again.`,
      { cause },
    );
    this.name = "JournalWriteError";
    this.path = path;
  }
}
