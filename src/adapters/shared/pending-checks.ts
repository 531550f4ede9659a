import type { CheckedCall } from "../../calls/index.js";

/** How many checks a tool set keeps for executions that have not come (yet). */
const maxPendingChecks = 256;

/** A check kept for its call's `execute`: what `processCall` is then given. */
export interface PendingCheck {
  readonly checked: CheckedCall;
  /** The arguments object that was checked: `processCall` must be given this very object. */
  readonly parameters: unknown;
}

/**
 * The checks a framework's approval hook made (`checkCall`) on calls it let run unasked, kept
 * until the same call's `execute`, which then runs the call on the check instead of judging it
 * again. A check is handed out once, and only for the input it was made on (`sameInput`: the
 * very object by default); one whose execution never comes is dropped, oldest first, past
 * {@link maxPendingChecks}.
 */
export class PendingChecks {
  readonly #checks = new Map<string, PendingCheck & { readonly input: unknown }>();
  readonly #sameInput: (kept: unknown, given: unknown) => boolean;

  constructor(sameInput: (kept: unknown, given: unknown) => boolean = Object.is) {
    this.#sameInput = sameInput;
  }

  keep(callId: string, input: unknown, check: PendingCheck): void {
    this.#checks.delete(callId);
    this.#checks.set(callId, { ...check, input });
    if (this.#checks.size > maxPendingChecks) {
      const oldest = this.#checks.keys().next().value;
      if (oldest !== undefined) this.#checks.delete(oldest);
    }
  }

  /** The check kept for this call and input, forgetting it; undefined when there is none. */
  take(callId: string, input: unknown): PendingCheck | undefined {
    if (this.#checks.size === 0) return undefined;
    const kept = this.#checks.get(callId);
    if (kept === undefined) return undefined;
    this.#checks.delete(callId);
    return this.#sameInput(kept.input, input) ? kept : undefined;
  }
}
