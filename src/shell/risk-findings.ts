import { RiskLevel } from "../core/index.js";
import type { RiskFinding } from "./read-only-programs.js";

/**
 * The findings of one assessment; the assessment is the highest.
 *
 * @internal
 */
export class RiskFindings {
  readonly list: RiskFinding[] = [];
  /** A download was seen earlier in the command line (`curl ... | sh`). */
  downloadSeen = false;
  /** Aliases defined earlier in the command line: name -> the text it stands for. */
  readonly aliases = new Map<string, string>();

  add(level: RiskLevel, reason: string): void {
    if (!this.list.some((f) => f.reason === reason)) this.list.push({ level, reason });
  }

  addFinding(finding: RiskFinding | undefined): void {
    if (finding !== undefined) this.add(finding.level, finding.reason);
  }
}

/** What a program's rule needs besides its words. */
export interface ClassifyContext {
  readonly findings: RiskFindings;
  /** Assesses a command line the program runs (`sh -c`, `eval`, `find -exec`). */
  readonly assess: (command: string) => void;
  /** Scripts the command reads on standard input, when known (here-documents, `echo ... |`). */
  readonly stdinScripts: readonly string[];
  /**
   * Why what the command reads on its input cannot be read as a script, if it cannot: a pipe
   * from a program other than `echo`, `printf` or `cat` of here-documents, or a file (`< x`).
   */
  readonly unreadInput?: string | undefined;
}

/**
 * A program that runs its input as a shell script (`ssh HOST` without a command): the scripts
 * the line shows are judged; one it does not show (`base64 -d x | ssh h`, `ssh h < x`) is High.
 */
export function runsInput(name: string, context: ClassifyContext): void {
  if (context.unreadInput !== undefined) {
    context.findings.add(
      RiskLevel.High,
      `It runs what '${name}' reads from its input as a script.`,
    );
  }
  for (const script of context.stdinScripts) context.assess(script);
}
