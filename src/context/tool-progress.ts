/** What a {@link ToolProgress} is built from; every member is optional. */
export interface ToolProgressInit {
  /** Human-readable progress message, e.g. `"Reading file..."` (default `""`). */
  readonly message?: string;
  /** Completion percentage, clamped to 0..100; `undefined` (or NaN) means not known. */
  readonly percentComplete?: number;
  /** The sub-operation under way, e.g. `"Compiling src/models/user.ts"`. */
  readonly currentOperation?: string;
  /** Items processed so far, for batch operations. */
  readonly itemsProcessed?: number;
  /** Total items, for batch operations. */
  readonly totalItems?: number;
  /** Estimated time remaining, in milliseconds. */
  readonly estimatedRemainingMs?: number;
  /** Whether this update carries a warning (default false). */
  readonly hasWarning?: boolean;
  /** The warning, when there is one. */
  readonly warningMessage?: string;
}

/** The plain JSON form of a {@link ToolProgress}, computed members included. */
export interface ToolProgressJson {
  readonly message: string;
  readonly percentComplete?: number;
  readonly currentOperation?: string;
  readonly itemsProcessed?: number;
  readonly totalItems?: number;
  readonly estimatedRemainingMs?: number;
  readonly hasWarning: boolean;
  readonly warningMessage?: string;
  readonly isIndeterminate: boolean;
  readonly normalizedProgress: number;
  readonly progressText: string;
  readonly remainingText?: string;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * One progress update from a long-running tool (spec 000 `ToolProgress`): a message, a known or
 * unknown percentage, item counts, a sub-operation, a remaining time and a warning, with the
 * display values a UI needs. Immutable.
 *
 * @example
 * ```ts
 * context.progress?.(ToolProgress.items("Indexing files", 5, 10)); // "5/10", 50%
 * ToolProgress.withPercent("Downloading", 42).progressText;         // "42%"
 * ```
 */
export class ToolProgress {
  readonly message: string;
  readonly percentComplete: number | undefined;
  readonly currentOperation: string | undefined;
  readonly itemsProcessed: number | undefined;
  readonly totalItems: number | undefined;
  readonly estimatedRemainingMs: number | undefined;
  readonly hasWarning: boolean;
  readonly warningMessage: string | undefined;

  constructor(init: ToolProgressInit = {}) {
    this.message = init.message ?? "";
    const percent = init.percentComplete;
    this.percentComplete =
      percent === undefined || Number.isNaN(percent) ? undefined : clamp(percent, 0, 100);
    this.currentOperation = init.currentOperation;
    this.itemsProcessed = init.itemsProcessed;
    this.totalItems = init.totalItems;
    this.estimatedRemainingMs = init.estimatedRemainingMs;
    this.hasWarning = init.hasWarning ?? false;
    this.warningMessage = init.warningMessage;
    Object.freeze(this);
  }

  /** True when neither a percentage nor a total is known: show a spinner, not a bar. */
  get isIndeterminate(): boolean {
    return this.percentComplete === undefined && this.totalItems === undefined;
  }

  /** Progress from 0 to 1 for a progress bar; 0 when nothing is known. Always within 0..1. */
  get normalizedProgress(): number {
    if (this.percentComplete !== undefined) return clamp(this.percentComplete / 100, 0, 1);
    if (this.totalItems !== undefined && this.totalItems > 0 && this.itemsProcessed !== undefined) {
      return clamp(this.itemsProcessed / this.totalItems, 0, 1);
    }
    return 0;
  }

  /** `"50%"` when a percentage is known, else `"5/10"` from item counts, else `""`. */
  get progressText(): string {
    if (this.percentComplete !== undefined) return `${this.percentComplete.toFixed(0)}%`;
    if (this.totalItems !== undefined && this.itemsProcessed !== undefined) {
      return `${this.itemsProcessed}/${this.totalItems}`;
    }
    return "";
  }

  /** `"45s remaining"`, `"12m remaining"` or `"1.5h remaining"`; undefined without an estimate. */
  get remainingText(): string | undefined {
    if (this.estimatedRemainingMs === undefined) return undefined;
    const seconds = this.estimatedRemainingMs / 1000;
    if (seconds < 60) return `${seconds.toFixed(0)}s remaining`;
    const minutes = seconds / 60;
    if (minutes < 60) return `${minutes.toFixed(0)}m remaining`;
    return `${(minutes / 60).toFixed(1)}h remaining`;
  }

  /** A copy with some members changed. */
  with(changes: ToolProgressInit): ToolProgress {
    return new ToolProgress({ ...this.toInit(), ...changes });
  }

  /** The members this progress was built from. */
  toInit(): ToolProgressInit {
    return {
      message: this.message,
      ...(this.percentComplete !== undefined && { percentComplete: this.percentComplete }),
      ...(this.currentOperation !== undefined && { currentOperation: this.currentOperation }),
      ...(this.itemsProcessed !== undefined && { itemsProcessed: this.itemsProcessed }),
      ...(this.totalItems !== undefined && { totalItems: this.totalItems }),
      ...(this.estimatedRemainingMs !== undefined && {
        estimatedRemainingMs: this.estimatedRemainingMs,
      }),
      hasWarning: this.hasWarning,
      ...(this.warningMessage !== undefined && { warningMessage: this.warningMessage }),
    };
  }

  /** Plain JSON with the computed display members, for events and the browser console. */
  toJSON(): ToolProgressJson {
    const remainingText = this.remainingText;
    return {
      ...this.toInit(),
      message: this.message,
      hasWarning: this.hasWarning,
      isIndeterminate: this.isIndeterminate,
      normalizedProgress: this.normalizedProgress,
      progressText: this.progressText,
      ...(remainingText !== undefined && { remainingText }),
    };
  }

  /** A message-only, indeterminate update. */
  static message(message: string): ToolProgress {
    return new ToolProgress({ message });
  }

  /** An update with a percentage, clamped to 0..100. */
  static withPercent(message: string, percent: number): ToolProgress {
    return new ToolProgress({ message, percentComplete: percent });
  }

  /** An item-count update; the percentage is computed (left unknown when `total` is 0). */
  static items(message: string, processed: number, total: number): ToolProgress {
    return new ToolProgress({
      message,
      itemsProcessed: processed,
      totalItems: total,
      ...(total > 0 && { percentComplete: (processed * 100) / total }),
    });
  }

  /** An update naming the current sub-operation, with an optional percentage. */
  static operation(message: string, operation: string, percent?: number): ToolProgress {
    return new ToolProgress({
      message,
      currentOperation: operation,
      ...(percent !== undefined && { percentComplete: percent }),
    });
  }

  /** An update carrying a warning. */
  static withWarning(message: string, warning: string): ToolProgress {
    return new ToolProgress({ message, hasWarning: true, warningMessage: warning });
  }

  /** A finished update at 100%. */
  static completed(message = "Completed"): ToolProgress {
    return new ToolProgress({ message, percentComplete: 100 });
  }
}
